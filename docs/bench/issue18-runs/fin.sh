#!/bin/bash
cd /tmp/s11
J=/tmp/s11/group3.jar
JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
for r in 1 2 3 4; do
  o=fin6-$r
  java $JV -cp $J dev.idxkit.jmh.peers.CompareBench --out /tmp/s11/$o > $o.log 2>&1
  echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $(grep -A7 'store       persist' $o.log | grep idxkit | tr -s ' ') | mapdb $(grep -A7 'store       persist' $o.log | grep mapdb | awk '{print $5}') | rocksdb $(grep -A7 'store       persist' $o.log | grep rocksdb | tr -s ' ') | $(grep 'goal' $o.log | grep insert | grep -o '= [0-9.]*' | tr '\n' ' ')"
done
o=fin3-1
java $JV -cp $J dev.idxkit.jmh.peers.CompareBench --stores idxkit,lmdb,rocksdb --out /tmp/s11/$o > $o.log 2>&1
echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $(grep -A4 'store       persist' $o.log | grep idxkit | tr -s ' ') | $(grep 'goal' $o.log | grep insert | grep -o '= [0-9.]*' | tr '\n' ' ')"
o=fing-1
java $JV -cp $J dev.idxkit.jmh.experiments.GrowthBench --no-sqlite --seed 42 --out /tmp/s11/$o > $o.log 2>&1
echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $(grep -iE 'goal|run 14 / run 3|close' $o.log | head -4 | tr '\n' '|')"
