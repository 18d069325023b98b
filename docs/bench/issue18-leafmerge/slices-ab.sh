#!/bin/bash
# A = head2 (HEAD 948bb82+), B = sl1 (+ merge slices checkpointed beside)
while ! grep -q "^rc=" /tmp/s8/crash.log; do sleep 5; done
mkdir -p /tmp/s8/sl; cd /tmp/s8/sl
JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
L=/tmp/idxkit-bench.lock
echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
c3() { flock $L java $JV -cp /tmp/$1-benchmarks.jar dev.idxkit.jmh.peers.CompareBench --stores idxkit,lmdb,rocksdb --out /tmp/s8/sl/c3-$1-$2 > /tmp/s8/sl/c3-$1-$2.log 2>&1; echo "c3 $1 $2 $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"; }
all() { flock $L java $JV -cp /tmp/$1-benchmarks.jar dev.idxkit.jmh.peers.CompareBench --out /tmp/s8/sl/all-$1-$2 > /tmp/s8/sl/all-$1-$2.log 2>&1; echo "all $1 $2 $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"; }
gr() { flock $L java $JV -cp /tmp/$1-benchmarks.jar dev.idxkit.jmh.experiments.GrowthBench --no-sqlite --seed 42 --out /tmp/s8/sl/g-$1-$2 > /tmp/s8/sl/g-$1-$2.log 2>&1; echo "growth $1 $2 $(date -u +%H:%M:%S)"; }
c3 head2 1; c3 sl1 1; all sl1 1; all head2 1; gr head2 1; gr sl1 1
c3 sl1 2; c3 head2 2; all head2 2; all sl1 2; gr sl1 2; gr head2 2
echo "end $(date -u +%H:%M:%S)"
