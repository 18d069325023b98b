#!/bin/bash
cd /tmp/s10
for r in 1 2 3; do
java $(cat /work/main/cli/target/jvm.args) -Xmx4g -cp /work/main/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.LoadBench --tpch-sf 1 --threads 2 --memory 512m --peers duckdb --warmup 1 --rounds 5 --out /tmp/s10/ld-$r > /tmp/s10/ld-$r.txt 2>&1
echo "ld-$r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $(grep -E '^goal' ld-$r.txt | cut -c1-160 | tr '\n' '|')"
done
