package dev.idxkit.idxbuild;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's CPU and I/O counters for {@code -rusage}, from {@code /proc/self/stat} (user and
 * system CPU in clock ticks) and {@code /proc/self/io} (bytes read from and written to storage).
 * Zero where the platform has no {@code /proc}.
 */
public record ResourceUsage(long userNanos, long systemNanos, long bytesRead, long bytesWritten) {
  private static final long TICK_NANOS = 10_000_000L; // USER_HZ is 100 on Linux

  public static ResourceUsage now() {
    long user = 0;
    long sys = 0;
    long read = 0;
    long written = 0;
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      user = Long.parseLong(f[11]) * TICK_NANOS;
      sys = Long.parseLong(f[12]) * TICK_NANOS;
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        if (line.startsWith("read_bytes:")) {
          read = Long.parseLong(line.substring(11).trim());
        } else if (line.startsWith("write_bytes:")) {
          written = Long.parseLong(line.substring(12).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or /proc not readable: report what was read, zeros otherwise.
    }
    return new ResourceUsage(user, sys, read, written);
  }

  public ResourceUsage minus(ResourceUsage before) {
    return new ResourceUsage(
        userNanos - before.userNanos,
        systemNanos - before.systemNanos,
        bytesRead - before.bytesRead,
        bytesWritten - before.bytesWritten);
  }

  public long cpuNanos() {
    return userNanos + systemNanos;
  }
}
