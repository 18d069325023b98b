package dev.idxkit.loader.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The current thread's CPU time, for the load's "where the time went" figures; wall-clock time
 * where the JVM cannot measure CPU time. Read twice per chunk, so its cost (about a microsecond)
 * does not matter.
 */
public final class CpuClock {
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final boolean cpu = threads.isCurrentThreadCpuTimeSupported();

  public long now() {
    return cpu ? threads.getCurrentThreadCpuTime() : System.nanoTime();
  }
}
