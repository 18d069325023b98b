package dev.idxkit.jmh;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports the CPU time the forked JVM used per operation, for machines shared
 * with other work, where a throughput figure mostly says how much CPU the benchmark was given.
 *
 * <p>Use: {@code java -jar jmh/target/benchmarks.jar PATTERN -prof dev.idxkit.jmh.CpuTimeProfiler}.
 *
 * <p>Per iteration it reads the process CPU time (all threads: the benchmark thread, I/O threads of
 * the store, GC and JIT) and the wall clock before and after, and reports:
 *
 * <ul>
 *   <li>{@code cpu.time.norm}: CPU nanoseconds per operation, operations counted as JMH counts them
 *       for {@code gc.alloc.rate.norm} (so {@code @OperationsPerInvocation} applies). On a quiet
 *       machine this is about 1e9 / score for a single-threaded benchmark; on a loaded one it is
 *       the figure that still compares across runs.
 *   <li>{@code cpu.util}: CPU seconds per wall second, how many CPUs the fork actually got.
 * </ul>
 *
 * <p>Time spent waiting for the disk or for a CPU is in neither figure: an I/O-bound benchmark has
 * a low {@code cpu.util} on any machine.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private long cpuStart;
  private long wallStart;

  @Override
  public String getDescription() {
    return "process CPU time per operation and CPUs used per wall second";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    wallStart = System.nanoTime();
    cpuStart = os.getProcessCpuTime();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long cpu = os.getProcessCpuTime() - cpuStart;
    long wall = System.nanoTime() - wallStart;
    long ops = result.getMetadata().getAllOps();
    return List.of(
        new ScalarResult(
            "cpu.time.norm",
            ops > 0 ? (double) cpu / ops : Double.NaN,
            "ns/op",
            AggregationPolicy.AVG),
        new ScalarResult(
            "cpu.util",
            wall > 0 ? (double) cpu / wall : Double.NaN,
            "CPUs",
            AggregationPolicy.AVG));
  }
}
