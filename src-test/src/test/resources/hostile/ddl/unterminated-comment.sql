-- a block comment that never ends
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE t (id BIGINT) /* no end
