package dev.idxkit.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The fork, warmup and measurement settings every idxkit benchmark shares; benchmark classes extend
 * it (JMH reads these annotations through the class hierarchy) and override only what differs (the
 * bottom-up build is a single-shot benchmark, for example).
 *
 * <p>Why these values: one fork, because the B+tree benchmarks spend tens of seconds building their
 * 10,000,000-entry tree per fork and the machine is shared; 3 × 2 s of warmup is enough for C2 to
 * settle on these kernels; 5 × 2 s of measurement gives an error bar. Override on the command line
 * ({@code -f 1 -wi 2 -i 3}) when the machine is slow.
 *
 * <p>Forked JVMs ignore the jar manifest, so the Chronicle Bytes flags (from the parent pom, via
 * {@link JvmFlags}) are passed here. The heap is fixed at 2 GiB so that runs on different machines
 * collect garbage alike, and so that a benchmark does not take a quarter of a shared machine's
 * memory; the trees themselves live in mapped files and the page cache, not on the heap. Assertions
 * stay off ({@code -da} is the JVM default): the store's {@code assert} invariants are for tests.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {
      JvmFlags.F1,
      JvmFlags.F2,
      JvmFlags.F3,
      JvmFlags.F4,
      JvmFlags.F5,
      JvmFlags.F6,
      JvmFlags.F7,
      "-Xms2g",
      "-Xmx2g"
    })
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public abstract class BenchmarkBase {}
