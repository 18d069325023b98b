#!/bin/bash
# c25.sh ROOT [extra jvm args...]: one cold SF 0.5 idxbuild as ./idxkit runs it on JDK 25 (AOT cache), output discarded
cd $1; shift
exec /usr/lib/jvm/temurin-25-jdk-amd64/bin/java $(cat cli/target/jvm.args) -XX:AOTCache=cli/target/idxkit.jsa -Xlog:aot*=off -Xlog:cds*=off "$@" -jar cli/target/idxkit.jar idxbuild /tmp/s13/sf05.db --table lineitem --memory 512m --threads 2 --srt /tmp/s13/sf05.srt --progress none --json /tmp/s15/last-$$.json > /tmp/s15/c25.out 2>&1
