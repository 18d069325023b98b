-- a table without columns
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE t ();
