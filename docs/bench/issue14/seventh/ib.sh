#!/bin/bash
# usage: ib.sh TAG RUNS : IdxbuildBench SF 0.5 512m 2 threads vs PostgreSQL, --cli 5, --pairs 5, JDK 25 (/tmp/j25) then JDK 17 (/work/main), in turn
OUT=${OUT:-/tmp/s14} # where the outputs go: each pass ran it with its own (eighth /tmp/s15, ninth /tmp/s16)
cd $OUT
TAG=$1; N=$2
for r in $(seq 1 $N); do
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java $(cat /tmp/j25/cli/target/jvm.args) -Xmx8g -cp /tmp/j25/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 0.5 --threads 2 --memory 512m --peers postgres --cli 5 --pairs 5 --warmup 1 --repeat 3 --work /tmp/bulk-work --out $OUT/$TAG-j25-$r > $OUT/$TAG-j25-$r.txt 2>&1
echo "$TAG-j25-$r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $(grep -E '^goal' $OUT/$TAG-j25-$r.txt | cut -c1-220 | tr '\n' '|')"
java $(cat /work/main/cli/target/jvm.args) -Xmx8g -cp /work/main/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 0.5 --threads 2 --memory 512m --peers postgres --cli 5 --pairs 5 --warmup 1 --repeat 3 --work /tmp/bulk-work --out $OUT/$TAG-j17-$r > $OUT/$TAG-j17-$r.txt 2>&1
echo "$TAG-j17-$r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $(grep -E '^goal' $OUT/$TAG-j17-$r.txt | cut -c1-220 | tr '\n' '|')"
done
