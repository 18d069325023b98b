#!/bin/bash
# ld.sh ROOT TAG: one `idxkit load` of the SF 1 lineitem CSV into a new database, no index build, as ./idxkit runs it (JDK 17, CDS)
cd $1; D=/tmp/s20/ldb-$2; rm -rf $D
J="java $(cat cli/target/jvm.args) -XX:SharedArchiveFile=cli/target/idxkit.jsa -Xshare:auto -Xlog:cds*=off -jar cli/target/idxkit.jar"
$J create $D --tpch > /dev/null 2>&1 && $J load $D --table lineitem --csv /tmp/bulk-work/lineitem-sf1.0.csv --index-build none --progress none >> /tmp/s20/ld-$2.txt 2>&1; rc=$?; rm -rf $D; exit $rc
