#!/bin/bash
# full.sh's SF 0.5 runs in the other order (JDK 17 first, then JDK 25): is the slow floor write the JDK's or the first run's?
OUT=/tmp/s24/rev
cd $OUT
sf=0.5
for jdk in j17 j25; do
  if [ $jdk = j25 ]; then JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; ROOT=/tmp/j25; else JAVA=java; ROOT=/work/main; fi
  o=full-$jdk-sf$sf
  $JAVA $(cat $ROOT/cli/target/jvm.args) -Xmx8g -cp $ROOT/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf $sf --threads 1,2 --memory 512m,2g --peers postgres,sqlite --pk-alone true --warmup 1 --repeat 3 --cli 5 --pairs 5 --work /tmp/bulk-work --out $OUT/$o > $OUT/$o.txt 2>&1
  echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) rc $?"
  grep -E "floor's write" $OUT/$o.txt | grep -v note | cut -c1-200
done
