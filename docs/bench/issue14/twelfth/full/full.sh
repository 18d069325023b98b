#!/bin/bash
# full.sh: every rebuild goal of issue 14 in one session: IdxbuildBench SF 0.5 then SF 1, JDK 25 (/tmp/j25) then JDK 17 (/work/main),
# threads 1,2, memory 512m,2g, PostgreSQL (timed in turn with the command, 5 pairs) and SQLite, the primary key alone; then LoadBench SF 1 vs DuckDB, 5 rounds (JDK 17)
# Outputs in $OUT: the twelfth pass ran it with the default /tmp/s19, the thirteenth with OUT=/tmp/s20.
OUT=${OUT:-/tmp/s19}
cd $OUT
for sf in 0.5 1; do
for jdk in j25 j17; do
  if [ $jdk = j25 ]; then JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; ROOT=/tmp/j25; else JAVA=java; ROOT=/work/main; fi
  o=full-$jdk-sf$sf
  $JAVA $(cat $ROOT/cli/target/jvm.args) -Xmx8g -cp $ROOT/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf $sf --threads 1,2 --memory 512m,2g --peers postgres,sqlite --pk-alone true --warmup 1 --repeat 3 --cli 5 --pairs 5 --work /tmp/bulk-work --out $OUT/$o > $OUT/$o.txt 2>&1
  echo "$o $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) rc $?"
  grep -E '^goal' $OUT/$o.txt | cut -c1-200
done; done
java $(cat /work/main/cli/target/jvm.args) -Xmx8g -cp /work/main/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.LoadBench --tpch-sf 1 --threads 2 --memory 512m --peers duckdb --warmup 1 --rounds 5 --work /tmp/bulk-work --out $OUT/load-j17-sf1 > $OUT/load-j17-sf1.txt 2>&1
echo "load-j17-sf1 $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) rc $?"
grep -E '^goal' $OUT/load-j17-sf1.txt | cut -c1-200
