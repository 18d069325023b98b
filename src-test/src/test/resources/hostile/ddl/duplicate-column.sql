-- the same column twice
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE t (
  id BIGINT NOT NULL,
  id INT
);
