#!/bin/bash
# Sequential IdxbuildBench runs for the README: JDK 25 (/tmp/j25) and JDK 17 (/work/main), SF 0.5 then SF 1.
cd /tmp/s13
for sf in 0.5 1; do
for jdk in j25 j17; do
  if [ $jdk = j25 ]; then JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; ROOT=/tmp/j25; else JAVA=java; ROOT=/work/main; fi
  o=full-$jdk-sf$sf
  $JAVA $(cat $ROOT/cli/target/jvm.args) -Xmx8g -cp $ROOT/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf $sf --threads 1,2 --memory 512m,2g --peers postgres,sqlite --pk-alone true --warmup 1 --repeat 3 --cli 5 --cli-cds on --work /tmp/bulk-work --out /tmp/s13/$o > /tmp/s13/$o.txt 2>&1
  echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) rc $?"
  grep -E '^goal' /tmp/s13/$o.txt | cut -c1-200
done; done
