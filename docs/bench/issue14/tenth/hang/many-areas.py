# many-areas.py DIR: the schema and CSV of the rebuild that hung before 309f573 (see README.md):
# table t (id, c0..c19), 160 two-column indexes, index n in TABLESPACE a((n // 8) % 20), so that the
# eight sort groups of -SG 8 (indexes dealt round) each write into 20 areas; 20,000 rows (seed 1).
import os, random, sys
d = sys.argv[1]
cols = ", ".join(f"c{i} INT NOT NULL" for i in range(20))
ddl = f"CREATE TABLE t (id INT NOT NULL PRIMARY KEY, {cols});\n"
n = 0
for i in range(20):
    for j in range(20):
        if i != j and n < 160:
            ddl += f"CREATE INDEX t_{i}_{j} ON t (c{i}, c{j}) TABLESPACE a{(n // 8) % 20};\n"
            n += 1
open(os.path.join(d, "s5.sql"), "w").write(ddl)
random.seed(1)
with open(os.path.join(d, "t.csv"), "w") as f:
    f.write("id," + ",".join(f"c{i}" for i in range(20)) + "\n")
    for r in range(20000):
        f.write(str(r) + "," + ",".join(str(random.randint(0, 10**6)) for i in range(20)) + "\n")
