#!/bin/bash
# A/B for LeafMerge: A = 58b4ae6 (head-benchmarks, fill 100; fill90-benchmarks = 58b4ae6 with the build at 90), B = f155290 (lm2, --fill).
cd /tmp/s8/ab
JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
L=/tmp/idxkit-bench.lock
S=idxkit,lmdb,rocksdb
run() { # name jar args...
  local n=$1 j=$2; shift 2
  flock $L java $JV -cp $j dev.idxkit.jmh.peers.CompareBench --stores $S "$@" --out /tmp/s8/ab/$n > /tmp/s8/ab/$n.log 2>&1
  echo "$n done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
}
echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
run cA100-1 /tmp/head-benchmarks.jar
run cB100-1 /tmp/lm2-benchmarks.jar --fill 100
run cA90-1 /tmp/fill90-benchmarks.jar
run cB90-1 /tmp/lm2-benchmarks.jar --fill 90
run cB100-2 /tmp/lm2-benchmarks.jar --fill 100
run cA100-2 /tmp/head-benchmarks.jar
run cB90-2 /tmp/lm2-benchmarks.jar --fill 90
run cA90-2 /tmp/fill90-benchmarks.jar
for r in 1 2; do
  for v in head lm2; do
    flock $L java $JV -cp /tmp/$v-benchmarks.jar dev.idxkit.jmh.experiments.GrowthBench --no-sqlite --seed 42 --out /tmp/s8/ab/g-$v-$r > /tmp/s8/ab/g-$v-$r.log 2>&1
    echo "growth $v $r done $(date -u +%H:%M:%S)"
  done
done
echo "end $(date -u +%H:%M:%S)"
