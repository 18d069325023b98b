#!/bin/bash
cd /tmp/s14
java $(cat /work/main/cli/target/jvm.args) -Xmx8g -cp /work/main/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 1 --threads 2 --memory 2g --peers postgres --cli 5 --pairs 5 --warmup 1 --repeat 3 --work /tmp/bulk-work --out /tmp/s14/sf1c-j17 > /tmp/s14/sf1c-j17.txt 2>&1
echo "sf1c-j17 $(date -u +%T) | $(grep -E '^goal' /tmp/s14/sf1c-j17.txt | cut -c1-300 | tr '\n' '|')"
