JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
run() { n=$1; j=$2; shift 2
  echo "== $n $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s5/ra/log.txt
  /usr/bin/time -f "%e s wall %U user %S sys %M KB" -a -o /tmp/s5/ra/log.txt java $JV -cp $j dev.idxkit.jmh.peers.LoadBench "$@" > /tmp/s5/ra/$n.txt 2>&1
}
for r in 1 2; do
  run cold-A$r /tmp/s5/RA-A.jar --tpch-sf 1 --peers none --warmup 1 --rounds 3 --cold-input true --check false --work /tmp/bulk-work --out /tmp/s5/ra/cold-A$r
  run cold-B$r /tmp/s5/RA-B.jar --tpch-sf 1 --peers none --warmup 1 --rounds 3 --cold-input true --check false --work /tmp/bulk-work --out /tmp/s5/ra/cold-B$r
done
run warm-A1 /tmp/s5/RA-A.jar --tpch-sf 1 --peers none --warmup 1 --rounds 3 --check false --work /tmp/bulk-work --out /tmp/s5/ra/warm-A1
run warm-B1 /tmp/s5/RA-B.jar --tpch-sf 1 --peers none --warmup 1 --rounds 3 --check false --work /tmp/bulk-work --out /tmp/s5/ra/warm-B1
# then, a few minutes later (06:57-07:01 UTC), in the other order:
for r in 3 4; do
  run cold-B$r /tmp/s5/RA-B.jar --tpch-sf 1 --peers none --warmup 1 --rounds 3 --cold-input true --check false --work /tmp/bulk-work --out /tmp/s5/ra/cold-B$r
  run cold-A$r /tmp/s5/RA-A.jar --tpch-sf 1 --peers none --warmup 1 --rounds 3 --cold-input true --check false --work /tmp/bulk-work --out /tmp/s5/ra/cold-A$r
done
