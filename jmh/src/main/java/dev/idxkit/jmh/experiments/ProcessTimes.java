package dev.idxkit.jmh.experiments;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Wall, user and system time of this whole process (every thread, the garbage collector and native
 * code such as SQLite included), for figures "per run". User and system time come from {@code
 * /proc/self/stat} (fields 14 and 15, in clock ticks of 1/100 s, the Linux value of {@code CLK_TCK}
 * on every architecture the JDK runs on); where there is no {@code /proc}, the total CPU time comes
 * from the OS bean and is reported as user time, system time as -1.
 *
 * @param wallNanos {@code System.nanoTime()}
 * @param userNanos CPU time in user mode
 * @param systemNanos CPU time in the kernel, or -1 if unknown
 */
record ProcessTimes(long wallNanos, long userNanos, long systemNanos) {
  /** Nanoseconds per clock tick ({@code CLK_TCK} = 100). */
  static final long TICK_NANOS = 10_000_000L;

  static ProcessTimes now() {
    long wall = System.nanoTime();
    Path stat = Path.of("/proc/self/stat");
    if (Files.isReadable(stat)) {
      try {
        String s = Files.readString(stat);
        // The command name (field 2) is in parentheses and may hold spaces: split after it.
        String[] f = s.substring(s.lastIndexOf(')') + 2).trim().split("\\s+");
        // f[0] is field 3 (state), so field n is f[n - 3].
        return new ProcessTimes(
            wall, Long.parseLong(f[11]) * TICK_NANOS, Long.parseLong(f[12]) * TICK_NANOS);
      } catch (IOException | RuntimeException e) {
        // fall through to the JVM's total
      }
    }
    var os = ManagementFactory.getOperatingSystemMXBean();
    long cpu =
        os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    return new ProcessTimes(wall, cpu, -1);
  }

  /** The times from {@code start} to this reading, in seconds: wall, user, system. */
  double[] secondsSince(ProcessTimes start) {
    return new double[] {
      (wallNanos - start.wallNanos) / 1e9,
      userNanos < 0 || start.userNanos < 0 ? -1 : (userNanos - start.userNanos) / 1e9,
      systemNanos < 0 || start.systemNanos < 0 ? -1 : (systemNanos - start.systemNanos) / 1e9
    };
  }
}
