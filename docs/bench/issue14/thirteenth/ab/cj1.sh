#!/bin/bash
# cj1.sh ROOT TAG [JVM flags]: one cold SF 1 idxbuild (2 GB) as ./idxkit runs it (JDK 17, CDS); its JSON report kept as $J/TAG-PID.json
# (the ninth pass's cj.sh with the SF 1 database and --memory 2g; the thirteenth pass ran it with J=/tmp/s20/j1)
cd $1; T=$2; shift 2
exec java $(cat cli/target/jvm.args) -XX:SharedArchiveFile=cli/target/idxkit.jsa -Xshare:auto -Xlog:cds*=off "$@" -jar cli/target/idxkit.jar idxbuild /tmp/s13/sf1.db --table lineitem --memory 2g --threads 2 --srt /tmp/s13/sf05.srt --progress none --json ${J:-/tmp/s16/j}/$T-$$.json > /dev/null 2>&1
