#!/bin/bash
cd /tmp/s9
JV="$(cat /work/main/cli/target/jvm.args) -Xmx6g"
for r in 1 2; do for v in head uniq; do
  flock /tmp/idxkit-bench.lock java $JV -cp /tmp/s9/$v-benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 1 --threads 1,2 --memory 512m --peers none --pk-alone true --warmup 1 --repeat 3 --cli 0 --work /tmp/s9/idxw --out /tmp/s9/pkab-$v-$r > /tmp/s9/pkab-$v-$r.log 2>&1
  echo "$v $r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  grep -E "idxkit (pk )?t[12] 512m|t1 / t2" /tmp/s9/pkab-$v-$r.log | sed 's/keys\/s.*runs/| runs/'
done; done
