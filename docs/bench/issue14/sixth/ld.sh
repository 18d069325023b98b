#!/bin/bash
# usage: ld.sh TAG JAR...   one LoadBench run per jar, in turn
cd /tmp/s13
TAG=$1; shift
for J in "$@"; do
  o=$TAG-$(basename $J .jar)
  java $(cat /work/main/cli/target/jvm.args) -Xmx4g -cp $J dev.idxkit.jmh.peers.LoadBench --tpch-sf 1 --threads 2 --memory 512m --peers none --warmup 1 --rounds 5 --work /tmp/bulk-work --out /tmp/s13/$o > /tmp/s13/$o.txt 2>&1
  echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $(grep -E '5 rounds: rows/s' $o.txt | head -1 | cut -c1-120) | $(grep -E '^  round' $o.txt | grep -o 'cut [0-9.]* s, waiting for parsed chunks [0-9.]* s, appending [0-9.]*' | tr '\n' '|')"
done
