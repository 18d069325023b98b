#!/bin/bash
# A = integ7 (/tmp/i7.jar), B = integ7 + per-chunk scan read-ahead (/tmp/scanra.jar); A B A B
JV=$(cat /work/main/cli/target/jvm.args)
for i in 1 2; do
 for v in A B; do
  jar=/tmp/i7.jar; [ $v = B ] && jar=/tmp/scanra.jar
  echo "=== $v run $i $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  java $JV -Xmx6g -Didxkit.home=/work/wt/integ -cp $jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 1 --threads 1,2 --memory 2g --peers none --warmup 1 --repeat 3 --pk-alone true --work /tmp/m18/ib-work --out /tmp/m18/ib-$v-$i > /tmp/m18/ib-$v-$i.log 2>&1
  grep -E "^  idxkit|scan|t1 / t2|goal|check" /tmp/m18/ib-$v-$i.log | head -30
 done
done
echo "=== end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
