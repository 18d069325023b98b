#!/bin/bash
# One-off (issue 14's bigger-than-memory run, again at the twenty-sixth pass's code): lineitem SF 10
# (60 M rows) loaded from the generator, then its six indexes rebuilt with --memory 256m over a
# three-directory .srt, then checked. Run alone on the machine: WORK=/tmp/s33/sf10 bash run.sh
set -x
WORK=${WORK:-/tmp/sf10}
K=/work/main/idxkit
mkdir -p "$WORK" && cd "$WORK" || exit 2
rm -rf sf10.db srt1 srt2 srt3 sf10.db.srt idxbuild.json
uptime
/usr/bin/time -v $K create sf10.db --tpch
/usr/bin/time -v $K load sf10.db --tpch lineitem --sf 10 --index-build none --progress plain
mkdir -p srt1 srt2 srt3
printf '# three sort directories\n0 srt1/\n0 srt2/\n0 srt3/\n' > sf10.db.srt
uptime
/usr/bin/time -v $K idxbuild sf10.db --inactive --memory 256m --srt sf10.db.srt -rusage --json idxbuild.json --progress plain
uptime
/usr/bin/time -v $K check sf10.db
du -sh sf10.db
