#!/bin/bash
# A/B: IdxbuildBench SF $SF, six indexes and the primary key alone, 2 threads (and 1 for pk), 2g; A = ac03b37 (worktree), B = /work/main
SF=${SF:-0.5}; OUT=/tmp/s23/ab1
for i in 1 2 3; do for v in A B; do
  if [ $v = A ]; then R=/tmp/s23/wtA; else R=/work/main; fi
  java $(cat $R/cli/target/jvm.args) -Xmx8g -cp $R/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf $SF --threads 1,2 --memory 2g --peers none --pk-alone true --warmup 1 --repeat 5 --cli 0 --work /tmp/bulk-work --out $OUT/$v-$i > $OUT/$v-$i.txt 2>&1
  echo "$v-$i $(date -u +%T) $(grep -E '^  idxkit six t2' $OUT/$v-$i.txt | awk '{print $13}' | tr '\n' ' ') | pk t1/t2: $(grep 'primary key alone: t1 / t2' $OUT/$v-$i.txt | awk '{print $NF}')"
done; done
