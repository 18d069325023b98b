package dev.idxkit.jmh.peers;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.jmh.BenchDir;
import dev.idxkit.jmh.ExperimentArgs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The {@code compare} experiment (issue 7): the same ordered map of {@code keys} 8-byte keys to
 * 8-byte values built and read by idxkit and, in the same JVM run on the same data, by SQLite, H2
 * MVStore, RocksDB, LMDB and MapDB; a table of ratios against idxkit, CSV, JSON and a PNG chart.
 *
 * <p>Steps:
 *
 * <ol>
 *   <li>Build each store in turn from sorted input through its own bulk path ({@link KvStore}
 *       implementations say which, and with what durability and cache), timed from the empty
 *       directory to a durable result; then {@link KvWorkload#verify} its contents.
 *   <li>Rounds: {@code warmup} unmeasured rounds, then {@code rounds} measured ones. In each round
 *       a fresh set of random keys (seeded; the same for every store) is looked up, and {@code
 *       scans} range scans of {@value KvWorkload#SCAN_LENGTH} entries are made from random starts,
 *       store after store. Interleaving rounds across the stores, instead of running one store's
 *       rounds and then the next's, spreads the noise of a shared machine over all of them.
 *   <li>Random inserts (after the reads, which expect the built map): {@code inserts} new keys per
 *       round, uniform over the gaps between the built keys and distinct ({@link
 *       KvWorkload#newKeys}, the same for every store), inserted in transactions or write batches
 *       of {@code batch} (1,000) with no fsync per commit ({@link KvStore#insertBatch} says how
 *       each store does it); rounds interleaved across the stores as above, so each store's tree
 *       grows by the same keys in the same order; then {@link KvWorkload#verifyInserts}.
 *   <li>Figures per store: build seconds and keys/s, disk bytes, median lookups/s and entries/s
 *       over the measured rounds (with min and max), median inserts/s, median CPU ns per operation
 *       of the calling thread. Ratios are idxkit's figure over each peer's (above 1: idxkit is
 *       faster).
 * </ol>
 *
 * <p>Memory and disk: all stores stay open until the end, each with its own cache of {@code
 * --cache} (idxkit, LMDB and MapDB read through mmap and have none): about 20-60 bytes per key on
 * disk per store (10 M keys: 0.2-0.6 GB each) under a fresh {@link BenchDir} deleted at the end.
 * Reads are made by one thread.
 *
 * <p>Run: {@code java $(cat cli/target/jvm.args) -cp jmh/target/benchmarks.jar
 * dev.idxkit.jmh.peers.CompareBench [--keys 10000000] [--lookups 200000] [--scans 10000] [--rounds
 * 3] [--warmup 1] [--inserts 100000] [--batch 1000] [--stores
 * idxkit,sqlite,h2mvstore,rocksdb,lmdb,mapdb] [--cache 256m] [--out bench-results/compare] [--work
 * DIR] [--seed N]}; {@code --inserts 0} leaves the random-insert workload out.
 */
public final class CompareBench {
  public static final String NAME = "compare";
  static final List<String> STORES =
      List.of("idxkit", "sqlite", "h2mvstore", "rocksdb", "lmdb", "mapdb");

  /** What {@code --help} prints. */
  static final String HELP =
      "usage: idxkit bench compare [--keys 10000000] [--lookups 200000] [--scans 10000]"
          + " [--rounds 3] [--warmup 1] [--inserts 100000] [--batch 1000]"
          + " [--stores idxkit,sqlite,h2mvstore,rocksdb,lmdb,mapdb]"
          + " [--cache 256m] [--fill 100] [--out bench-results/compare] [--work DIR] [--seed N] [--verbose]\n"
          + "Bulk build, random point lookups, range scans and random inserts (transactions of"
          + " --batch, no fsync; then each store's sync, and its deferred merge, timed) of the"
          + " same keys in idxkit and,"
          + " in the same run, SQLite, H2 MVStore, RocksDB, LMDB and MapDB; CSV, JSON and PNG."
          + " --fill: how full idxkit's bulk build packs its leaves, in percent (as idxbuild"
          + " --fill).";

  static final String USAGE =
      "--keys, --lookups, --scans, --rounds, --warmup, --inserts, --batch, --stores, --cache,"
          + " --fill, --out, --work, --seed";

  /** The experiment's parameters; {@link #parse} documents the defaults. */
  record Config(
      long keys,
      int lookups,
      int scans,
      int rounds,
      int warmup,
      int inserts,
      int batch,
      List<String> stores,
      long cacheBytes,
      int fill,
      Path out,
      Path work,
      long seed) {
    Config {
      stores = List.copyOf(stores);
      if (!stores.contains("idxkit")) {
        throw new InvalidInputException(
            "--stores : " + String.join(",", stores) + " (expected: a list that includes idxkit)");
      }
      if (keys < KvWorkload.SCAN_LENGTH) {
        throw new InvalidInputException(
            "--keys : " + keys + " (expected: >= " + KvWorkload.SCAN_LENGTH + ")");
      }
    }

    static Config parse(String... args) {
      BenchArgs a = BenchArgs.parse(args);
      Config c =
          new Config(
              a.longValue("keys", 10_000_000, KvWorkload.SCAN_LENGTH, 2_000_000_000L),
              a.intValue("lookups", 200_000, 1, 100_000_000),
              a.intValue("scans", 10_000, 1, 10_000_000),
              a.intValue("rounds", 3, 1, 100),
              a.intValue("warmup", 1, 0, 100),
              a.intValue("inserts", 100_000, 0, 100_000_000),
              a.intValue("batch", 1_000, 1, 1_000_000),
              a.list("stores", STORES, new LinkedHashSet<>(STORES)),
              a.bytes("cache", 256L << 20, 1L << 20),
              a.intValue("fill", 100, 10, 100),
              a.path("out", Path.of("bench-results", NAME)),
              a.path("work", null),
              a.longValue("seed", 20_240_601L, Long.MIN_VALUE, Long.MAX_VALUE));
      a.checkAllRead(USAGE);
      return c;
    }
  }

  private CompareBench() {}

  public static void main(String[] args) {
    ExperimentArgs.runMain(NAME, HELP, args, a -> run(Config.parse(a), System.out));
  }

  static KvStore open(String name, Path dir, Config c) {
    long cacheBytes = c.cacheBytes();
    return switch (name) {
      case "idxkit" -> new IdxkitKv(dir, c.fill());
      case "sqlite" -> new SqliteKv(dir, cacheBytes);
      case "h2mvstore" -> new MvStoreKv(dir, cacheBytes);
      case "rocksdb" -> new RocksKv(dir, cacheBytes);
      case "lmdb" -> new LmdbKv(dir);
      case "mapdb" -> new MapDbKv(dir);
      default ->
          throw new InvalidInputException("store : " + name + " (expected: one of " + STORES + ")");
    };
  }

  /** Runs the experiment, prints as it goes, writes CSV/JSON/PNG into {@code c.out()}. */
  static ResultSheet run(Config c, PrintStream out) throws Exception {
    Machine machine = Machine.describe();
    ResultSheet sheet = new ResultSheet(NAME, machine);
    sheet.parameter("keys", c.keys());
    sheet.parameter("lookupsPerRound", c.lookups());
    sheet.parameter("scansPerRound", c.scans());
    sheet.parameter("scanLength", KvWorkload.SCAN_LENGTH);
    sheet.parameter("rounds", c.rounds());
    sheet.parameter("warmupRounds", c.warmup());
    sheet.parameter("cacheBytes", c.cacheBytes());
    sheet.parameter("insertsPerRound", c.inserts());
    sheet.parameter("insertBatch", c.batch());
    sheet.parameter("seed", c.seed());
    sheet.parameter("stores", String.join(",", c.stores()));
    out.printf(
        Locale.ROOT,
        "compare: %,d keys, %d stores, %,d lookups and %,d scans x %d per round, %d+%d rounds,"
            + " seed %d%n",
        c.keys(),
        c.stores().size(),
        c.lookups(),
        c.scans(),
        KvWorkload.SCAN_LENGTH,
        c.warmup(),
        c.rounds(),
        c.seed());
    out.println("machine: " + machine.summary());

    Map<String, KvStore> stores = new LinkedHashMap<>();
    try (BenchDir dir =
        c.work() == null ? BenchDir.create(NAME) : BenchDir.create(c.work(), NAME)) {
      try {
        for (String name : c.stores()) {
          KvStore s = open(name, dir.resolve(name), c);
          stores.put(name, s);
          sheet.setting(name, s.settings());
          build(s, dir.resolve(name), c, sheet, out);
        }
        measure(stores, c, sheet, out);
        if (c.inserts() > 0) {
          CompareInserts.run(stores, c, sheet, out);
        }
      } finally {
        closeAll(stores.values());
      }
    }
    machine.sampleLoad();
    summarize(c, sheet);
    sheet.finish(c.out(), panels(c, sheet), out);
    return sheet;
  }

  private static void build(KvStore s, Path dir, Config c, ResultSheet sheet, PrintStream out)
      throws Exception {
    double load = Machine.loadAverage();
    long cpu0 = Machine.processCpuNanos();
    long t0 = System.nanoTime();
    s.build(c.keys());
    long wall = System.nanoTime() - t0;
    long cpu = Machine.processCpuNanos() - cpu0;
    KvWorkload.verify(s, c.keys(), c.seed() ^ 0x5EED);
    long bytes = du(dir);
    sheet.add(s.name(), "", "build", wall / 1e9, "s");
    sheet.add(s.name(), "", "build rate", c.keys() / (wall / 1e9), "keys/s");
    sheet.add(s.name(), "", "build cpu", cpu / 1e9, "s (process)");
    sheet.add(s.name(), "", "disk", bytes, "bytes");
    out.printf(
        Locale.ROOT,
        "  %-10s built in %7.2f s (%,12.0f keys/s, process CPU %.2f s, load %.2f), %,.1f MiB,"
            + " verified%n",
        s.name(),
        wall / 1e9,
        c.keys() / (wall / 1e9),
        cpu / 1e9,
        load,
        bytes / (double) (1 << 20));
    sheet.machine.sampleLoad();
  }

  private static void measure(
      Map<String, KvStore> stores, Config c, ResultSheet sheet, PrintStream out) throws Exception {
    SplittableRandom random = new SplittableRandom(c.seed());
    Map<String, List<KvWorkload.Timing>> lookups = new LinkedHashMap<>();
    Map<String, List<KvWorkload.Timing>> scans = new LinkedHashMap<>();
    for (String s : stores.keySet()) {
      lookups.put(s, new ArrayList<>());
      scans.put(s, new ArrayList<>());
    }
    int total = c.warmup() + c.rounds();
    for (int round = 0; round < total; round++) {
      long[] probes = KvWorkload.draws(random, c.lookups(), c.keys());
      long[] starts = KvWorkload.draws(random, c.scans(), c.keys());
      boolean measured = round >= c.warmup();
      String label = measured ? "round " + (round - c.warmup() + 1) : "warmup " + (round + 1);
      double load = sheet.machine.sampleLoad();
      StringBuilder line =
          new StringBuilder(String.format(Locale.ROOT, "  %-9s (load %5.2f)", label, load));
      for (KvStore s : stores.values()) {
        KvWorkload.Timing l = KvWorkload.lookups(s, probes);
        KvWorkload.Timing r = KvWorkload.scans(s, starts, c.keys());
        line.append(
            String.format(
                Locale.ROOT,
                "  %s %,.0f/s %,.0f e/s",
                s.name(),
                l.opsPerSecond(),
                r.opsPerSecond()));
        if (measured) {
          lookups.get(s.name()).add(l);
          scans.get(s.name()).add(r);
          sheet.add(s.name(), label, "lookup", l.opsPerSecond(), "lookups/s");
          sheet.add(s.name(), label, "scan", r.opsPerSecond(), "entries/s");
        }
      }
      out.println(line);
    }
    out.println();
    out.printf(
        Locale.ROOT,
        "%-10s %8s %12s %8s %13s %19s %9s %14s %9s%n",
        "store",
        "build s",
        "build keys/s",
        "MiB",
        "lookups/s",
        "(min..max)",
        "CPU ns/op",
        "scan entries/s",
        "CPU ns/e");
    for (String s : stores.keySet()) {
      double[] lk = rates(lookups.get(s));
      double[] sc = rates(scans.get(s));
      double lkCpu = median(lookups.get(s).stream().mapToDouble(KvWorkload.Timing::cpuNanosPerOp));
      double scCpu = median(scans.get(s).stream().mapToDouble(KvWorkload.Timing::cpuNanosPerOp));
      sheet.add(s, "", "lookup", median(Arrays.stream(lk)), "lookups/s");
      sheet.add(s, "", "lookup min", Arrays.stream(lk).min().orElse(Double.NaN), "lookups/s");
      sheet.add(s, "", "lookup max", Arrays.stream(lk).max().orElse(Double.NaN), "lookups/s");
      sheet.add(s, "", "lookup cpu", lkCpu, "ns/lookup");
      sheet.add(s, "", "scan", median(Arrays.stream(sc)), "entries/s");
      sheet.add(s, "", "scan cpu", scCpu, "ns/entry");
      out.printf(
          Locale.ROOT,
          "%-10s %8.2f %,12.0f %,8.1f %,13.0f %,9.0f..%,-9.0f %,9.0f %,14.0f %,9.1f%n",
          s,
          sheet.value(s, "", "build"),
          sheet.value(s, "", "build rate"),
          sheet.value(s, "", "disk") / (1 << 20),
          median(Arrays.stream(lk)),
          Arrays.stream(lk).min().orElse(Double.NaN),
          Arrays.stream(lk).max().orElse(Double.NaN),
          lkCpu,
          median(Arrays.stream(sc)),
          scCpu);
    }
  }

  /** Ratios against idxkit and the goals, from the figures in {@code sheet}. */
  static void summarize(Config c, ResultSheet sheet) {
    String me = "idxkit";
    for (String p : c.stores()) {
      if (p.equals(me)) {
        continue;
      }
      sheet.ratio(
          "build keys/s: idxkit / " + p,
          sheet.value(me, "", "build rate") / sheet.value(p, "", "build rate"),
          "idxkit builds this many times faster");
      sheet.ratio(
          "lookups/s: idxkit / " + p,
          sheet.value(me, "", "lookup") / sheet.value(p, "", "lookup"),
          "idxkit looks up this many times faster (wall, median round)");
      sheet.ratio(
          "lookup CPU: " + p + " / idxkit",
          sheet.value(p, "", "lookup cpu") / sheet.value(me, "", "lookup cpu"),
          "a lookup costs the peer this many times idxkit's CPU");
      sheet.ratio(
          "scan entries/s: idxkit / " + p,
          sheet.value(me, "", "scan") / sheet.value(p, "", "scan"),
          "idxkit scans this many times faster (wall, median round)");
    }
    double mine = sheet.value(me, "", "lookup");
    if (c.stores().contains("lmdb")) {
      double lmdb = sheet.value("lmdb", "", "lookup");
      double cpu = sheet.value(me, "", "lookup cpu") / sheet.value("lmdb", "", "lookup cpu");
      sheet.goal(
          "random point lookups within 1.1x of LMDB's CPU per lookup",
          String.format(
              Locale.ROOT,
              "CPU per lookup idxkit / LMDB = %.2f; wall: LMDB / idxkit = %.2f (%,.0f vs %,.0f"
                  + " lookups/s)",
              cpu,
              lmdb / mine,
              lmdb,
              mine),
          cpu <= 1.1);
    }
    String best = fastestOther(c, sheet, "lookup", "lmdb");
    if (best != null) {
      double b = sheet.value(best, "", "lookup");
      sheet.goal(
          "random point lookups ahead of every other peer",
          String.format(
              Locale.ROOT,
              "idxkit / best other (%s) = %.2f (%,.0f vs %,.0f lookups/s)",
              best,
              mine / b,
              mine,
              b),
          mine > b);
    }
    if (c.inserts() > 0) {
      CompareInserts.summarize(c, sheet);
    }
    sheet.note(
        "ratios use the median of "
            + c.rounds()
            + " interleaved rounds; on a shared machine compare the CPU ns/op columns as well");
  }

  /**
   * The store with the highest {@code metric} other than idxkit and {@code except} (the peer that
   * has a goal of its own), or null when there is none.
   */
  static String fastestOther(Config c, ResultSheet sheet, String metric, String except) {
    String best = null;
    for (String p : c.stores()) {
      if (!p.equals("idxkit")
          && !p.equals(except)
          && (best == null || sheet.value(p, "", metric) > sheet.value(best, "", metric))) {
        best = p;
      }
    }
    return best;
  }

  static List<BarCharts.Panel> panels(Config c, ResultSheet sheet) {
    List<BarCharts.Panel> panels = new ArrayList<>();
    panels.add(
        panel(
            c, sheet, "bulk build of " + human(c.keys()) + " keys", "build rate", 1e6, "M keys/s"));
    panels.add(panel(c, sheet, "random point lookups", "lookup", 1e3, "k lookups/s"));
    panels.add(panel(c, sheet, "range scans (100 entries)", "scan", 1e6, "M entries/s"));
    if (c.inserts() > 0) {
      panels.add(
          panel(
              c,
              sheet,
              "random inserts (txn of " + human(c.batch()) + ", no fsync)",
              "insert",
              1e3,
              "k inserts/s"));
    }
    return panels;
  }

  private static BarCharts.Panel panel(
      Config c, ResultSheet sheet, String title, String metric, double scale, String unit) {
    Map<String, List<Double>> series = new LinkedHashMap<>();
    for (String s : c.stores()) {
      series.put(s, List.of(sheet.value(s, "", metric) / scale));
    }
    return new BarCharts.Panel(title, unit, List.of(metric), series);
  }

  static String human(long n) {
    if (n % 1_000_000 == 0) {
      return n / 1_000_000 + " M";
    }
    if (n % 1_000 == 0) {
      return n / 1_000 + " k";
    }
    return Long.toString(n);
  }

  static double[] rates(List<KvWorkload.Timing> ts) {
    return ts.stream().mapToDouble(KvWorkload.Timing::opsPerSecond).toArray();
  }

  static double median(java.util.stream.DoubleStream values) {
    double[] v = values.sorted().toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  static long du(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      long total = 0;
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        total += Files.size(p);
      }
      return total;
    }
  }

  /** Closes every store, keeping the first failure and adding the others to it. */
  static void closeAll(Iterable<? extends AutoCloseable> all) throws Exception {
    Exception first = null;
    for (AutoCloseable a : all) {
      try {
        a.close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
