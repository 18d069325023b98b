-- an index on a table that does not exist
CREATE TABLE good (id BIGINT PRIMARY KEY);

CREATE INDEX t_x ON missing (id);
