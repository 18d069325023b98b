#!/bin/bash
# ab6.sh N: N alternations of Loop6 (8 warm rounds) with the exp jar (A, before) and main's jar (B, after)
for i in $(seq 1 $1); do
  for v in A B; do
    if [ $v = A ]; then J=/tmp/s15/exp/cli/target/idxkit.jar; else J=/work/main/cli/target/idxkit.jar; fi
    java $(cat /work/main/cli/target/jvm.args) -cp $J:/tmp/apf/async-profiler-4.1-linux-x64.jar:/tmp/s15/loop6 Loop6 8 2>&1 | grep round | sed "s/^/$v /"
  done
done
