-- a string default that never ends
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE t (
  id BIGINT NOT NULL,
  name VARCHAR(10) DEFAULT 'abc
);
