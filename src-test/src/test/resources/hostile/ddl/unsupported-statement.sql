-- a statement that is not CREATE TABLE or CREATE INDEX
CREATE TABLE good (id BIGINT PRIMARY KEY);
DROP TABLE good;
