#!/bin/bash
# A/B: $1 jar A name, $2 jar B name, $3 pairs
cd /tmp/s9
JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
for r in $(seq 1 $3); do for v in $1 $2; do
  flock /tmp/idxkit-bench.lock java $JV -cp /tmp/s9/$v-benchmarks.jar dev.idxkit.jmh.peers.CompareBench --out /tmp/s9/all-$v-$r > /tmp/s9/all-$v-$r.log 2>&1
  echo "$v $r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) $(grep -A1 'store       persist' all-$v-$r.log | tail -1) mapdb $(grep -A7 'store       persist' all-$v-$r.log | grep mapdb | awk '{print $5}') $(grep 'best B-tree' all-$v-$r.log | grep -o '= [0-9.]*') rocks $(grep 'durable and merged: idxkit / RocksDB' all-$v-$r.log | grep -o '= [0-9.]*')"
done; done
