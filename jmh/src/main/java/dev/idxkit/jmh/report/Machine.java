package dev.idxkit.jmh.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an experiment ran on, read when it starts and again when it ends: CPU model and count,
 * memory, load average, JDK and OS. Figures from a shared machine mean little without these, so
 * every JSON result carries them ({@link ResultWriter}) and every experiment prints them.
 *
 * <p>Sources: {@code /proc/cpuinfo} ({@code model name}), {@code /proc/meminfo} ({@code MemTotal},
 * {@code MemAvailable}) and {@code /proc/loadavg} on Linux; elsewhere the JVM's own view ({@code
 * availableProcessors}, the OS bean's load average) and "unknown".
 *
 * @param cpuModel as the kernel names it, e.g. {@code AMD EPYC}
 * @param cpus the CPUs this JVM may use ({@code nproc})
 * @param memTotalMiB physical memory
 * @param memAvailableMiB memory available for new work (page cache counts as available)
 * @param load1 the 1-minute load average at the time of reading, or -1 if unknown
 * @param load5 the 5-minute load average, or -1
 * @param load15 the 15-minute load average, or -1
 * @param jdk {@code java.vm.name} and {@code java.runtime.version}
 * @param os {@code os.name os.version os.arch}
 */
public record Machine(
    String cpuModel,
    int cpus,
    long memTotalMiB,
    long memAvailableMiB,
    double load1,
    double load5,
    double load15,
    String jdk,
    String os) {

  /** Reads the machine now. */
  public static Machine now() {
    double[] load = loadAverage();
    return new Machine(
        readCpuModel(),
        Runtime.getRuntime().availableProcessors(),
        meminfoMiB("MemTotal:"),
        meminfoMiB("MemAvailable:"),
        load[0],
        load[1],
        load[2],
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
  }

  /** The 1, 5 and 15 minute load averages, or -1 each if the platform does not tell. */
  public static double[] loadAverage() {
    List<String> lines = readLines(Path.of("/proc/loadavg"));
    if (!lines.isEmpty()) {
      String[] f = lines.get(0).trim().split("\\s+");
      if (f.length >= 3) {
        try {
          return new double[] {
            Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])
          };
        } catch (NumberFormatException e) {
          // fall through to the JVM's one-minute figure
        }
      }
    }
    double one = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return new double[] {one, -1, -1};
  }

  /**
   * One line for the console: {@code 2 x AMD EPYC, 23 GiB (21 available), load 3.1 2.0 1.5, ...}.
   */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "%d x %s, %d MiB memory (%d available), load average %.2f %.2f %.2f, %s, %s",
        cpus,
        cpuModel,
        memTotalMiB,
        memAvailableMiB,
        load1,
        load5,
        load15,
        jdk,
        os);
  }

  /** The fields as an ordered map, for the JSON file. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cpu_model", cpuModel);
    m.put("cpus", cpus);
    m.put("mem_total_mib", memTotalMiB);
    m.put("mem_available_mib", memAvailableMiB);
    m.put("load_average_1m", load1);
    m.put("load_average_5m", load5);
    m.put("load_average_15m", load15);
    m.put("jdk", jdk);
    m.put("os", os);
    return m;
  }

  private static String readCpuModel() {
    for (String line : readLines(Path.of("/proc/cpuinfo"))) {
      if (line.startsWith("model name")) {
        int colon = line.indexOf(':');
        if (colon > 0) {
          return line.substring(colon + 1).trim();
        }
      }
    }
    return "unknown (" + System.getProperty("os.arch") + ")";
  }

  private static long meminfoMiB(String key) {
    for (String line : readLines(Path.of("/proc/meminfo"))) {
      if (line.startsWith(key)) {
        String[] f = line.substring(key.length()).trim().split("\\s+");
        try {
          return Long.parseLong(f[0]) / 1024; // the kernel reports kB
        } catch (NumberFormatException e) {
          return -1;
        }
      }
    }
    return -1;
  }

  private static List<String> readLines(Path p) {
    try {
      return Files.exists(p) ? Files.readAllLines(p) : List.of();
    } catch (IOException e) {
      return List.of(); // a missing /proc entry leaves the field unknown, not the run failed
    }
  }
}
