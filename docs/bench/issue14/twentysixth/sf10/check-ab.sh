#!/bin/bash
# The SF 10 database's full check (`idxkit check DB`) by three builds, in turn, each timed from
# outside: B = the pass's base (093f47f: a row lookup per index entry), A1 = 4356e28 (digests, one
# thread), A2 = main (digests, threads as CPUs). Run alone on the machine:
#   bash check-ab.sh DB BASE_CHECKOUT A1_CHECKOUT ROUNDS
DB=${1:-/tmp/s33/sf10/sf10.db}
BASE=${2:-/tmp/s33/base}
A1=${3:-/tmp/s33/a1}
ROUNDS=${4:-1}
for round in $(seq 1 $ROUNDS); do
  for side in B A1 A2; do
    case $side in B) K=$BASE/idxkit ;; A1) K=$A1/idxkit ;; A2) K=/work/main/idxkit ;; esac
    echo "== round $round $side $(git -C $(dirname $K) rev-parse --short HEAD) $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    /usr/bin/time -f "$side wall %e s, user %U s, sys %S s, peak %M KB" $K check $DB --progress none 2>&1
  done
done
