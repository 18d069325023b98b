#!/bin/bash
# usage: ab.sh N dirA dirB [extra idxbuild args]  -- alternates cold commands, prints per-run phase walls
N=$1; A=$2; B=$3; shift 3
for i in $(seq 1 $N); do
  for side in A B; do
    d=$A; [ $side = B ] && d=$B
    t0=$(date +%s%N)
    out=$($d/idxkit idxbuild /tmp/s13/sf05.db --table lineitem --memory 512m --threads 2 --srt /tmp/s13/sf05.srt --progress none "$@" 2>&1)
    t1=$(date +%s%N)
    sc=$(echo "$out" | awk '/^  scan /{print $2}'); bu=$(echo "$out" | awk '/^  build /{print $2}')
    echo "$side $i wall $(( (t1-t0)/1000000 )) scan $sc build $bu"
  done
done
