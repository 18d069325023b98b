JV="$(cat /work/main/cli/target/jvm.args) -Xmx8g"
run() { # name jar class args...
  n=$1; j=$2; shift 2
  echo "== $n $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s5/ab/log.txt
  /usr/bin/time -f "%e s wall %U user %S sys %M KB" -a -o /tmp/s5/ab/log.txt java $JV -cp $j "$@" > /tmp/s5/ab/$n.txt 2>&1
}
for r in 1 2; do
  run cmp-A$r /tmp/s5/A.jar dev.idxkit.jmh.peers.CompareBench --stores idxkit --out /tmp/s5/ab/cmp-A$r --work /tmp/s5/ab/w
  run cmp-B$r /tmp/s5/B.jar dev.idxkit.jmh.peers.CompareBench --stores idxkit --out /tmp/s5/ab/cmp-B$r --work /tmp/s5/ab/w
done
for r in 1 2 3; do
  run gro-A$r /tmp/s5/A.jar dev.idxkit.jmh.experiments.GrowthBench --no-sqlite --seed 42 --out /tmp/s5/ab/gro-A$r
  run gro-B$r /tmp/s5/B.jar dev.idxkit.jmh.experiments.GrowthBench --no-sqlite --seed 42 --out /tmp/s5/ab/gro-B$r
done
