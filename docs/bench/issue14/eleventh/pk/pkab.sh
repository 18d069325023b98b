#!/bin/bash
# pkab.sh N: IdxbuildBench SF 1, threads 1,2, 512m, pk alone, in-JVM; base (c3ad27e) and rpt4 in turn, N rounds each
cd /tmp/s18
for r in $(seq ${2:-1} $1); do
for v in base rpt4; do
java $(cat /work/main/cli/target/jvm.args) -Xmx8g -cp /tmp/s18/$v-benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 1 --threads 1,2 --memory 512m --peers none --pk-alone true --warmup 1 --repeat 3 --cli 0 --work /tmp/bulk-work --out /tmp/s18/pkab-$v-$r > /tmp/s18/pkab-$v-$r.txt 2>&1
echo "$v-$r $(date -u +%T) $(grep -E 'primary key alone|six indexes: t1' /tmp/s18/pkab-$v-$r.txt | tr -s ' ' | tr '\n' '|')"
done; done
