#!/bin/bash
# c.sh ROOT [extra jvm args...]: one cold SF 0.5 idxbuild as ./idxkit runs it (JDK 17, CDS), output discarded
cd $1; shift
exec java $(cat cli/target/jvm.args) -XX:SharedArchiveFile=cli/target/idxkit.jsa -Xshare:auto -Xlog:cds*=off "$@" -jar cli/target/idxkit.jar idxbuild /tmp/s13/sf05.db --table lineitem --memory 512m --threads 2 --srt /tmp/s13/sf05.srt --progress none --json /tmp/s15/last-$$.json > /dev/null 2>&1
