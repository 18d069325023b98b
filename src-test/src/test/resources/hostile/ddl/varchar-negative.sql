-- a negative length
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE t (
  id BIGINT NOT NULL,
  name VARCHAR(-5)
);
