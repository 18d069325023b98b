package dev.idxkit.jmh.peers;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseCheck;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.RebuildReport;
import dev.idxkit.idxbuild.sort.EntryBuffer;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.jmh.BenchDir;
import dev.idxkit.jmh.ExperimentArgs;
import dev.idxkit.loader.IndexMode;
import dev.idxkit.loader.LoadReport;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code idxbuild} experiment (issue 4): rebuilding the six lineitem indexes of TPC-H at scale
 * factor {@code sf} with idxkit's {@link IndexRebuild} at 1 and 2 threads and with 2 GiB (in
 * memory) and 64 MiB (external sort, runs in the {@code .srt} directory) of sort memory, the
 * primary key alone at 1 and 2 threads, and in the same JVM run SQLite and H2 building the same six
 * indexes with {@code CREATE INDEX} on a table holding the same rows.
 *
 * <p>Steps: (1) lineitem from the generator into a new idxkit database with its indexes inactive
 * (the loader's {@code --index-build none}); (2) the table exported once as CSV ({@link Lineitem});
 * (3) each idxkit configuration rebuilds the six indexes ({@code --repeat} rounds over all
 * configurations after {@code --warmup} unmeasured rebuilds of each and up to four more of a
 * configuration whose last one kept the JIT compilers busy ({@link JitWarmUp}), the median kept),
 * then the primary key alone; every run's report must show one entry per row in every index; (4)
 * each SQL peer loads the CSV into a keyless table, is reopened, and builds the six indexes ({@link
 * SqlPeer#loadAndIndex}), with the cache budget {@code --peer-memory} and {@code --peer-threads}
 * sorter threads; (5) {@link CrossCheck}: sampled rows looked up through every index of every store
 * must agree, and (with {@code --check}) idxkit's {@code check} of lineitem must be clean; with
 * {@code --pairs N}, between the two, N pairs of PostgreSQL's six builds and the command line in
 * turn ({@link IdxbuildPairs}); (6) ratios, goals, CSV/JSON/PNG.
 *
 * <p>Memory: the sort budget lives on the Java heap (run with {@code -Xmx} at least the largest
 * {@code --memory} plus 1 GiB: {@code -Xmx4g} for the defaults); the peers' caches are native
 * (SQLite) or heap (H2). Disk: the database (sf 1: ~1 GB), the CSV (~0.75 GB), each peer's copy (~1
 * GB each) and the runs of the external sort, all under one {@link BenchDir} deleted at the end
 * (the CSV is kept in {@code --work} when that is given, and reused).
 *
 * <p>Run: {@code java -Xmx4g $(cat cli/target/jvm.args) -cp jmh/target/benchmarks.jar
 * dev.idxkit.jmh.peers.IdxbuildBench [--tpch-sf 0.1] [--threads 1,2] [--memory 2g,64m] [--peers
 * postgres,duckdb,sqlite,h2] [--peer-memory 2g] [--peer-threads 2] [--tb 64] [--tm 32] [--pk-alone
 * true] [--warmup 1] [--repeat 1] [--cli 3] [--cli-cds on|off|both] [--pairs 0] [--probes 200]
 * [--check true] [--out bench-results/idxbuild] [--work DIR] [--seed N]}.
 */
public final class IdxbuildBench {
  public static final String NAME = "idxbuild";
  static final double DEFAULT_SF = 0.1;
  static final List<String> PEERS = List.of("postgres", "duckdb", "sqlite", "h2");

  /** What {@code --help} prints. */
  static final String HELP =
      "usage: idxkit bench idxbuild [--tpch-sf 0.1] [--threads 1,2] [--memory 2g,64m]"
          + " [--peers postgres,duckdb,sqlite,h2|none] [--peer-memory 2g] [--peer-threads 2] [--tb 64] [--tm 32]"
          + " [--pk-alone true] [--warmup 1] [--repeat 1] [--cli 3] [--cli-cds on|off|both]"
          + " [--pairs 0] [--probes 200] [--check true]"
          + " [--out bench-results/idxbuild] [--work DIR] [--seed N] [--verbose]\n"
          + "Rebuilds the six TPC-H lineitem indexes with idxkit and, in the same run, with"
          + " CREATE INDEX in SQLite and H2; CSV, JSON and PNG. --cli N also times N runs of"
          + " 'idxkit idxbuild' in a new JVM each (JVM start included: the figure compared with"
          + " the peers); --cli-cds: with the launcher's class-data archive when it is current"
          + " (on, the default), without (off), or both in turn. --pairs N: then N more"
          + " PostgreSQL builds of the six indexes and 'idxkit idxbuild' runs, in turn, the"
          + " >= 3x PostgreSQL goal judged on the median pair. Warm-ups: --warmup N of each"
          + " configuration, and up to 4 more of one whose last spent over 5% of its time in the"
          + " JIT compilers. Wants --heap 4g at --tpch-sf 1.";

  static final String USAGE =
      "--tpch-sf, --threads, --memory, --peers, --peer-memory, --peer-threads, --tb, --tm,"
          + " --pk-alone,"
          + " --warmup, --repeat, --cli, --cli-cds, --pairs, --probes, --check, --out, --work,"
          + " --seed";

  /** The experiment's parameters; {@link #parse} documents the defaults. */
  record Config(
      double sf,
      List<Integer> threads,
      List<Long> memories,
      List<String> peers,
      long peerMemory,
      int peerThreads,
      int sortBlockKb,
      int mergeFanIn,
      boolean pkAlone,
      int warmup,
      int repeat,
      int cliRuns,
      String cliCds,
      int pairs,
      int probes,
      boolean check,
      Path out,
      Path work,
      long seed) {
    Config {
      threads = List.copyOf(new LinkedHashSet<>(threads));
      memories = List.copyOf(new LinkedHashSet<>(memories));
      peers = List.copyOf(peers);
    }

    /** The most threads asked for: what the peers, the command line and the summary run with. */
    int maxThreads() {
      return threads.stream().max(Integer::compare).orElseThrow();
    }

    /** The most sort memory asked for, in bytes: as {@link #maxThreads}. */
    long maxMemory() {
      return memories.stream().max(Long::compare).orElseThrow();
    }

    /**
     * The same run with only {@code ran} as peers: the summary leaves out peers that could not run.
     */
    Config withPeers(List<String> ran) {
      return new Config(
          sf,
          threads,
          memories,
          ran,
          peerMemory,
          peerThreads,
          sortBlockKb,
          mergeFanIn,
          pkAlone,
          warmup,
          repeat,
          cliRuns,
          cliCds,
          pairs,
          probes,
          check,
          out,
          work,
          seed);
    }

    static Config parse(String... args) {
      BenchArgs a = BenchArgs.parse(args);
      List<Integer> threads = a.ints("threads", List.of(1, 2), 1, 256);
      List<Long> memories = a.sizes("memory", List.of(2L << 30, 64L << 20), 1L << 20);
      Config c =
          new Config(
              a.doubleValue("tpch-sf", DEFAULT_SF, 0, 100),
              threads,
              memories,
              parsePeers(a),
              a.bytes("peer-memory", memories.stream().max(Long::compare).orElseThrow(), 1L << 20),
              a.intValue(
                  "peer-threads", threads.stream().max(Integer::compare).orElseThrow(), 0, 8),
              a.intValue("tb", RebuildOptions.DEFAULT_BLOCK_KB, 8, 64),
              a.intValue("tm", RebuildOptions.DEFAULT_FAN_IN, 2, 1024),
              a.bool("pk-alone", true),
              a.intValue("warmup", 1, 0, 20),
              a.intValue("repeat", 1, 1, 20),
              a.intValue("cli", 3, 0, 20),
              IdxbuildBench.cliCds(a),
              a.intValue("pairs", 0, 0, 20),
              a.intValue("probes", 200, 0, 1_000_000),
              a.bool("check", true),
              a.path("out", Path.of("bench-results", NAME)),
              a.path("work", null),
              a.longValue("seed", 20_240_601L, Long.MIN_VALUE, Long.MAX_VALUE));
      a.checkAllRead(USAGE);
      return c;
    }
  }

  /** {@code --cli-cds}: on (the default), off or both. */
  static String cliCds(BenchArgs a) {
    String v = a.string("cli-cds", "on").strip().toLowerCase(Locale.ROOT);
    if (!List.of("on", "off", "both").contains(v)) {
      throw new InvalidInputException("--cli-cds : '" + v + "' (expected: one of on, off, both)");
    }
    return v;
  }

  /** {@code --peers}: a list of {@link #PEERS} (all by default), or {@code none}. */
  static List<String> parsePeers(BenchArgs a) {
    String peers = a.string("peers", String.join(",", PEERS));
    return peers.equalsIgnoreCase("none")
        ? List.of()
        : a.list("peers", PEERS, new LinkedHashSet<>(PEERS));
  }

  /** One idxkit configuration: which indexes, how many threads, how much sort memory. */
  record Run(String label, boolean pkOnly, int threads, long memory) {}

  private IdxbuildBench() {}

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
    sheet.parameter("memoryBytes", c.memories());
    sheet.parameter("peers", c.peers());
    sheet.parameter("peerMemoryBytes", c.peerMemory());
    sheet.parameter("peerThreads", c.peerThreads());
    sheet.parameter("sortBlockKb", c.sortBlockKb());
    sheet.parameter("mergeFanIn", c.mergeFanIn());
    sheet.parameter("warmupRebuilds", c.warmup());
    sheet.parameter("repeat", c.repeat());
    sheet.parameter("seed", c.seed());
    out.printf(
        Locale.ROOT,
        "idxbuild: TPC-H lineitem sf %s (%,d rows), six indexes; idxkit threads %s, memory %s;"
            + " peers %s%n",
        c.sf(),
        rows,
        c.threads(),
        c.memories().stream().map(IdxbuildBench::size).toList(),
        c.peers());
    out.println("machine: " + machine.summary());

    List<String> ran = new ArrayList<>(c.peers());
    try (BenchDir dir =
        c.work() == null ? BenchDir.create(NAME) : BenchDir.create(c.work(), NAME)) {
      Path csv =
          (c.work() == null ? dir.path() : c.work()).resolve("lineitem-sf" + c.sf() + ".csv");
      SrtFile srt = IdxkitRebuilds.srtFile(dir.path());
      List<SqlPeer> peers = new ArrayList<>();
      Path dbDir = dir.resolve("idxkit");
      int tMax = c.maxThreads();
      long mMax = c.maxMemory();
      try (Database db = Lineitem.create(dbDir)) {
        long t0 = System.nanoTime();
        LoadReport load = Lineitem.generate(db, c.sf(), IndexMode.NONE, null);
        out.printf(
            Locale.ROOT,
            "  generated %,d rows into idxkit in %.2f s (indexes inactive)%n",
            load.runRows(),
            (System.nanoTime() - t0) / 1e9);
        double export = Lineitem.exportCsv(db, csv);
        out.printf(
            Locale.ROOT,
            "  CSV %s: %,.1f MB (%s)%n",
            csv,
            Files.size(csv) / 1e6,
            export == 0 ? "reused" : String.format(Locale.ROOT, "exported in %.2f s", export));
        sheet.setting(
            "idxkit",
            "IndexRebuild of the selected lineitem indexes, one bulk session, one publish (fsync);"
                + " scan/merge/range threads = --threads, sort memory = --memory on the heap,"
                + " runs in "
                + srt.entries().get(0).dir()
                + " (from a .srt file), -TB "
                + c.sortBlockKb()
                + " -TM "
                + c.mergeFanIn()
                + ", -SG default");

        List<Run> runs = runs(c);
        // The floor line for the six indexes at the most threads and memory, after every round,
        // and warmed up with them (its sort is Java code too).
        Run best = new Run(label(false, tMax, mMax), false, tMax, mMax);
        IdxbuildFloor.Rounds floor =
            new IdxbuildFloor.Rounds(
                db.dir().resolve("data.area"),
                db.stats().pageSize(),
                dir.path(),
                tMax,
                best.label());
        // --warmup of each configuration, then more of those whose last one kept the compilers
        // busy (JitWarmUp).
        Set<Run> busy = new HashSet<>();
        for (Run r : warmUps(runs, c.warmup())) {
          RebuildReport rep = warmUp(db, r, srt, rows, c, out, busy);
          if (r.equals(best)) {
            floor.warmUp(rep, out);
          }
        }
        for (int more = 0; more < JitWarmUp.MORE && !busy.isEmpty(); more++) {
          for (Run r : runs) {
            if (busy.contains(r)) {
              warmUp(db, r, srt, rows, c, out, busy);
            }
          }
        }
        Map<Run, List<RebuildReport>> reports = new LinkedHashMap<>();
        for (int round = 0; round < c.repeat(); round++) {
          for (Run r : runs) {
            JitWarmUp jit = JitWarmUp.start();
            RebuildReport rep = IdxkitRebuilds.rebuild(db, r, srt, rows, c);
            reports.computeIfAbsent(r, k -> new ArrayList<>()).add(rep);
            IdxkitRebuilds.print(out, r, rep, machine.sampleLoad(), jit.compiledMillis());
          }
          floor.measure(reports.get(best).get(round), out);
        }
        for (Map.Entry<Run, List<RebuildReport>> e : reports.entrySet()) {
          IdxkitRebuilds.record(sheet, e.getKey(), median(e.getValue()));
        }
        floor.record(sheet, out);
      }
      // The command line in a new JVM per run, with the database closed (it takes the lock).
      cli(c, sheet, out, machine, dbDir, srt.file(), rows, tMax, mMax, dir.path());
      try {
        List<IndexInfo> indexes;
        try (Database db = Database.open(dbDir)) {
          indexes = Lineitem.indexes(db);
          for (String name : c.peers()) {
            SqlPeer p = SqlPeer.of(name, dir.resolve(name), c.peerMemory(), c.peerThreads());
            SqlPeer.Timed t =
                SqlPeer.loadAndIndexOrSkip(
                    p, csv, db.catalog().table(Lineitem.TABLE).def(), indexes, out, sheet);
            if (t == null) {
              ran.remove(name);
              continue;
            }
            peers.add(p);
            sheet.setting(name, p.settings());
            recordPeer(sheet, p, t, out, machine.sampleLoad());
          }
          long t1 = System.nanoTime();
          long compared =
              CrossCheck.run(db, Map.of(), peers, Lineitem.sample(db, c.probes(), c.seed()), rows);
          out.printf(
              Locale.ROOT,
              "  cross-check: %,d index lookups agree across %d stores (%.1f s)%n",
              compared,
              1 + peers.size(),
              (System.nanoTime() - t1) / 1e9);
          sheet.note("cross-check: " + compared + " index lookups agree in every store");
        }
        // With the database closed again: the command line takes its lock.
        IdxbuildPairs.runIfAsked(
            c, sheet, out, machine, peers, indexes, dbDir, srt.file(), rows, dir.path());
      } finally {
        CompareBench.closeAll(peers);
      }
      if (c.check()) {
        try (Database db = Database.open(dbDir)) {
          long t2 = System.nanoTime();
          DatabaseCheck.Report check =
              db.check(new DatabaseCheck.Options(Set.of(Lineitem.TABLE), Set.of(), 10));
          if (!check.clean()) {
            throw new IllegalStateException("idxkit check of lineitem: " + check.problems());
          }
          out.printf(
              Locale.ROOT, "  idxkit check: clean (%.1f s)%n", (System.nanoTime() - t2) / 1e9);
        }
      }
    }
    machine.sampleLoad();
    Config done = c.withPeers(ran);
    IdxbuildSummary.summarize(done, sheet);
    sheet.finish(c.out(), IdxbuildSummary.panels(done, sheet), out);
    return sheet;
  }

  /**
   * {@code --cli} runs of {@code idxkit idxbuild} of the six indexes at the largest thread count
   * and memory, each in a new JVM ({@link IdxbuildCli}), recorded as configuration {@code "cli " +
   * label}: median, min and max wall seconds. With the launcher's class-data archive when it is
   * current (the runs say which); {@code --cli-cds both} adds as many runs without it, in turn,
   * recorded as {@code "cli no-cds " + label}. Skipped, with a note, without a built command line.
   */
  private static void cli(
      Config c,
      ResultSheet sheet,
      PrintStream out,
      Machine machine,
      Path db,
      Path srt,
      long rows,
      int threads,
      long memory,
      Path scratch)
      throws Exception {
    if (c.cliRuns() == 0) {
      return;
    }
    Path home = IdxbuildCli.home();
    if (home == null) {
      out.println(
          "  idxkit idxbuild in a new JVM: skipped (no cli/target/idxkit.jar beside the benchmarks"
              + " jar; build it with ./mvnw -B -pl cli -am package -DskipTests)");
      sheet.note("idxkit idxbuild in a new JVM: skipped, no built command line");
      return;
    }
    IdxbuildCli.Archive archive = IdxbuildCli.Archive.forCds(c.cliCds(), home);
    List<IdxbuildCli.Archive> archives =
        c.cliCds().equals("both")
            ? List.of(archive, IdxbuildCli.Archive.none("--cli-cds both, the runs without"))
            : List.of(archive);
    out.println("  idxkit idxbuild in a new JVM: class-data archive " + archive.note());
    List<IdxbuildCli.Result> results =
        IdxbuildCli.run(
            home,
            archives,
            db,
            srt,
            memory,
            threads,
            c.cliRuns(),
            rows,
            Lineitem.TABLE_INDEXES,
            scratch,
            machine,
            out);
    for (int i = 0; i < archives.size(); i++) {
      IdxbuildCli.Result r = results.get(i);
      // The first is the figure the peers are compared with; "cli no-cds" is --cli-cds both's
      // other.
      String cfg = (i == 0 ? "cli " : "cli no-cds ") + label(false, threads, memory);
      String used = archives.get(i).label();
      sheet.add(
          "idxkit",
          cfg,
          "total",
          r.median(),
          "s (new JVM, JVM start included, median; class-data archive: " + used + ")");
      sheet.add("idxkit", cfg, "total min", r.min(), "s");
      sheet.add("idxkit", cfg, "total max", r.max(), "s");
      String text =
          String.format(
              Locale.ROOT,
              "idxkit idxbuild in a new JVM (%d threads, %s, class-data archive %s), %d runs: min"
                  + " %.2f / median %.2f / max %.2f s, JVM start included",
              threads,
              size(memory),
              used,
              r.seconds().length,
              r.min(),
              r.median(),
              r.max());
      out.println("  " + text);
      sheet.note(text);
    }
    sheet.note("idxkit idxbuild in a new JVM: class-data archive " + archive.note());
    sheet.setting(
        "idxkit (new JVM)",
        "java $(cat cli/target/jvm.args) "
            + IdxbuildCli.LAUNCHER_HEAP
            + " "
            + (archive.file() == null
                ? ""
                // The flags this JVM's runs passed, with the archive's path as the README writes
                // it.
                : String.join(" ", new IdxbuildCli.Archive(Path.of(archive.label()), "").flags())
                    + " (as ./idxkit runs it) ")
            + "-jar cli/target/idxkit.jar idxbuild DB --table lineitem --memory "
            + size(memory)
            + " --threads "
            + threads
            + " --srt FILE --progress none --json FILE; wall from process start to exit; the"
            + " report's entry counts checked; class-data archive: "
            + archive.note());
  }

  /**
   * One unmeasured rebuild of {@code r}, printed; {@code r} is left in {@code busy} if the JIT
   * compilers were busy for much of it ({@link JitWarmUp}), taken out if not.
   */
  private static RebuildReport warmUp(
      Database db, Run r, SrtFile srt, long rows, Config c, PrintStream out, Set<Run> busy)
      throws Exception {
    JitWarmUp jit = JitWarmUp.start();
    RebuildReport rep = IdxkitRebuilds.rebuild(db, r, srt, rows, c);
    if (jit.busy()) {
      busy.add(r);
    } else {
      busy.remove(r);
    }
    out.printf(
        Locale.ROOT,
        "  warm-up rebuild (%s): %.2f s, %.2f s in the JIT compilers, not counted%n",
        r.label(),
        rep.totalNanos() / 1e9,
        jit.compiledMillis() / 1e3);
    return rep;
  }

  /**
   * The unmeasured rebuilds before the rounds: {@code warmup} of every configuration. Why each and
   * not only the first: the first rebuild of a JVM runs the sort, merge and build code interpreted,
   * and the figures are about the compiled code; but the configurations do not all run the same
   * code (a big index on several threads is merged in key ranges on their own threads, an external
   * sort reads runs back), so a warm-up of the first configuration alone left another's first
   * measured round cold, and a median of three rounds with one cold is the slower warm one.
   */
  static List<Run> warmUps(List<Run> runs, int warmup) {
    List<Run> w = new ArrayList<>();
    for (int i = 0; i < warmup; i++) {
      w.addAll(runs);
    }
    return w;
  }

  static List<Run> runs(Config c) {
    List<Run> runs = new ArrayList<>();
    for (long m : c.memories()) {
      for (int t : c.threads()) {
        runs.add(new Run(label(false, t, m), false, t, m));
      }
    }
    if (c.pkAlone()) {
      long m = pkMemory(c.maxMemory());
      for (int t : c.threads()) {
        runs.add(new Run(label(true, t, m), true, t, m));
      }
    }
    return runs;
  }

  /**
   * The sort memory of the primary-key-alone runs: the largest {@code --memory}, but below 2 GiB.
   * Why it was clipped: with one index the plan once gave its one group's one scan buffer the whole
   * budget, and a sort buffer is one Java array, so {@code EntryBuffer} refused 2 GiB and more.
   * Scan buffers are now at most {@code RebuildPlan.MAX_BUFFER_BYTES} (16 MiB) and {@code idxkit
   * idxbuild --index lineitem_pk --memory 3g --threads 1} rebuilds (checked 2026-11-28); the clip
   * stays so that the runs' labels ({@code pk t1 2047m}) and memory match every earlier pass's.
   */
  static long pkMemory(long memory) {
    return Math.min(memory, (EntryBuffer.MAX_CAPACITY >> 20) << 20);
  }

  static String label(boolean pkOnly, int threads, long memory) {
    return (pkOnly ? "pk" : "six") + " t" + threads + " " + size(memory);
  }

  static String size(long bytes) {
    if (bytes % (1L << 30) == 0) {
      return (bytes >> 30) + "g";
    }
    if (bytes % (1L << 20) == 0) {
      return (bytes >> 20) + "m";
    }
    return (bytes >> 10) + "k";
  }

  private static RebuildReport median(List<RebuildReport> reps) {
    List<RebuildReport> sorted = new ArrayList<>(reps);
    sorted.sort((a, b) -> Long.compare(a.totalNanos(), b.totalNanos()));
    return sorted.get(sorted.size() / 2);
  }

  private static void recordPeer(
      ResultSheet s, SqlPeer p, SqlPeer.Timed t, PrintStream out, double load) {
    String cfg = "six " + size(p.cacheBytes);
    s.add(p.name(), cfg, "load", t.loadNanos() / 1e9, "s");
    for (Map.Entry<String, Long> e : t.indexNanos().entrySet()) {
      s.add(p.name(), cfg, "index " + e.getKey(), e.getValue() / 1e9, "s");
    }
    s.add(p.name(), cfg, "total", t.indexTotalNanos() / 1e9, "s");
    s.add(
        p.name(),
        cfg,
        "keys/s",
        t.rows() * t.indexNanos().size() / (t.indexTotalNanos() / 1e9),
        "keys/s");
    s.add(p.name(), cfg, "cpu", t.indexCpuNanos() / 1e9, "s (process)");
    StringBuilder per = new StringBuilder();
    t.indexNanos()
        .forEach(
            (k, v) ->
                per.append(per.length() == 0 ? "" : ", ")
                    .append(String.format(Locale.ROOT, "%s %.2f", k, v / 1e9)));
    out.printf(
        Locale.ROOT,
        "  %-6s loaded in %6.2f s; six CREATE INDEX in %6.2f s (%,.0f keys/s, CPU %.2f s;"
            + " %s) (load %.2f)%n",
        p.name(),
        t.loadNanos() / 1e9,
        t.indexTotalNanos() / 1e9,
        s.value(p.name(), cfg, "keys/s"),
        t.indexCpuNanos() / 1e9,
        per,
        load);
  }
}
