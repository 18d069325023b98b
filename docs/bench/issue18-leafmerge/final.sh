#!/bin/bash
cd /tmp/s8/fin
JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
L=/tmp/idxkit-bench.lock
J=/tmp/lm3-benchmarks.jar
echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in 1 2; do
  flock $L java $JV -cp $J dev.idxkit.jmh.peers.CompareBench --out /tmp/s8/fin/all-$r > /tmp/s8/fin/all-$r.log 2>&1
  echo "compare all $r done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
done
for r in 1 2 3; do
  flock $L java $JV -cp $J dev.idxkit.jmh.peers.CompareBench --stores idxkit,lmdb,rocksdb --out /tmp/s8/fin/c-$r > /tmp/s8/fin/c-$r.log 2>&1
  echo "compare 3 stores $r done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
done
flock $L java $JV -cp $J dev.idxkit.jmh.peers.CompareBench --stores idxkit,lmdb,rocksdb --inserts 1000000 --out /tmp/s8/fin/big-2 > /tmp/s8/fin/big-2.log 2>&1
echo "big done $(date -u +%H:%M:%S)"
flock $L java $JV -cp $J dev.idxkit.jmh.experiments.GrowthBench --no-sqlite --seed 42 --runs 14 --per-run 305000 --out /tmp/s8/fin/gf > /tmp/s8/fin/gf.log 2>&1
echo "growth full done $(date -u +%H:%M:%S)"
echo "end $(date -u +%H:%M:%S)"
