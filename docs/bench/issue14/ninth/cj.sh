#!/bin/bash
# cj.sh ROOT TAG [JVM flags]: one cold SF 0.5 idxbuild as ./idxkit runs it (JDK 17, CDS); its JSON report kept as $J/TAG-PID.json
# (J: default /tmp/s16/j, the ninth pass's; the tenth used a directory per series under /tmp/s17)
cd $1; T=$2; shift 2
exec java $(cat cli/target/jvm.args) -XX:SharedArchiveFile=cli/target/idxkit.jsa -Xshare:auto -Xlog:cds*=off "$@" -jar cli/target/idxkit.jar idxbuild /tmp/s13/sf05.db --table lineitem --memory 512m --threads 2 --srt /tmp/s13/sf05.srt --progress none --json ${J:-/tmp/s16/j}/$T-$$.json > /dev/null 2>&1
