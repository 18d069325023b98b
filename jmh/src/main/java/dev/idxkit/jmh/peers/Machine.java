package dev.idxkit.jmh.peers;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The conditions a peer experiment ran under, written next to its figures: CPUs, CPU model, memory,
 * JDK, and the load average sampled at every step boundary (the machine these figures come from is
 * shared, so a figure without the load next to it means little).
 *
 * <p>Sampling: {@link #sampleLoad()} reads the 1-minute load average from {@code /proc/loadavg} (-1
 * where there is none) and keeps the lowest and highest seen; experiments call it between steps
 * rather than from a timer thread, since the 1-minute average moves slowly anyway. {@link
 * #processCpuNanos()} is the process's CPU time, so a step can report how many CPUs it actually got
 * (CPU time / wall time).
 */
final class Machine {
  final int cpus;
  final String cpuModel;
  final long memTotalBytes;
  final long memAvailableBytes;
  final String jdk;
  final String os;
  private double loadMin = Double.MAX_VALUE;
  private double loadMax = -1;

  private Machine(
      int cpus, String cpuModel, long memTotal, long memAvailable, String jdk, String os) {
    this.cpus = cpus;
    this.cpuModel = cpuModel;
    this.memTotalBytes = memTotal;
    this.memAvailableBytes = memAvailable;
    this.jdk = jdk;
    this.os = os;
  }

  static Machine describe() {
    Machine m =
        new Machine(
            Runtime.getRuntime().availableProcessors(),
            cpuModel(),
            meminfo("MemTotal:"),
            meminfo("MemAvailable:"),
            System.getProperty("java.vm.name")
                + " "
                + System.getProperty("java.runtime.version")
                + " (max heap "
                + (Runtime.getRuntime().maxMemory() >> 20)
                + " MiB)",
            System.getProperty("os.name") + " " + System.getProperty("os.version"));
    m.sampleLoad();
    return m;
  }

  /** Reads the 1-minute load average and widens the recorded range; returns it (-1 if unknown). */
  synchronized double sampleLoad() {
    double l = loadAverage();
    if (l >= 0) {
      loadMin = Math.min(loadMin, l);
      loadMax = Math.max(loadMax, l);
    }
    return l;
  }

  synchronized double loadMin() {
    return loadMax < 0 ? -1 : loadMin;
  }

  synchronized double loadMax() {
    return loadMax;
  }

  String summary() {
    return String.format(
        Locale.ROOT,
        "%d CPUs (%s), %.1f GiB memory (%.1f GiB available at start), %s, %s; load average %.2f..%.2f",
        cpus,
        cpuModel,
        memTotalBytes / (double) (1L << 30),
        memAvailableBytes / (double) (1L << 30),
        jdk,
        os,
        loadMin(),
        loadMax());
  }

  /**
   * Writes every dirty page of the machine back ({@code sync}) and waits for it. Untimed, between
   * timed runs: a run that leaves hundreds of MB dirty without fsync (a peer with {@code
   * fsync=off}, a load) would otherwise have the kernel write them back during the next run, which
   * then pays for its predecessor. Fails when {@code sync} cannot run: the figures would not be
   * what the settings say.
   */
  static void syncDisks() throws IOException, InterruptedException {
    int code = new ProcessBuilder("sync").redirectErrorStream(true).start().waitFor();
    if (code != 0) {
      throw new IOException("sync exited " + code + ": the runs cannot start with nothing dirty");
    }
  }

  static double loadAverage() {
    try {
      String s = Files.readString(Path.of("/proc/loadavg")).strip();
      return Double.parseDouble(s.substring(0, s.indexOf(' ')));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  static long processCpuNanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean o ? o.getProcessCpuTime() : -1;
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).strip();
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: the architecture is all we can say
    }
    return System.getProperty("os.arch");
  }

  private static long meminfo(String key) {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/meminfo"));
      for (String line : lines) {
        if (line.startsWith(key)) {
          String kb = line.substring(key.length()).strip().split("\\s+")[0];
          return Long.parseLong(kb) << 10;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return -1;
  }
}
