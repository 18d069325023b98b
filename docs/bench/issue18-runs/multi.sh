#!/bin/bash
# usage: multi.sh TAG ROUNDS JAR... : six-store CompareBench, jars in turn each round
cd /tmp/s11
TAG=$1; N=$2; shift 2
JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
for r in $(seq 1 $N); do for J in "$@"; do
  o=$TAG-$(basename $J .jar)-$r
  java $JV -cp $J dev.idxkit.jmh.peers.CompareBench --out /tmp/s11/$o > $o.log 2>&1
  echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $(grep -A7 'store       persist' $o.log | grep idxkit | tr -s ' ') | mapdb $(grep -A7 'store       persist' $o.log | grep mapdb | awk '{print $5}') | $(grep 'goal' $o.log | grep insert | grep -o '= [0-9.]*' | tr '\n' ' ')"
done; done
