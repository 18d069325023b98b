-- a type idxkit does not know
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE t (
  id BIGINT NOT NULL,
  x FOO(3)
);
