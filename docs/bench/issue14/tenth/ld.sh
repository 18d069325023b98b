#!/bin/bash
# ld.sh TAG [jvm opts]: a new TPC-H database, then `idxkit load` of the SF 1 lineitem CSV through main's launcher
T=$1; shift
rm -rf /tmp/s17/ldb-$T; /work/main/idxkit create /tmp/s17/ldb-$T --tpch > /dev/null || exit 1
IDXKIT_JAVA_OPTS="$*" /work/main/idxkit load /tmp/s17/ldb-$T --table lineitem --csv /tmp/bulk-work/lineitem-sf1.0.csv --progress none > /tmp/s17/ld-$T.out 2>&1 || exit 1
rm -rf /tmp/s17/ldb-$T
