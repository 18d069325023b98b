#!/bin/bash
# ab6.sh N: N alternations of Loop6 (8 warm rounds) with the exp jar (A, before) and main's jar (B, after)
# A: a worktree of the commit before at /tmp/s16/exp; Loop6 is ../../eighth/kernels/Loop6.java compiled into /tmp/s15/loop6.
# Tables: python3 t.py ab6-N.txt (medians per variant; last line the per-pair ratio of warm build CPU).
for i in $(seq 1 $1); do
  for v in A B; do
    if [ $v = A ]; then J=/tmp/s16/exp/cli/target/idxkit.jar; else J=/work/main/cli/target/idxkit.jar; fi
    java $(cat /work/main/cli/target/jvm.args) -cp $J:/tmp/apf/async-profiler-4.1-linux-x64.jar:/tmp/s15/loop6 Loop6 8 2>&1 | grep round | sed "s/^/$v /"
  done
done
