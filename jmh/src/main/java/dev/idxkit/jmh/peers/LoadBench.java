package dev.idxkit.jmh.peers;

import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseCheck;
import dev.idxkit.core.internal.io.Madvise;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.jmh.BenchDir;
import dev.idxkit.jmh.ExperimentArgs;
import dev.idxkit.loader.IndexMode;
import dev.idxkit.loader.LoadReport;
import dev.idxkit.loader.RebuildIndexBuild;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code load} experiment (issue 5): TPC-H lineitem at scale factor {@code sf} loaded by
 * idxkit's loader from the built-in generator and from a CSV file, each with the deferred build of
 * the six lineitem indexes (the loader's default, done by the rebuilder), and in the same JVM run
 * SQLite (FastCSV + prepared inserts in transactions of 100,000 rows, then {@code CREATE INDEX})
 * and H2 ({@code CSVREAD}, then {@code CREATE INDEX}) loading the same CSV.
 *
 * <p>Steps: (1) generator load into a new idxkit database; (2) its table exported once as the CSV
 * ({@link Lineitem#exportCsv}; reused from {@code --work}); (3) {@code --warmup} unmeasured CSV
 * loads into a scratch database (the JIT's first pass over the CSV parser is not the loader's
 * speed), up to four more while the last one kept the JIT compilers busy ({@link JitWarmUp}), then
 * the measured CSV load into a new database; (4) each SQL peer ({@link SqlPeer#loadAndIndex}); (5)
 * {@link CrossCheck} over both idxkit databases and the peers, and (with {@code --check}) idxkit's
 * {@code check} of both; (6) figures, ratios, goals, CSV/JSON/PNG.
 *
 * <p>Figures: load seconds (rows appended, checkpoints included, index build excluded), index
 * seconds, total; rows/s of the load alone (what the loader's summary prints) and of the whole;
 * input MB/s (10^6 bytes of CSV per second of loading). The ratio against the peers is on the
 * whole: the time from an empty database to a table with its six indexes.
 *
 * <p>Memory: the rebuild's sort budget ({@code --memory}, on the heap) and the peers' caches of the
 * same size. Disk: two idxkit databases, the CSV and each peer's copy under one {@link BenchDir}
 * (sf 1: about 5 GB), deleted at the end (the CSV kept in {@code --work} when given).
 *
 * <p>Run: {@code java -Xmx4g $(cat cli/target/jvm.args) -cp jmh/target/benchmarks.jar
 * dev.idxkit.jmh.peers.LoadBench [--tpch-sf 0.1] [--threads 2] [--memory 2g] [--peers
 * postgres,duckdb,sqlite,h2] [--warmup 1] [--probes 200] [--check true] [--out bench-results/load]
 * [--work DIR] [--seed N]}.
 */
public final class LoadBench {
  public static final String NAME = "load";

  /** What {@code --help} prints. */
  static final String HELP =
      "usage: idxkit bench load [--tpch-sf 0.1] [--threads CPUS] [--memory 2g]"
          + " [--peers postgres,duckdb,sqlite,h2|none] [--warmup 1] [--rounds 1] [--probes 200]"
          + " [--check true] [--cold-input false] [--out bench-results/load] [--work DIR] [--seed N]"
          + " [--verbose]\n"
          + "Loads TPC-H lineitem with its six indexes from the generator and from CSV, and the"
          + " same CSV into SQLite and H2 in the same run; CSV, JSON and PNG. --rounds N loads the"
          + " CSV N times back to back, each into a new database, and prints the min/median/max"
          + " rows/s and the spread (the median round is compared with the peers); --cold-input"
          + " true takes the CSV out of the page cache before each round, as a file just copied in"
          + " or reclaimed since would be. Warm-ups: --warmup N, and up to 4 more while the last"
          + " one spent over 5% of its time in the JIT compilers.";

  static final String USAGE =
      "--tpch-sf, --threads, --memory, --peers, --warmup, --rounds, --probes, --check,"
          + " --cold-input, --out, --work, --seed";

  /** The experiment's parameters; {@link #parse} documents the defaults. */
  record Config(
      double sf,
      int threads,
      long memory,
      List<String> peers,
      int warmup,
      int rounds,
      int probes,
      boolean check,
      boolean coldInput,
      Path out,
      Path work,
      long seed) {
    Config {
      peers = List.copyOf(peers);
    }

    /**
     * The same run with only {@code ran} as peers: the summary leaves out peers that could not run.
     */
    Config withPeers(List<String> ran) {
      return new Config(
          sf, threads, memory, ran, warmup, rounds, probes, check, coldInput, out, work, seed);
    }

    static Config parse(String... args) {
      BenchArgs a = BenchArgs.parse(args);
      Config c =
          new Config(
              a.doubleValue("tpch-sf", IdxbuildBench.DEFAULT_SF, 0, 100),
              a.intValue("threads", Runtime.getRuntime().availableProcessors(), 1, 256),
              a.bytes("memory", 2L << 30, 1L << 20),
              IdxbuildBench.parsePeers(a),
              a.intValue("warmup", 1, 0, 20),
              a.intValue("rounds", 1, 1, 50),
              a.intValue("probes", 200, 0, 1_000_000),
              a.bool("check", true),
              a.bool("cold-input", false),
              a.path("out", Path.of("bench-results", NAME)),
              a.path("work", null),
              a.longValue("seed", 20_240_601L, Long.MIN_VALUE, Long.MAX_VALUE));
      a.checkAllRead(USAGE);
      return c;
    }
  }

  private LoadBench() {}

  public static void main(String[] args) {
    ExperimentArgs.runMain(NAME, HELP, args, a -> run(Config.parse(a), System.out));
  }

  static ResultSheet run(Config c, PrintStream out) throws Exception {
    Machine machine = Machine.describe();
    ResultSheet sheet = new ResultSheet(NAME, machine);
    long rows = Lineitem.rows(c.sf());
    sheet.parameter("tpchScaleFactor", c.sf());
    sheet.parameter("rows", rows);
    sheet.parameter("threads", c.threads());
    sheet.parameter("memoryBytes", c.memory());
    sheet.parameter("peers", c.peers());
    sheet.parameter("warmupLoads", c.warmup());
    sheet.parameter("rounds", c.rounds());
    sheet.parameter("coldInput", c.coldInput());
    sheet.parameter("seed", c.seed());
    out.printf(
        Locale.ROOT,
        "load: TPC-H lineitem sf %s (%,d rows) with the six indexes; %d threads, memory %s;"
            + " peers %s%n",
        c.sf(),
        rows,
        c.threads(),
        IdxbuildBench.size(c.memory()),
        c.peers());
    out.println("machine: " + machine.summary());

    List<String> ran = new ArrayList<>(c.peers());
    try (BenchDir dir =
        c.work() == null ? BenchDir.create(NAME) : BenchDir.create(c.work(), NAME)) {
      Path csv =
          (c.work() == null ? dir.path() : c.work()).resolve("lineitem-sf" + c.sf() + ".csv");
      SrtFile srt = IdxkitRebuilds.srtFile(dir.path());
      RebuildIndexBuild build =
          new RebuildIndexBuild(
              RebuildOptions.defaults(srt)
                  .withThreads(c.threads(), c.threads(), c.threads())
                  .withMemory(c.memory()),
              "--srt " + srt.file());
      sheet.setting(
          "idxkit",
          "Loader, --index-build deferred (the rebuilder: "
              + c.threads()
              + " threads, sort memory "
              + IdxbuildBench.size(c.memory())
              + "), "
              + c.threads()
              + " parse threads, checkpoints every 1,000,000 rows / 256 MiB (each publish"
              + " fsyncs: crash-safe and resumable throughout)");
      List<SqlPeer> peers = new ArrayList<>();
      try (Database gen = Lineitem.create(dir.resolve("idxkit-gen"))) {
        LoadReport g = Lineitem.generate(gen, c.sf(), IndexMode.DEFERRED, build);
        record(sheet, "idxkit", "generator", g, out, machine.sampleLoad());
        double export = Lineitem.exportCsv(gen, csv);
        long csvBytes = Files.size(csv);
        sheet.parameter("csvBytes", csvBytes);
        out.printf(
            Locale.ROOT,
            "  CSV %s: %,.1f MB (%s)%s%n",
            csv,
            csvBytes / 1e6,
            export == 0 ? "reused" : String.format(Locale.ROOT, "exported in %.2f s", export),
            c.coldInput() ? "; taken out of the page cache before each round (--cold-input)" : "");
        // --warmup loads, and more while the last one kept the compilers busy (JitWarmUp).
        boolean busy = c.warmup() > 0; // --warmup 0: none at all
        for (int w = 0; w < c.warmup() || (busy && w < c.warmup() + JitWarmUp.MORE); w++) {
          try (BenchDir scratch = BenchDir.create(dir.path(), "warmup");
              Database db = Lineitem.create(scratch.resolve("idxkit"))) {
            JitWarmUp jit = JitWarmUp.start();
            LoadReport r = Lineitem.loadCsv(db, csv, IndexMode.DEFERRED, build);
            busy = jit.busy();
            out.printf(
                Locale.ROOT,
                "  warm-up CSV load: %.2f s, %.2f s in the JIT compilers, not counted%n",
                r.timings().totalNanos() / 1e9,
                jit.compiledMillis() / 1e3);
          }
        }
        // Rounds back to back, each into a new database: all but the last are deleted at once;
        // the median round is the one compared with the peers.
        List<LoadReport> rounds = new ArrayList<>();
        for (int round = 1; round < c.rounds(); round++) {
          try (BenchDir scratch = BenchDir.create(dir.path(), "round");
              Database db = Lineitem.create(scratch.resolve("idxkit"))) {
            evictIf(c, csv);
            LoadRoundCost cost = LoadRoundCost.start();
            LoadReport r = Lineitem.loadCsv(db, csv, IndexMode.DEFERRED, build);
            rounds.add(r);
            printRound(out, round, r, cost.end(), machine.sampleLoad());
          }
        }
        try (Database fromCsv = Lineitem.create(dir.resolve("idxkit-csv"))) {
          evictIf(c, csv);
          LoadRoundCost cost = LoadRoundCost.start();
          LoadReport last = Lineitem.loadCsv(fromCsv, csv, IndexMode.DEFERRED, build);
          String lastCost = cost.end();
          rounds.add(last);
          double lastLoad = machine.sampleLoad();
          if (c.rounds() > 1) {
            printRound(out, c.rounds(), last, lastCost, lastLoad);
          }
          LoadReport r = median(rounds);
          record(sheet, "idxkit", "csv", r, out, lastLoad);
          spread(sheet, rounds, out);
          try {
            for (String name : c.peers()) {
              SqlPeer p = SqlPeer.of(name, dir.resolve(name), c.memory(), Math.min(8, c.threads()));
              SqlPeer.Timed t =
                  SqlPeer.loadAndIndexOrSkip(
                      p,
                      csv,
                      gen.catalog().table(Lineitem.TABLE).def(),
                      Lineitem.indexes(gen),
                      out,
                      sheet);
              if (t == null) {
                ran.remove(name);
                continue;
              }
              peers.add(p);
              sheet.setting(name, p.settings());
              recordPeer(sheet, p, t, csvBytes, out, machine.sampleLoad());
            }
            long compared =
                CrossCheck.run(
                    gen,
                    Map.of("idxkit (csv)", fromCsv),
                    peers,
                    Lineitem.sample(gen, c.probes(), c.seed()),
                    rows);
            out.printf(
                Locale.ROOT,
                "  cross-check: %,d index lookups agree across %d stores%n",
                compared,
                2 + peers.size());
            sheet.note("cross-check: " + compared + " index lookups agree in every store");
          } finally {
            CompareBench.closeAll(peers);
          }
          if (c.check()) {
            for (Database db : List.of(gen, fromCsv)) {
              DatabaseCheck.Report check =
                  db.check(new DatabaseCheck.Options(Set.of(Lineitem.TABLE), Set.of(), 10));
              if (!check.clean()) {
                throw new IllegalStateException(
                    "idxkit check of lineitem in " + db.dir() + ": " + check.problems());
              }
            }
            out.println("  idxkit check: both databases clean");
          }
        }
      }
    }
    machine.sampleLoad();
    Config done = c.withPeers(ran);
    summarize(done, sheet);
    sheet.finish(c.out(), panels(done, sheet), out);
    return sheet;
  }

  /** With {@code --cold-input}: the CSV's pages leave the page cache before a round. */
  private static void evictIf(Config c, Path csv) throws IOException {
    if (c.coldInput()) {
      Madvise.evict(csv, new long[0]);
    }
  }

  private static void printRound(
      PrintStream out, int round, LoadReport r, String cost, double load) {
    out.printf(
        Locale.ROOT,
        "  round %d: CSV load %.2f s, %,.0f rows/s (loading thread: cut %.2f s, waiting for"
            + " parsed chunks %.2f s, appending %.2f s, checkpoints and their fsyncs %.2f s),"
            + " CPU %.2f s loading (parse threads %.2f s,"
            + " loading thread %.2f s), %.2f s with the index build; %s (load average %.2f)%n",
        round,
        r.loadSeconds(),
        r.rowsPerSecond(),
        r.timings().cutNanos() / 1e9,
        r.timings().waitNanos() / 1e9,
        r.timings().appendNanos() / 1e9,
        r.timings().checkpointNanos() / 1e9,
        r.timings().loadProcessCpuNanos() / 1e9,
        r.timings().parseCpuNanos() / 1e9,
        r.timings().loadingThreadCpuNanos() / 1e9,
        r.timings().processCpuNanos() / 1e9,
        cost,
        load);
  }

  /** The round of median load rows/s (the lower middle one for an even count). */
  static LoadReport median(List<LoadReport> rounds) {
    List<LoadReport> sorted = new ArrayList<>(rounds);
    sorted.sort(java.util.Comparator.comparingDouble(LoadReport::rowsPerSecond));
    return sorted.get((sorted.size() - 1) / 2);
  }

  /** Min/median/max rows/s and CPU of the rounds, and the goal on their spread. */
  private static void spread(ResultSheet s, List<LoadReport> rounds, PrintStream out) {
    if (rounds.size() < 2) {
      return;
    }
    double[] rate = rounds.stream().mapToDouble(LoadReport::rowsPerSecond).sorted().toArray();
    double[] cpu =
        rounds.stream().mapToDouble(r -> r.timings().processCpuNanos() / 1e9).sorted().toArray();
    double[] loadCpu =
        rounds.stream()
            .mapToDouble(r -> r.timings().loadProcessCpuNanos() / 1e9)
            .sorted()
            .toArray();
    double min = rate[0];
    double med = rate[(rate.length - 1) / 2];
    double max = rate[rate.length - 1];
    s.add("idxkit", "csv", "rows/s min", min, "rows/s (load, slowest round)");
    s.add("idxkit", "csv", "rows/s max", max, "rows/s (load, fastest round)");
    String text =
        String.format(
            Locale.ROOT,
            "%d rounds: rows/s min %,.0f / median %,.0f / max %,.0f (max/min %.3f);"
                + " CPU s of the load min %.2f / median %.2f / max %.2f, with the index build"
                + " min %.2f / median %.2f / max %.2f",
            rate.length,
            min,
            med,
            max,
            max / min,
            loadCpu[0],
            loadCpu[(loadCpu.length - 1) / 2],
            loadCpu[loadCpu.length - 1],
            cpu[0],
            cpu[(cpu.length - 1) / 2],
            cpu[cpu.length - 1]);
    out.println("  " + text);
    s.note(text);
    s.goal(
        "back-to-back CSV loads within 15% of each other (max/min rows/s <= 1.15)",
        String.format(Locale.ROOT, "%d rounds, max/min = %.3f", rate.length, max / min),
        max / min <= 1.15);
  }

  private static void record(
      ResultSheet s, String store, String cfg, LoadReport r, PrintStream out, double load) {
    double loadS = r.loadSeconds();
    double indexS = r.timings().indexBuildNanos() / 1e9;
    double total = r.timings().totalNanos() / 1e9;
    s.add(store, cfg, "load", loadS, "s");
    s.add(store, cfg, "index", indexS, "s");
    s.add(store, cfg, "total", total, "s");
    s.add(store, cfg, "rows/s", r.rowsPerSecond(), "rows/s (load)");
    s.add(store, cfg, "rows/s total", r.runRows() / total, "rows/s (load + index)");
    if (r.positionsAreBytes()) {
      s.add(store, cfg, "MB/s", r.megabytesPerSecond(), "MB/s (load)");
    }
    s.add(store, cfg, "cpu", r.timings().processCpuNanos() / 1e9, "s (process)");
    out.printf(
        Locale.ROOT,
        "  %-6s %-9s load %6.2f s (%,10.0f rows/s%s), index %6.2f s, total %6.2f s"
            + " (%,10.0f rows/s), CPU %.2f s (load %.2f)%n",
        store,
        cfg,
        loadS,
        r.rowsPerSecond(),
        r.positionsAreBytes()
            ? String.format(Locale.ROOT, ", %.1f MB/s", r.megabytesPerSecond())
            : "",
        indexS,
        total,
        r.runRows() / total,
        r.timings().processCpuNanos() / 1e9,
        load);
  }

  private static void recordPeer(
      ResultSheet s, SqlPeer p, SqlPeer.Timed t, long csvBytes, PrintStream out, double load) {
    double loadS = t.loadNanos() / 1e9;
    double indexS = t.indexTotalNanos() / 1e9;
    double total = loadS + indexS;
    String cfg = "csv";
    s.add(p.name(), cfg, "load", loadS, "s");
    s.add(p.name(), cfg, "index", indexS, "s");
    s.add(p.name(), cfg, "total", total, "s");
    s.add(p.name(), cfg, "rows/s", t.rows() / loadS, "rows/s (load)");
    s.add(p.name(), cfg, "rows/s total", t.rows() / total, "rows/s (load + index)");
    s.add(p.name(), cfg, "MB/s", csvBytes / 1e6 / loadS, "MB/s (load)");
    s.add(p.name(), cfg, "cpu", (t.loadCpuNanos() + t.indexCpuNanos()) / 1e9, "s (process)");
    out.printf(
        Locale.ROOT,
        "  %-6s %-9s load %6.2f s (%,10.0f rows/s, %.1f MB/s), index %6.2f s, total %6.2f s"
            + " (%,10.0f rows/s), CPU %.2f s (load %.2f)%n",
        p.name(),
        cfg,
        loadS,
        t.rows() / loadS,
        csvBytes / 1e6 / loadS,
        indexS,
        total,
        t.rows() / total,
        (t.loadCpuNanos() + t.indexCpuNanos()) / 1e9,
        load);
  }

  static void summarize(Config c, ResultSheet s) {
    double mine = s.value("idxkit", "csv", "total");
    double mineLoad = s.value("idxkit", "csv", "rows/s");
    String fastest = null;
    double fastestTotal = Double.NaN;
    for (String p : c.peers()) {
      double t = s.value(p, "csv", "total");
      s.ratio(
          "CSV + six indexes: " + p + " / idxkit",
          t / mine,
          "idxkit loads and indexes this many times faster");
      if (!PostgresPeer.NAME.equals(p)) // the server's CPU is not this process's
      s.ratio(
            "CSV + six indexes CPU: " + p + " / idxkit",
            s.value(p, "csv", "cpu") / s.value("idxkit", "csv", "cpu"),
            "the peer's load and index builds cost this many times idxkit's process CPU");
      s.ratio(
          "CSV load alone rows/s: idxkit / " + p,
          mineLoad / s.value(p, "csv", "rows/s"),
          "idxkit appends rows this many times faster (index build excluded on both sides)");
      if (fastest == null || t < fastestTotal) {
        fastest = p;
        fastestTotal = t;
      }
    }
    if (fastest != null) {
      s.goal(
          ">= 3x the fastest peer (CSV, load + six indexes)",
          String.format(
              Locale.ROOT,
              "%s %.2f s / idxkit %.2f s = %.2fx",
              fastest,
              fastestTotal,
              mine,
              fastestTotal / mine),
          fastestTotal / mine >= 3);
    }
    if (c.peers().contains("duckdb")) {
      double rate = s.value("duckdb", "csv", "rows/s");
      s.goal(
          ">= 2x DuckDB's COPY rows/s (CSV load alone)",
          String.format(
              Locale.ROOT,
              "idxkit %,.0f / DuckDB %,.0f rows/s = %.2fx",
              mineLoad,
              rate,
              mineLoad / rate),
          mineLoad / rate >= 2);
      double total = s.value("duckdb", "csv", "total");
      s.goal(
          ">= 1.5x DuckDB's COPY + six indexes",
          String.format(
              Locale.ROOT, "DuckDB %.2f s / idxkit %.2f s = %.2fx", total, mine, total / mine),
          total / mine >= 1.5);
    }
    double whole = s.value("idxkit", "csv", "rows/s total");
    s.goal(
        ">= 1,000,000 rows/s from CSV on " + c.threads() + " threads",
        String.format(
            Locale.ROOT,
            "%,.0f rows/s loading (index build excluded), %,.0f rows/s with the six indexes",
            mineLoad,
            whole),
        mineLoad >= 1_000_000);
  }

  static List<BarCharts.Panel> panels(Config c, ResultSheet s) {
    List<String> stores = new ArrayList<>();
    stores.add("idxkit generator");
    stores.add("idxkit csv");
    stores.addAll(c.peers());
    Map<String, List<Double>> parts = new LinkedHashMap<>();
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    for (String part : List.of("load", "index")) {
      List<Double> v = new ArrayList<>();
      for (String st : stores) {
        v.add(s.value(storeOf(st), configOf(st), part));
      }
      parts.put(part, v);
    }
    for (String st : stores) {
      rates.put(st, List.of(s.value(storeOf(st), configOf(st), "rows/s") / 1e3));
    }
    return List.of(
        new BarCharts.Panel(
            "lineitem sf " + c.sf() + ": load + six indexes (lower is better)",
            "seconds",
            stores,
            parts,
            true),
        new BarCharts.Panel("rows/s of the load alone", "k rows/s", List.of("load"), rates));
  }

  private static String storeOf(String label) {
    return label.startsWith("idxkit") ? "idxkit" : label;
  }

  private static String configOf(String label) {
    return label.startsWith("idxkit ") ? label.substring(7) : "csv";
  }
}
