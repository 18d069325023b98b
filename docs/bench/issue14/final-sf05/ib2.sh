#!/bin/bash
cd /tmp/s10
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java $(cat /tmp/j25/cli/target/jvm.args) -Xmx8g -cp /tmp/j25/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 0.5 --threads 2 --memory 2g --peers postgres --cli 3 --cli-cds both --warmup 1 --repeat 3 --work /tmp/bulk-work --out /tmp/s10/ib-j25-sf05-2g > /tmp/s10/ib-j25-sf05-2g.txt 2>&1
echo "sf05-2g $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java $(cat /tmp/j25/cli/target/jvm.args) -Xmx8g -cp /tmp/j25/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 1 --threads 2 --memory 512m,2g --peers postgres --cli 3 --cli-cds both --warmup 1 --repeat 3 --work /tmp/bulk-work --out /tmp/s10/ib-j25-sf1 > /tmp/s10/ib-j25-sf1.txt 2>&1
echo "sf1 $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
