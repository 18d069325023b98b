#!/bin/bash
# JDK 25 (/tmp/j25) IdxbuildBench runs for the README: SF 0.5 512m x2 (--cli 5), SF 0.5 2g, SF 1 512m and 2g (--cli 3)
cd /tmp/s12
J="/usr/lib/jvm/temurin-25-jdk-amd64/bin/java $(cat /tmp/j25/cli/target/jvm.args) -Xmx8g -cp /tmp/j25/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench"
run() { o=$1; shift; $J "$@" --threads 2 --peers postgres --cli-cds both --warmup 1 --repeat 3 --work /tmp/bulk-work --out /tmp/s12/$o > /tmp/s12/$o.txt 2>&1
  echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $(grep -E '^  floor:' $o.txt | cut -c3-200 | tr '\n' '|') $(grep -E '^goal' $o.txt | grep -E 'floor|PostgreSQL' | cut -c1-170 | tr '\n' '|')"; }
run c-j25-4 --tpch-sf 0.5 --memory 512m --cli 5
run c-j25-5 --tpch-sf 0.5 --memory 512m --cli 5
run c-j25-sf05-2g --tpch-sf 0.5 --memory 2g --cli 3
run c-j25-sf1-512m --tpch-sf 1 --memory 512m --cli 3
run c-j25-sf1-2g --tpch-sf 1 --memory 2g --cli 3
