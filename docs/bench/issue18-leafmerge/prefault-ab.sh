#!/bin/bash
# A = e756377 (lm4), B = + prefaulting page pool (pf1)
mkdir -p /tmp/s8/pf; cd /tmp/s8/pf
JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
L=/tmp/idxkit-bench.lock
echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in 1 2; do
  for v in lm4 pf1; do
    flock $L java $JV -cp /tmp/$v-benchmarks.jar dev.idxkit.jmh.peers.CompareBench --stores idxkit,lmdb,rocksdb --out /tmp/s8/pf/c3-$v-$r > /tmp/s8/pf/c3-$v-$r.log 2>&1
    echo "c3 $v $r done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  done
  for v in pf1 lm4; do
    flock $L java $JV -cp /tmp/$v-benchmarks.jar dev.idxkit.jmh.peers.CompareBench --out /tmp/s8/pf/all-$v-$r > /tmp/s8/pf/all-$v-$r.log 2>&1
    echo "all $v $r done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  done
  for v in lm4 pf1; do
    flock $L java $JV -cp /tmp/$v-benchmarks.jar dev.idxkit.jmh.experiments.GrowthBench --no-sqlite --seed 42 --out /tmp/s8/pf/g-$v-$r > /tmp/s8/pf/g-$v-$r.log 2>&1
    echo "growth $v $r done $(date -u +%H:%M:%S)"
  done
done
echo "end $(date -u +%H:%M:%S)"
