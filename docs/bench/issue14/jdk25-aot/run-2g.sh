set -x
for sf in 0.5 1; do
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java $(cat /tmp/j25/cli/target/jvm.args) -Xmx8g -cp /tmp/j25/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf $sf --threads 2 --memory 512m,2g --peers postgres --cli 3 --cli-cds both --warmup 1 --repeat 3 --work /tmp/bulk-work --out /tmp/s5/mx/j25-sf$sf > /tmp/s5/mx/j25-sf$sf.txt 2>&1
java $(cat /work/main/cli/target/jvm.args) -Xmx8g -cp /work/main/jmh/target/benchmarks.jar dev.idxkit.jmh.peers.IdxbuildBench --tpch-sf $sf --threads 2 --memory 512m,2g --peers postgres --cli 3 --cli-cds both --warmup 1 --repeat 3 --work /tmp/bulk-work --out /tmp/s5/mx/j17-sf$sf > /tmp/s5/mx/j17-sf$sf.txt 2>&1
done
