#!/bin/bash
cd /tmp/s9
JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
L=/tmp/idxkit-bench.lock
line() { echo "$1 $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) $(grep -A1 'store       persist' $1.log | tail -1) mapdb $(grep -A7 'store       persist' $1.log | grep mapdb | awk '{print $5}') lmdb $(grep -A7 'store       persist' $1.log | grep lmdb | awk '{print $5}') | $(grep 'goal' $1.log | grep insert | grep -o '= [0-9.]*' | tr '\n' ' ')"; }
echo "start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in 1 2 3; do for v in main fin; do
  flock $L java $JV -cp /tmp/s9/$v-benchmarks.jar dev.idxkit.jmh.peers.CompareBench --out /tmp/s9/f6-$v-$r > /tmp/s9/f6-$v-$r.log 2>&1
  line f6-$v-$r
done; done
for r in 1 2 3; do for v in main fin; do
  flock $L java $JV -cp /tmp/s9/$v-benchmarks.jar dev.idxkit.jmh.peers.CompareBench --stores idxkit,lmdb,rocksdb --out /tmp/s9/f3-$v-$r > /tmp/s9/f3-$v-$r.log 2>&1
  line f3-$v-$r
done; done
for r in 1 2; do for v in main fin; do
  flock $L java $JV -cp /tmp/s9/$v-benchmarks.jar dev.idxkit.jmh.experiments.GrowthBench --no-sqlite --seed 42 --out /tmp/s9/g-$v-$r > /tmp/s9/g-$v-$r.log 2>&1
  echo "g-$v-$r $(date -u +%T) $(grep -E 'idxkit: close|goal: idxkit' /tmp/s9/g-$v-$r.log | sed 's/growth: idxkit: //' | tr '\n' ' ')"
done; done
echo "end $(date -u +%T)"
