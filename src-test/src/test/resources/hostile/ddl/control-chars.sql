-- control characters where a name should be
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE [31m (id BIGINT);
