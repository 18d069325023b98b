package dev.idxkit.loader.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The current thread's CPU time, for the load's "where the time went" figures; wall-clock time
 * where the JVM cannot measure CPU time. Read twice per chunk, so its cost (about a microsecond)
 * does not matter.
 */
public final class CpuClock {
  // One bean for the JVM, looked up once: a lookup per clock, and there is a clock per parsed
  // chunk, was 371 platform-bean lookups in a load of lineitem SF 0.5, enough for C2 to compile
  // the lookup (0.2 s of compiler time) in the middle of a load.
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final boolean CPU = THREADS.isCurrentThreadCpuTimeSupported();

  public long now() {
    return CPU ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
  }
}
