-- a quoted name that never ends
CREATE TABLE good (id BIGINT PRIMARY KEY);
CREATE TABLE "t (
  id BIGINT NOT NULL
);
