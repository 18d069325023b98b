#!/bin/bash
# plan.sh ROOT: idxbuild --plan on the SF 0.5 database (start-up, database open, plan), as ./idxkit runs it
cd $1
exec java $(cat cli/target/jvm.args) -XX:SharedArchiveFile=cli/target/idxkit.jsa -Xshare:auto -Xlog:cds*=off -jar cli/target/idxkit.jar idxbuild /tmp/s13/sf05.db --table lineitem --memory 512m --threads 2 --srt /tmp/s13/sf05.srt --progress none --plan > /dev/null 2>&1
