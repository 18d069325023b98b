-- a table the database already has
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE base (id BIGINT PRIMARY KEY);
