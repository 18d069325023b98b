#!/bin/bash
# usage: ab.sh TAG N JAR_A JAR_B [stores]
cd /tmp/s11
TAG=$1; N=$2; A=$3; B=$4; ST=${5:+--stores $5}
JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
for r in $(seq 1 $N); do for v in A B; do
  J=$A; [ $v = B ] && J=$B
  o=$TAG-$v-$r
  flock /tmp/idxkit-bench.lock java $JV -cp $J dev.idxkit.jmh.peers.CompareBench $ST --out /tmp/s11/$o > $o.log 2>&1
  echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) $(grep PROBE $o.log) | $(grep -A7 'store       persist' $o.log | grep idxkit | tr -s ' ') | mapdb $(grep -A7 'store       persist' $o.log | grep mapdb | awk '{print $5}') | $(grep 'goal' $o.log | grep insert | grep -o '= [0-9.]*' | tr '\n' ' ')"
done; done
