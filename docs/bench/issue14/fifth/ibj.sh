#!/bin/bash
# usage: ib.sh TAG ROUNDS JAR... : in-JVM IdxbuildBench (SF 0.5, 2 threads, 512m, no peers), jars in turn
cd /tmp/s12
TAG=$1; N=$2; shift 2
for r in $(seq 1 $N); do for J in "$@"; do
  o=$TAG-$(basename $J .jar)-$r
  java $(cat /work/main/cli/target/jvm.args) -Xmx8g -cp $J dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf 0.5 --threads 2 --memory 512m --peers none --cli 0 --pk-alone false --warmup 2 --repeat 6 --check false --work /tmp/bulk-work --out /tmp/s12/$o > $o.txt 2>&1
  echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $(grep -E 'idxkit six' $o.txt | grep -o 'scan *[0-9.]* s\|total *[0-9.]* s\|CPU *[0-9.]* s' | paste -sd' ' | cut -c1-400)"
done; done
