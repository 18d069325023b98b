package dev.idxkit.jmh.experiments;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.idxbuild.ResourceUsage;
import dev.idxkit.jmh.ExperimentArgs;
import dev.idxkit.jmh.experiments.IoReader.Method;
import dev.idxkit.jmh.report.Chart;
import dev.idxkit.jmh.report.ResultWriter;
import dev.idxkit.jmh.report.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * The {@code io} experiment: read bandwidth by chunk size, sequential and random, through a memory
 * mapping, the store's own read path ({@code store}: {@code PageFile}, its mapping and its advice
 * to the kernel), {@code FileChannel} and {@code O_DIRECT}, on a cold page cache; and, on the same
 * file in the same run, {@code dd} as the yardstick for sequential reads.
 *
 * <p>Steps:
 *
 * <ol>
 *   <li>Write the file (FILE-SIZE, default 1 GiB) under {@code --dir}: every 8-byte word holds its
 *       offset, so every read is checked ({@link IoReader}); fsync, so its pages can be evicted.
 *   <li>Choose how to evict it from the page cache ({@link PageCache}: {@code posix_fadvise} via
 *       dd, else {@code drop_caches}, else none - and say which).
 *   <li>For each chunk size (powers of two from 1 KiB to 8 MiB, plus a fine sweep of 1-128 KiB to
 *       find where read-ahead stops paying), each method and each pattern: evict, open, then read
 *       for {@code --millis} (or to the end of the file, sequentially from offset 0; randomly at
 *       offsets aligned to 4 KiB, or to the chunk below 4 KiB, from a printed seed), close. One
 *       point: bytes / elapsed seconds. {@code O_DIRECT} skips sizes that are not a multiple of the
 *       file system's block size.
 *   <li>Whole file, 1 MiB at a time, cold, {@code --rounds} times: {@code dd bs=1M}, then each
 *       method; the ratio of each to that round's dd is the "mmap sequential &gt;= 90% of dd" goal.
 *   <li>Write {@code io.csv/json} (points), {@code io-vs-dd.csv/json}, {@code io.png} (all sizes,
 *       log-log, one line per method and pattern, dd as a flat line) and {@code io-fine.png} (the
 *       1-128 KiB sweep), then delete the file.
 * </ol>
 *
 * <p>Memory: an 8 MiB buffer per reader. Disk: the file. Time: about (points x (millis + eviction))
 * plus the whole-file rounds; about 2 minutes at the defaults on a 2-core VM.
 */
public final class IoBench {
  /** The fine sweep, in KiB: where between 4 and 128 KiB read-ahead and per-call costs cross. */
  static final int[] FINE_KIB = {
    1, 2, 4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128
  };

  static final String[] PATTERNS = {"sequential", "random"};

  /**
   * Whether this system counts the bytes a process caused to be read from storage ({@code
   * read_bytes} of {@code /proc/self/io}, which {@link ResourceUsage} reads; Linux only). It is
   * counted when a read request reaches the block layer, so it includes the read-ahead a page fault
   * or a {@code read} triggers and nothing the page cache served: the difference over a
   * measurement, divided by its reads, is what one read cost the device (for a mapping without
   * advice, the device's read-ahead window, not the chunk).
   */
  private static final boolean DEVICE_COUNTED = Files.isReadable(Path.of("/proc/self/io"));

  private IoBench() {}

  public static void main(String[] args) {
    command().run(args, IoBench::run);
  }

  /** The command line: options, defaults and help. */
  static ExperimentArgs command() {
    return ExperimentArgs.command(
            "io",
            "Sequential vs random reads by chunk size (1 KiB to 8 MiB, plus a 1-128 KiB sweep)\n"
                + "through mmap, the store's read path, FileChannel and O_DIRECT on a cold page\n"
                + "cache, and dd on the same file; bytes the device read per read (/proc/self/io).\n"
                + "Writes io.csv/json, io-vs-dd.csv/json, io.png and io-fine.png.")
        .positional("FILE-SIZE", "1g", "size of the file read (k, m, g suffixes)")
        .option("--dir", "DIR", System.getProperty("java.io.tmpdir"), "where the file is written")
        .option("--millis", "MS", "500", "reading time per point")
        .option("--min-chunk", "BYTES", "1k", "smallest chunk")
        .option("--max-chunk", "BYTES", "8m", "largest chunk")
        .option("--methods", "LIST", "mmap,store,channel,o_direct", "readers to measure")
        .option("--rounds", "N", "2", "whole-file rounds against dd")
        .option("--seed", "N", "", "seed of the random offsets (default: drawn and printed)");
  }

  static void run(ExperimentArgs a) throws IOException, InterruptedException {
    int minChunk = (int) a.bytes("--min-chunk", 512, 64 << 20);
    int maxChunk = (int) a.bytes("--max-chunk", minChunk, 64 << 20);
    long fileSize = a.bytes("FILE-SIZE", 4L * maxChunk, 1L << 40) & ~4095L;
    long millis = a.count("--millis", 1, 600_000);
    int rounds = a.integer("--rounds", 0, 100);
    List<Method> methods = methods(a.get("--methods"));
    long seed =
        a.get("--seed").isEmpty()
            ? new SplittableRandom().nextLong()
            : a.count("--seed", Long.MIN_VALUE, Long.MAX_VALUE);
    List<Integer> chunks = chunkSizes(minChunk, maxChunk);

    ResultWriter out = ResultWriter.open("io", a.out());
    System.out.println("io: " + out.machineAtStart().describe());
    Results points =
        Results.of(
                "io",
                "method",
                "pattern",
                "chunk_bytes",
                "reads",
                "bytes",
                "seconds",
                "mib_per_s",
                "reads_per_s",
                "resident_before_bytes",
                "device_bytes_per_read")
            .parameter("file_bytes", fileSize)
            .parameter("millis_per_point", millis)
            .parameter("seed", seed)
            .parameter("chunk_sizes", chunks.toString());
    Results vsDd =
        Results.of(
                "io-vs-dd",
                "round",
                "reader",
                "block_bytes",
                "bytes",
                "seconds",
                "mib_per_s",
                "ratio_to_dd")
            .parameter("file_bytes", fileSize);
    try (Scratch dir = Scratch.under(a.path("--dir"), "io")) {
      Path file = dir.resolve("io.dat");
      long t0 = System.nanoTime();
      IoReader.fill(file, fileSize);
      System.out.printf(
          Locale.ROOT,
          "io: wrote %s (%d MiB) in %.1f s; seed %d%n",
          file,
          fileSize >> 20,
          (System.nanoTime() - t0) / 1e9,
          seed);
      PageCache cache = PageCache.choose(file);
      System.out.println("io: " + cache.describe());
      points.note(cache.describe()).note("random offsets from seed " + seed);
      vsDd.note(cache.describe());
      methods = usable(file, methods, maxChunk, points);
      SplittableRandom random = new SplittableRandom(seed);
      System.out.printf(
          Locale.ROOT,
          "%-9s %-10s %10s %10s %10s %12s %14s%n",
          "method",
          "pattern",
          "chunk",
          "MiB/s",
          "reads/s",
          "resident",
          "device B/read");
      TreeSet<String> skipped = new TreeSet<>();
      for (int chunk : chunks) {
        for (Method m : methods) {
          for (String pattern : PATTERNS) {
            if (!measure(file, cache, m, pattern, chunk, maxChunk, millis, random, points)) {
              skipped.add(m.label + " " + human(chunk));
            }
          }
        }
        out.write(points); // an interrupted run keeps what it measured
      }
      if (!skipped.isEmpty()) {
        points.note(
            "not measured (chunk not a multiple of the file system block size O_DIRECT needs): "
                + skipped);
      }
      for (int r = 1; r <= rounds; r++) {
        wholeFile(file, cache, methods, r, vsDd);
        out.write(vsDd);
      }
    }
    long warm = points.rows().stream().filter(r -> ((Number) r.get(8)).longValue() > 0).count();
    String cached =
        warm
            + " of "
            + points.rows().size()
            + " points started with part of the file still in the page cache"
            + " (resident_before_bytes > 0)";
    points.note(cached);
    System.out.println("io: " + cached);
    String goal = goal(vsDd);
    vsDd.note(goal);
    System.out.println("io: " + goal);
    for (String line : storeGoal(points)) {
      points.note(line);
      System.out.println("io: " + line);
    }
    out.write(points);
    out.write(vsDd);
    out.chart(chart(points, vsDd, methods, 0, Integer.MAX_VALUE, true), "io");
    out.chart(chart(points, vsDd, methods, 1024, 128 * 1024, false), "io-fine");
    out.printFiles(System.out);
  }

  /** The goal, per round: mmap's whole-file sequential read against dd's. */
  static String goal(Results vsDd) {
    StringBuilder sb = new StringBuilder("goal mmap sequential >= 0.90 x dd (whole file, 1 MiB):");
    boolean any = false;
    for (List<Object> row : vsDd.rows()) {
      if (row.get(1).equals(Method.MMAP.label)) {
        sb.append(String.format(Locale.ROOT, " round %s %.2f", row.get(0), row.get(6)));
        any = true;
      }
    }
    return any ? sb.toString() : "goal mmap sequential >= 0.90 x dd: not measured (no rounds)";
  }

  /**
   * The read path's goal, per chunk size measured with both: random reads through the store at
   * least 0.8x pread's ({@code channel}) reads/s, and at most 4x the chunk read from the device per
   * read.
   */
  static List<String> storeGoal(Results points) {
    List<String> out = new ArrayList<>();
    for (List<Object> store : points.rows()) {
      if (!store.get(0).equals(Method.STORE.label) || !store.get(1).equals("random")) {
        continue;
      }
      for (List<Object> channel : points.rows()) {
        if (channel.get(0).equals(Method.CHANNEL.label)
            && channel.get(1).equals("random")
            && channel.get(2).equals(store.get(2))) {
          double ratio =
              ((Number) store.get(7)).doubleValue() / ((Number) channel.get(7)).doubleValue();
          long chunk = ((Number) store.get(2)).longValue();
          long device = ((Number) store.get(9)).longValue();
          out.add(
              String.format(
                  Locale.ROOT,
                  "goal store random >= 0.80 x channel reads/s, chunk %s: %.2f (%.0f vs %.0f"
                      + " reads/s); device bytes per read %s (goal <= 4 x chunk: %s)",
                  human(chunk),
                  ratio,
                  ((Number) store.get(7)).doubleValue(),
                  ((Number) channel.get(7)).doubleValue(),
                  device < 0 ? "unknown" : Long.toString(device),
                  device < 0
                      ? "unknown"
                      : String.format(Locale.ROOT, "%.2f x", device / (double) chunk)));
        }
      }
    }
    return out;
  }

  static List<Method> methods(String list) {
    List<Method> out = new ArrayList<>();
    for (String s : list.split(",")) {
      Method found = null;
      for (Method m : Method.values()) {
        if (m.label.equals(s.trim().toLowerCase(Locale.ROOT))) {
          found = m;
        }
      }
      if (found == null) {
        throw new InvalidInputException(
            "--methods : "
                + list
                + " (expected: mmap, store, store_pread, store_fault, channel, o_direct)");
      }
      out.add(found);
    }
    return out;
  }

  /**
   * The methods that can read {@code file}: {@code O_DIRECT} is refused by some file systems
   * (tmpfs); such a method is left out with a note rather than failing the experiment.
   */
  static List<Method> usable(Path file, List<Method> methods, int maxChunk, Results points) {
    List<Method> out = new ArrayList<>();
    for (Method m : methods) {
      try (IoReader r = IoReader.open(m, file, maxChunk)) {
        r.read(0, Math.max(r.alignment(), 4096));
        out.add(m);
        if (r instanceof IoReader.StoreRead s && s.adviceProblem() != null) {
          String why = "store: read-ahead not controlled here (" + s.adviceProblem() + ")";
          System.out.println("io: " + why);
          points.note(why);
        }
      } catch (IOException | UnsupportedOperationException e) {
        String why = m.label + " cannot read " + file + " here (" + e + "); left out";
        System.out.println("io: " + why);
        points.note(why);
      }
    }
    if (out.isEmpty()) {
      throw new IllegalStateException("no read method works on " + file);
    }
    return out;
  }

  /** Powers of two from min to max, and the fine sweep's sizes in that range, ascending. */
  static List<Integer> chunkSizes(int min, int max) {
    TreeSet<Integer> s = new TreeSet<>();
    for (long c = Integer.highestOneBit(min); c <= max; c <<= 1) {
      if (c >= min) {
        s.add((int) c);
      }
    }
    for (int k : FINE_KIB) {
      if (k * 1024 >= min && k * 1024 <= max) {
        s.add(k * 1024);
      }
    }
    return new ArrayList<>(s);
  }

  /** Measures one point; false if the method cannot read chunks of this size. */
  private static boolean measure(
      Path file,
      PageCache cache,
      Method m,
      String pattern,
      int chunk,
      int maxChunk,
      long millis,
      SplittableRandom random,
      Results points)
      throws IOException, InterruptedException {
    long resident = cache.evict();
    try (IoReader reader = IoReader.open(m, file, maxChunk)) {
      if (chunk % reader.alignment() != 0) {
        return false; // O_DIRECT reads whole blocks only
      }
      boolean sequential = pattern.equals("sequential");
      long align = reader.offsetAlignment(chunk);
      long slots = (reader.fileSize - chunk) / align + 1;
      long deviceBefore = ResourceUsage.now().bytesRead();
      long deadline = System.nanoTime() + millis * 1_000_000L;
      long reads = 0;
      long t0 = System.nanoTime();
      long off = 0;
      do {
        if (sequential) {
          if (off + chunk > reader.fileSize) {
            break;
          }
          reader.read(off, chunk);
          off += chunk;
        } else {
          reader.read(random.nextLong(slots) * align, chunk);
        }
        reads++;
      } while (System.nanoTime() < deadline);
      double seconds = (System.nanoTime() - t0) / 1e9;
      long deviceAfter = ResourceUsage.now().bytesRead();
      long deviceBytesPerRead = DEVICE_COUNTED ? (deviceAfter - deviceBefore) / reads : -1;
      long bytes = reads * chunk;
      double mib = bytes / 1048576.0 / seconds;
      points.row(
          m.label,
          pattern,
          chunk,
          reads,
          bytes,
          round(seconds, 4),
          round(mib, 2),
          round(reads / seconds, 1),
          resident,
          deviceBytesPerRead);
      System.out.printf(
          Locale.ROOT,
          "%-9s %-10s %10s %10.1f %10.0f %12s %14s%n",
          m.label,
          pattern,
          human(chunk),
          mib,
          reads / seconds,
          resident < 0 ? "?" : human(resident),
          deviceBytesPerRead < 0 ? "?" : Long.toString(deviceBytesPerRead));
      return true;
    }
  }

  private static void wholeFile(
      Path file, PageCache cache, List<Method> methods, int round, Results vsDd)
      throws IOException, InterruptedException {
    int block = 1 << 20;
    cache.evict();
    PageCache.DdRun dd = PageCache.dd(file, block);
    double ddMib = dd.mibPerSecond();
    vsDd.row(round, "dd", block, dd.bytes(), round(dd.seconds(), 4), round(ddMib, 1), 1.0);
    System.out.printf(Locale.ROOT, "whole file, round %d: dd bs=1M %.1f MiB/s", round, ddMib);
    for (Method m : methods) {
      cache.evict();
      try (IoReader reader = IoReader.open(m, file, block)) {
        long t0 = System.nanoTime();
        long off = 0;
        for (; off + block <= reader.fileSize; off += block) {
          reader.read(off, block);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        double mib = off / 1048576.0 / s;
        vsDd.row(round, m.label, block, off, round(s, 4), round(mib, 1), round(mib / ddMib, 3));
        System.out.printf(Locale.ROOT, ", %s %.1f MiB/s (%.2f of dd)", m.label, mib, mib / ddMib);
      }
    }
    System.out.println();
  }

  private static Chart chart(
      Results points, Results vsDd, List<Method> methods, int minChunk, int maxChunk, boolean all) {
    Chart c =
        all
            ? Chart.line("Read bandwidth by chunk size, cold page cache", "chunk (KiB)", "MiB/s")
                .logX()
                .logY()
            : Chart.line("Fine sweep 1-128 KiB, cold page cache", "chunk (KiB)", "MiB/s").logY();
    for (Method m : methods) {
      for (String pattern : PATTERNS) {
        List<double[]> xy = new ArrayList<>();
        for (List<Object> row : points.rows()) {
          int chunk = ((Number) row.get(2)).intValue();
          if (row.get(0).equals(m.label)
              && row.get(1).equals(pattern)
              && chunk >= minChunk
              && chunk <= maxChunk) {
            xy.add(new double[] {chunk / 1024.0, ((Number) row.get(6)).doubleValue()});
          }
        }
        c.series(m.label + " " + pattern, xs(xy, 0), xs(xy, 1));
      }
    }
    if (all) {
      List<double[]> dd = new ArrayList<>();
      double best = 0;
      for (List<Object> row : vsDd.rows()) {
        if (row.get(1).equals("dd")) {
          best = Math.max(best, ((Number) row.get(5)).doubleValue());
        }
      }
      if (best > 0) {
        dd.add(new double[] {xFirst(points), best});
        dd.add(new double[] {xLast(points), best});
        c.series("dd bs=1M, whole file (best round)", xs(dd, 0), xs(dd, 1));
      }
    }
    return c;
  }

  private static double xFirst(Results points) {
    return points.rows().stream().mapToInt(r -> ((Number) r.get(2)).intValue()).min().orElse(1024)
        / 1024.0;
  }

  private static double xLast(Results points) {
    return points.rows().stream().mapToInt(r -> ((Number) r.get(2)).intValue()).max().orElse(1024)
        / 1024.0;
  }

  private static double[] xs(List<double[]> xy, int i) {
    return xy.stream().mapToDouble(p -> p[i]).toArray();
  }

  static double round(double v, int decimals) {
    double f = Math.pow(10, decimals);
    return Math.round(v * f) / f;
  }

  static String human(long bytes) {
    if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
      return (bytes >> 20) + "M";
    }
    if (bytes >= 1024 && bytes % 1024 == 0) {
      return (bytes >> 10) + "K";
    }
    return Long.toString(bytes);
  }
}
