-- a DECIMAL precision that does not fit in an int
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE t (
  id BIGINT NOT NULL,
  amount DECIMAL(99999999999999999999, 2)
);
