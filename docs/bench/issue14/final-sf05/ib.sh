#!/bin/bash
cd /tmp/s10
for r in 1 2; do
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java $(cat /tmp/j25/cli/target/jvm.args) -Xmx8g -cp /tmp/j25/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 0.5 --threads 2 --memory 512m --peers postgres --cli 5 --cli-cds both --warmup 1 --repeat 3 --work /tmp/bulk-work --out /tmp/s10/ib-j25-$r > /tmp/s10/ib-j25-$r.txt 2>&1
echo "j25-$r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
java $(cat /work/main/cli/target/jvm.args) -Xmx8g -cp /work/main/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 0.5 --threads 2 --memory 512m --peers postgres --cli 5 --cli-cds both --warmup 1 --repeat 3 --work /tmp/bulk-work --out /tmp/s10/ib-j17-$r > /tmp/s10/ib-j17-$r.txt 2>&1
echo "j17-$r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
done
