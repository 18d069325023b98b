package dev.idxkit.jmh.peers;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * When a bench's warm-ups are enough: while a warm-up still kept the JIT compilers busy for more
 * than {@value #QUIET_SHARE} of its own time, another one follows (at most {@value #MORE} more).
 * Why: the measured rounds compare the compiled code, and on two cores a compiler thread takes a
 * core from the work. One warm-up was not enough. LoadBench's first round after one warm-up spent
 * 0.65 s in the compilers (the second 0.22 s, the rest 0.04-0.09 s) and was the slowest of five, by
 * up to 1.3x. The primary key on two threads, after its one warm-up, built each key range in 7-18
 * ms of CPU in two of five measured rounds and in 6-7 ms in the others; with the warm-ups added its
 * build phase held at 0.04-0.05 s in all five.
 */
final class JitWarmUp {
  /** The compile time, as a share of a warm-up's wall time, that counts as quiet. */
  static final double QUIET_SHARE = 0.05;

  /** The most warm-ups added to those asked for. */
  static final int MORE = 4;

  private final long startMillis = compileMillis();
  private final long startNanos = System.nanoTime();

  private JitWarmUp() {}

  /** Starts timing a warm-up. */
  static JitWarmUp start() {
    return new JitWarmUp();
  }

  /**
   * Milliseconds the compilers spent since {@link #start}; -1 where the JVM does not count them
   * (then every warm-up counts as quiet: the bench does what {@code --warmup} said).
   */
  long compiledMillis() {
    long now = compileMillis();
    return now < 0 || startMillis < 0 ? -1 : now - startMillis;
  }

  /** Whether the compilers were busy for more than {@link #QUIET_SHARE} of the warm-up. */
  boolean busy() {
    return busy(compiledMillis(), System.nanoTime() - startNanos);
  }

  /**
   * Whether {@code compiledMillis} of compiling (-1: not counted, quiet) is more than {@link
   * #QUIET_SHARE} of {@code elapsedNanos}.
   */
  static boolean busy(long compiledMillis, long elapsedNanos) {
    return compiledMillis > QUIET_SHARE * elapsedNanos / 1e6;
  }

  /** The JVM's total compile time in milliseconds, or -1. */
  static long compileMillis() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit.getTotalCompilationTime()
        : -1;
  }
}
