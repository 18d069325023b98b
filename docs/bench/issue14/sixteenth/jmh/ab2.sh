#!/bin/bash
# ScanSortBench + ScanMergeBench A/B, in turn: A = ac03b37 + the two bench classes (worktree), B = /work/main
for i in 1 2 3; do for v in A B; do
  if [ $v = A ]; then R=/tmp/s23/wtA; else R=/work/main; fi
  java -jar $R/jmh/target/benchmarks.jar 'ScanSortBench|ScanMergeBench' -f 1 -wi 3 -i 6 -w 1 -r 1 > /tmp/s23/jmh/ab2-$v-$i.txt 2>&1
  echo "$v-$i $(date -u +%T)"; grep -E "^Scan" /tmp/s23/jmh/ab2-$v-$i.txt
done; done
