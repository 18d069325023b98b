-- the same table created twice in one script
CREATE TABLE a (id BIGINT PRIMARY KEY);

CREATE TABLE a (id BIGINT PRIMARY KEY);
