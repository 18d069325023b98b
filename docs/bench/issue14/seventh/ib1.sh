#!/bin/bash
# SF 1, 2g, 2 threads, PostgreSQL, --cli 5 --pairs 5: JDK 25 (/tmp/j25) then JDK 17 (/work/main)
OUT=${OUT:-/tmp/s14} # where the outputs go: each pass ran it with its own (eighth /tmp/s15, ninth /tmp/s16)
cd $OUT
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java $(cat /tmp/j25/cli/target/jvm.args) -Xmx8g -cp /tmp/j25/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 1 --threads 2 --memory 2g --peers postgres --cli 5 --pairs 5 --warmup 1 --repeat 3 --work /tmp/bulk-work --out $OUT/sf1-j25 > $OUT/sf1-j25.txt 2>&1
echo "sf1-j25 $(date -u +%T) | $(grep -E '^goal' $OUT/sf1-j25.txt | cut -c1-300 | tr '\n' '|')"
java $(cat /work/main/cli/target/jvm.args) -Xmx8g -cp /work/main/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 1 --threads 2 --memory 2g --peers postgres --cli 5 --pairs 5 --warmup 1 --repeat 3 --work /tmp/bulk-work --out $OUT/sf1-j17 > $OUT/sf1-j17.txt 2>&1
echo "sf1-j17 $(date -u +%T) | $(grep -E '^goal' $OUT/sf1-j17.txt | cut -c1-300 | tr '\n' '|')"
