#!/bin/bash
# pkab.sh N: IdxbuildBench SF 1, threads 1,2, 2g, pk alone + six, in-JVM; B = /tmp/s22/wt (5ea58d1), A = /work/main, in turn, N pairs
N=$1
for r in $(seq 1 $N); do
for v in B A; do
d=/work/main; [ $v = B ] && d=/tmp/s22/wt
java $(cat /work/main/cli/target/jvm.args) -Xmx8g -cp $d/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 1 --threads 1,2 --memory 2g --peers none --pk-alone true --warmup 1 --repeat 5 --cli 0 --check false --work /tmp/bulk-work --out /tmp/s22/pkab-$v-$r > /tmp/s22/pkab-$v-$r.txt 2>&1
echo "$v-$r $(date -u +%T) $(grep -E 'primary key alone|six indexes: t1 / t2' /tmp/s22/pkab-$v-$r.txt | tr -s ' ' | tr '\n' '|')"
done; done
