-- a DECIMAL precision far beyond what any engine stores
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE t (
  id BIGINT NOT NULL,
  amount DECIMAL(1000000, 2)
);
