#!/bin/bash
# pkab.sh N VARIANTS...: IdxbuildBench SF 1, threads 1,2, 512m, pk alone, in-JVM; variants' jars /tmp/s19/V-benchmarks.jar in turn, N rounds
N=$1; shift
for r in $(seq 1 $N); do
for v in "$@"; do
java $(cat /work/main/cli/target/jvm.args) -Xmx8g -cp /tmp/s19/$v-benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 1 --threads 1,2 --memory 512m --peers none --pk-alone true --warmup 1 --repeat 3 --cli 0 --work /tmp/bulk-work --out /tmp/s19/pkab-$v-$r > /tmp/s19/pkab-$v-$r.txt 2>&1
echo "$v-$r $(date -u +%T) $(grep -E 'primary key alone|six indexes: t1' /tmp/s19/pkab-$v-$r.txt | tr -s ' ' | tr '\n' '|')"
done; done
