package dev.idxkit.jmh.peers;

import dev.idxkit.idxbuild.ResourceUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What a round of {@link LoadBench} cost the process beside CPU time: young and old collections
 * with their pause time, minor and major page faults (from {@code /proc/self/stat} on Linux), and
 * the bytes it had read from the storage device ({@code read_bytes} of {@code /proc/self/io}, as
 * {@link ResourceUsage} reads it), the suspects when the same work costs different CPU from round
 * to round. The last two show a round that found its CSV gone from the page cache: a VM may evict
 * cold file pages on its own (this one runs DAMON with a page-out scheme), and a round that reads
 * its input from the disk pays for it. Last, the machine's steal time ({@code /proc/stat}, all
 * CPUs): time the hypervisor gave the VM's CPUs to someone else, which a round of the same work
 * then waits out. And the time the JIT compilers spent in the round, which on two cores they take
 * from the load ({@link JitWarmUp}).
 */
record LoadRoundCost(
    long collections,
    long gcMillis,
    long minorFaults,
    long majorFaults,
    long bytesRead,
    long stealTicks,
    long compileMillis) {
  private static final Path IO = Path.of("/proc/self/io");

  static LoadRoundCost start() {
    return now();
  }

  private static LoadRoundCost now() {
    long n = 0;
    long ms = 0;
    for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
      ms += Math.max(0, gc.getCollectionTime());
    }
    long[] faults = readFaults();
    long read = Files.isReadable(IO) ? ResourceUsage.now().bytesRead() : -1;
    return new LoadRoundCost(
        n, ms, faults[0], faults[1], read, readStealTicks(), JitWarmUp.compileMillis());
  }

  /**
   * The steal field of /proc/stat's first line (all CPUs, in ticks of 1/100 s), or -1 where there
   * is none.
   */
  private static long readStealTicks() {
    try (var lines = Files.lines(Path.of("/proc/stat"))) {
      String[] f = lines.findFirst().orElse("").trim().split("\\s+");
      return f.length > 8 && f[0].equals("cpu") ? Long.parseLong(f[8]) : -1;
    } catch (java.io.IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Fields 10 and 12 of /proc/self/stat (minor and major faults), or -1 where there are none. */
  private static long[] readFaults() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return new long[] {Long.parseLong(f[7]), Long.parseLong(f[9])};
    } catch (java.io.IOException | RuntimeException e) {
      return new long[] {-1, -1};
    }
  }

  String end() {
    LoadRoundCost e = now();
    long read = delta(bytesRead, e.bytesRead);
    long steal = delta(stealTicks, e.stealTicks);
    long jit = delta(compileMillis, e.compileMillis);
    return String.format(
        Locale.ROOT,
        "%d collections, %d ms in GC, %,d minor faults, %,d major, %,.1f MB read from the disk,"
            + " %.2f s of CPU stolen by the host, %.2f s in the JIT compilers",
        e.collections - collections,
        e.gcMillis - gcMillis,
        delta(minorFaults, e.minorFaults),
        delta(majorFaults, e.majorFaults),
        read < 0 ? -1 : read / 1e6,
        steal < 0 ? -1 : steal / 100.0,
        jit < 0 ? -1 : jit / 1e3);
  }

  /** {@code end - start}, or -1 when either counter could not be read. */
  private static long delta(long start, long end) {
    return start < 0 || end < 0 ? -1 : end - start;
  }
}
