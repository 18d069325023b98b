-- an index over a column the table does not have
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(10));
CREATE INDEX t_x ON t (nope);
