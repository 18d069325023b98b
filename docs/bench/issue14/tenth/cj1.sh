#!/bin/bash
# cj1.sh ROOT TAG [jvm args]: one cold SF 1 idxbuild, 2g, t2, as ./idxkit runs it (JDK 17, CDS); JSON kept in $J (default /tmp/s17/j1)
cd $1; T=$2; shift 2
exec java $(cat cli/target/jvm.args) -XX:SharedArchiveFile=cli/target/idxkit.jsa -Xshare:auto -Xlog:cds*=off "$@" -jar cli/target/idxkit.jar idxbuild /tmp/s13/sf1.db --table lineitem --memory 2g --threads 2 --srt /tmp/s13/sf05.srt --progress none --json ${J:-/tmp/s17/j1}/$T-$$.json > /dev/null 2>&1
