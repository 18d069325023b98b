#!/bin/bash
# ab.sh T ROUNDS: in-JVM pk rebuilds, main vs wt (nopop) vs wt (populate), alternating JVMs
T=$1; R=$2
for r in $(seq 1 $R); do
for v in ${VARS:-main wtnopop wtpop}; do
  case $v in main) J=/work/main/cli/target/idxkit.jar; X=;; wtnopop) J=/tmp/s19/wt/cli/target/idxkit.jar; X=-Didxkit.nopop=true;; wtpop) J=/tmp/s19/wt/cli/target/idxkit.jar; X=;; esac
  java $(cat /work/main/cli/target/jvm.args) -Xmx8g $X -cp $J:/tmp/apf/async-profiler-4.1-linux-x64.jar:/tmp/s19 LoopT $T 10 - 2>/dev/null | grep ROUND > /tmp/s19/ab-$v-t$T-$r.txt
  python3 - /tmp/s19/ab-$v-t$T-$r.txt $v <<'P'
import sys,re,statistics as st
rows=[l.split() for l in open(sys.argv[1])][2:]
tot=[float(r[5]) for r in rows]; sc=[float(r[8]) for r in rows]; scc=[float(r[10]) for r in rows]; bu=[float(r[13]) for r in rows]
print('%-8s total %.3f scan %.3f scanCPU %.3f build %.3f'%(sys.argv[2],st.median(tot),st.median(sc),st.median(scc),st.median(bu)))
P
done; done
