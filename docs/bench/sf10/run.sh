#!/bin/bash
# One-off: lineitem SF 10 (60 M rows) rebuilt with --memory 256m over a three-directory .srt.
set -x
cd /work/sf10
K=/work/main/idxkit
uptime
/usr/bin/time -v $K create sf10.db --tpch
/usr/bin/time -v $K load sf10.db --tpch lineitem --sf 10 --index-build none --progress plain
mkdir -p srt1 srt2 srt3
printf '# three sort directories\n0 srt1/\n0 srt2/\n0 srt3/\n' > sf10.db.srt
uptime
/usr/bin/time -v $K idxbuild sf10.db --inactive --memory 256m --srt sf10.db.srt -rusage --json idxbuild.json --progress plain
uptime
$K check sf10.db
du -sh sf10.db
