package dev.idxkit.jmh.experiments;

import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.internal.Internals;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.jmh.BenchDir;
import dev.idxkit.jmh.ExperimentArgs;
import dev.idxkit.jmh.experiments.AccountingPass.Outcome;
import dev.idxkit.jmh.experiments.PassState.Measurement;
import dev.idxkit.jmh.report.Chart;
import dev.idxkit.jmh.report.ResultWriter;
import dev.idxkit.jmh.report.Results;
import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadOptions;
import dev.idxkit.loader.LoadOutcome;
import dev.idxkit.loader.LoadReport;
import dev.idxkit.loader.Loader;
import dev.idxkit.loader.RebuildIndexBuild;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * The {@code accounting} experiment: a nightly usage report over an archive's catalogue. Builds
 * {@code objects} and {@code bitfiles} with the bulk loader ({@link AccountingData} describes the
 * rows), then runs the {@link AccountingPass} once per reader count (default 1, 2 and 4) and
 * reports lookups per second in the clustered and the random phase.
 *
 * <p>Steps:
 *
 * <ol>
 *   <li>The work directory ({@code --work}, default {@code idxkit-bench-accounting} under the temp
 *       directory) holds the database {@code db/}, the rebuilder's sort space {@code sort/} and a
 *       marker file. A database there that holds this data set (same sizes and seed, recorded as
 *       the resume point {@value #DATA_KEY}) is reused; otherwise the directory is emptied (only if
 *       it has the marker) and both tables are loaded: {@code objects} then {@code bitfiles},
 *       generated in parallel chunks by the loader's parse threads, appended as heap pages, primary
 *       keys built by the rebuilder at the end (deferred build).
 *   <li>The pass, checkpointed every {@code --checkpoint} lookups; Ctrl-C (SIGINT/SIGTERM) cancels
 *       it at the next block with a checkpoint, {@code kill -9} leaves the last one; {@code
 *       --resume} continues either.
 *   <li>{@code accounting.csv/json} (one row per reader count and phase), {@code
 *       accounting-load.csv/json}, {@code accounting-tallies.csv/json} (the report itself) and
 *       {@code accounting.png}. The work directory is deleted after a completed run unless {@code
 *       --keep}; an unfinished one is kept for {@code --resume}.
 * </ol>
 *
 * <p>Sizes: the {@code objects} table has 5,200,000 rows by default, the accounting program's size
 * (about 3 minutes for the load and the three passes on 2 cores); {@code --objects 1000000} for a
 * quick look. Disk: about 300 bytes per object for both tables and their indexes. Memory: the
 * loader's chunks and the rebuilder's sort buffers during the load; the pass needs a few tallies.
 */
public final class AccountingBench {
  static final String DATA_KEY = "bench:accounting-data";
  static final String MARKER = ".idxkit-bench-accounting";

  private AccountingBench() {}

  public static void main(String[] args) {
    command().run(args, a -> run(Options.of(a), AccountingPass.Listener.NONE));
  }

  /** The command line: options, defaults and help. */
  static ExperimentArgs command() {
    return ExperimentArgs.command(
            "accounting",
            "Load objects and bitfiles (a time-based UUID key) with the bulk loader, then scan\n"
                + "objects, look up each file's bitfile, and tally bytes by owner, group and account\n"
                + "with 1, 2 and 4 readers; lookups/s in the clustered and the random phase.\n"
                + "Checkpointed: after Ctrl-C or kill -9, --resume continues the pass.")
        .option("--objects", "N", "5200000", "rows of objects")
        .option("--clustered", "PERCENT", "30", "share of objects whose bitfiles came in a burst")
        .option("--readers", "LIST", "1,2,4", "reader counts to run the pass with")
        .option("--checkpoint", "LOOKUPS", "100000", "lookups between checkpoints")
        .option("--warmup", "MS", "2000", "per phase, reading unrecorded before measuring")
        .option("--seed", "N", "20261121", "seed of the data set (same seed: same rows)")
        .option("--work", "DIR", defaultWork().toString(), "database and sort space")
        .option(
            "--threads",
            "N",
            Integer.toString(Runtime.getRuntime().availableProcessors()),
            "loader parse threads")
        .flag("--cold", "drop the database's files from the page cache before each phase")
        .option(
            "--advice",
            "on|off",
            "on",
            "off: refuse the store's madvise, the read path as it was before it (with --cold)")
        .flag("--resume", "continue the unfinished pass in --work")
        .flag("--keep", "keep --work after a completed run");
  }

  static Path defaultWork() {
    return Path.of(System.getProperty("java.io.tmpdir"), "idxkit-bench-accounting");
  }

  /** What a run ended with, for tests. */
  record Report(Outcome outcome, List<Measurement> measurements, Tally tally, Path work) {}

  /** The parsed command line. */
  record Options(
      AccountingData data,
      int[] readers,
      long checkpoint,
      long warmup,
      int threads,
      boolean resume,
      boolean keep,
      boolean cold,
      boolean advice,
      Path work,
      Path out) {
    static Options of(ExperimentArgs a) {
      long objects = a.count("--objects", 1, 1_000_000_000);
      int percent = a.integer("--clustered", 0, 100);
      long seed = a.count("--seed", Long.MIN_VALUE, Long.MAX_VALUE);
      return new Options(
          new AccountingData(objects, objects * percent / 100, seed),
          a.integers("--readers", 1, 64).stream().mapToInt(Integer::intValue).toArray(),
          a.count("--checkpoint", 1, Long.MAX_VALUE),
          a.count("--warmup", 0, 3_600_000),
          a.integer("--threads", 1, LoadOptions.MAX_PARSE_THREADS),
          a.flag("--resume"),
          a.flag("--keep"),
          a.flag("--cold"),
          parseAdvice(a.get("--advice")),
          a.path("--work").toAbsolutePath(),
          a.out());
    }
  }

  private static boolean parseAdvice(String v) {
    return switch (v) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new InvalidInputException("--advice : " + v + " (expected: on or off)");
    };
  }

  /**
   * The database options: real files, with the store's madvise refused when {@code --advice off}.
   */
  static Database.DatabaseOptions databaseOptions(Options o) {
    Database.DatabaseOptions d = Database.DatabaseOptions.defaults();
    if (o.advice()) {
      return d;
    }
    return d.withFileIo(
        new FileIo() {
          @Override
          public java.nio.channels.FileChannel open(
              Path path, java.util.Set<? extends java.nio.file.OpenOption> options)
              throws IOException {
            return java.nio.channels.FileChannel.open(path, options);
          }

          @Override
          public void advise(long address, long length, Advice advice) throws IOException {
            throw new IOException("refused by --advice off");
          }
        });
  }

  /**
   * Takes every area file of {@code db} out of the page cache (mappings included) and prints what
   * stayed resident: the {@code --cold} step before each phase.
   */
  static void evict(Database db) {
    Store st = Internals.store(db);
    long resident = 0;
    try {
      for (int a = 0; a < st.meta().areaSlots(); a++) {
        if (st.meta().areaName(a) != null) {
          st.areaFile(a).evictFromPageCache();
          resident += st.areaFile(a).residentBytes();
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "--cold: cannot evict the database's files: " + e.getMessage(), e);
    }
    System.out.printf(
        Locale.ROOT, "accounting: page cache dropped; %,d bytes of the areas resident%n", resident);
  }

  static Report run(Options o, AccountingPass.Listener listener) throws Exception {
    AccountingData data = o.data();
    ResultWriter out = ResultWriter.open("accounting", o.out());
    System.out.println("accounting: " + out.machineAtStart().describe());
    System.out.println(
        "accounting: " + data.identity() + ", readers " + Arrays.toString(o.readers()));
    Results load =
        Results.of(
            "accounting-load", "table", "rows", "seconds", "rows_per_s", "index_build_seconds");
    AccountingPass.Result result;
    ExecutorService pool =
        Executors.newFixedThreadPool(max(o.readers()), named("accounting-reader-"));
    // Ctrl-C or SIGTERM: cancel at the next block, let this thread write the checkpoint and the
    // results, then let the JVM exit (it waits for this hook). The hook waits on a latch, not on
    // this thread's end: this thread's System.exit would block behind the running hook.
    CountDownLatch finished = new CountDownLatch(1);
    AtomicReference<AccountingPass> running = new AtomicReference<>();
    Thread hook =
        new Thread(
            () -> {
              AccountingPass p = running.get();
              if (p != null) {
                p.cancel();
              }
              try {
                finished.await(2, TimeUnit.MINUTES);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "accounting-cancel");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      try (Database db =
          openOrBuild(o.work(), data, o.resume(), o.threads(), load, databaseOptions(o))) {
        System.out.println(
            "accounting: read-ahead "
                + db.stats().readAhead().describe()
                + (o.cold() ? ", cold phases" : ""));
        if (!load.rows().isEmpty()) {
          out.write(load);
        }
        AccountingPass pass =
            new AccountingPass(
                db,
                data,
                o.readers(),
                o.checkpoint(),
                o.warmup(),
                pool,
                printing(listener, o.cold() ? () -> evict(db) : () -> {}));
        running.set(pass);
        PassState unfinished = AccountingPass.unfinished(db);
        if (unfinished != null && !o.resume()) {
          System.out.println(
              "accounting: starting over; the unfinished pass in "
                  + o.work()
                  + " is discarded (--resume continues it)");
        } else if (unfinished != null) {
          System.out.printf(
              Locale.ROOT,
              "accounting: resuming with %d readers in the %s phase, %d phases done before%n",
              unfinished.readers[unfinished.config],
              AccountingPass.PHASES[unfinished.phase],
              unfinished.done.size());
        }
        result = pass.run(o.resume());
      } finally {
        pool.shutdownNow();
        if (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
          System.err.println("accounting: reader threads still running after a minute");
        }
      }
      return report(o, result, out);
    } finally {
      finished.countDown();
      removeHook(hook);
    }
  }

  private static Report report(Options o, AccountingPass.Result result, ResultWriter out)
      throws IOException {
    AccountingData data = o.data();
    Results r =
        Results.of(
                "accounting",
                "readers",
                "phase",
                "objects",
                "lookups",
                "seconds",
                "lookups_per_s",
                "resumed")
            .parameter("objects", data.objects)
            .parameter("clustered_objects", data.clustered)
            .parameter("seed", data.seed)
            .parameter("readers", Arrays.toString(o.readers()))
            .parameter("checkpoint_lookups", o.checkpoint())
            .parameter("warmup_millis_per_phase", o.warmup())
            .parameter("work", o.work().toString())
            .parameter("cold", o.cold())
            .parameter("advice", o.advice())
            .note("lookup: bitfiles_pk.get(uuid) through the public Index API, heap row included")
            .note(
                "objects read with objects_pk range scans of "
                    + AccountingPass.BLOCK
                    + " ids per block");
    for (Measurement m : result.measurements()) {
      r.row(
          m.readers(),
          AccountingPass.PHASES[m.phase()],
          m.objects(),
          m.lookups(),
          Math.round(m.nanos() / 1e6) / 1e3,
          Math.round(m.lookupsPerSecond()),
          m.resumed());
    }
    out.write(r);
    Path work = o.work();
    if (result.outcome() == Outcome.CANCELLED) {
      System.out.println(
          "accounting: cancelled with a checkpoint; continue with --resume (work directory "
              + work
              + ")");
      out.printFiles(System.out);
      return new Report(result.outcome(), result.measurements(), result.tally(), work);
    }
    Tally tally = result.tally();
    System.out.println("accounting: " + tally + " (the same with every reader count)");
    out.write(tally.toResults("accounting-tallies"));
    Chart c = Chart.line("Bitfile lookups by reader count", "readers", "lookups/s");
    for (String phase : AccountingPass.PHASES) {
      c.series(r, phase + " phase", "readers", "lookups_per_s", row -> row.get(1).equals(phase));
    }
    out.chart(c, "accounting");
    out.printFiles(System.out);
    if (o.keep()) {
      System.out.println("accounting: database kept in " + work.resolve("db"));
    } else {
      BenchDir.deleteTree(work);
    }
    return new Report(result.outcome(), result.measurements(), tally, work);
  }

  /** Opens the work directory's database if it holds {@code data}, else builds it. */
  static Database openOrBuild(
      Path work,
      AccountingData data,
      boolean resume,
      int threads,
      Results load,
      Database.DatabaseOptions options)
      throws IOException {
    Path db = work.resolve("db");
    if (Files.isDirectory(db)) {
      Database d = Database.open(db, options);
      byte[] have = d.resumePoint(DATA_KEY);
      if (have != null && new String(have, StandardCharsets.UTF_8).equals(data.identity())) {
        System.out.println("accounting: reusing the data set in " + db);
        return d;
      }
      d.close();
    }
    if (resume) {
      throw new InvalidInputException(
          "--resume: no database with this data set in " + work + " (" + data.identity() + ")");
    }
    prepare(work);
    Path sort = work.resolve("sort");
    Files.createDirectories(sort);
    Database d = Database.create(db, options);
    try {
      d.execute(AccountingData.DDL, "accounting schema");
      RebuildOptions rebuild = RebuildOptions.defaults(SrtFile.ofDirectory(sort));
      load(
          d,
          "objects",
          new GeneratedInput(
              "objects", data.identity() + " table=objects", data.objects, data::object),
          rebuild,
          threads,
          load);
      load(
          d,
          "bitfiles",
          new GeneratedInput(
              "bitfiles", data.identity() + " table=bitfiles", data.objects, data::bitfile),
          rebuild,
          threads,
          load);
      try (Transaction t = d.begin(Durability.SYNC)) {
        t.setResumePoint(DATA_KEY, data.identity().getBytes(StandardCharsets.UTF_8));
        t.commit();
      }
      return d;
    } catch (RuntimeException | Error e) {
      d.close();
      throw e;
    }
  }

  private static void load(
      Database d,
      String table,
      GeneratedInput input,
      RebuildOptions rebuild,
      int threads,
      Results load) {
    long t0 = System.nanoTime();
    LoadReport rep =
        new Loader(
                d,
                LoadOptions.of(table, input).withParseThreads(threads),
                new RebuildIndexBuild(rebuild, "the work directory's sort/"))
            .run(LoadListener.NONE);
    double s = (System.nanoTime() - t0) / 1e9;
    if (rep.outcome() != LoadOutcome.COMPLETED || rep.rejected() > 0) {
      throw new IllegalStateException(
          "load of " + table + " ended " + rep.outcome() + ": " + rep.summaryLines());
    }
    double build = rep.indexBuild() == null ? 0 : s - rep.loadSeconds();
    load.row(
        table,
        rep.rowsLoaded(),
        Math.round(s * 1000) / 1000.0,
        Math.round(rep.rowsLoaded() / s),
        Math.round(build * 1000) / 1000.0);
    System.out.printf(
        Locale.ROOT,
        "accounting: loaded %,d %s rows in %.1f s (%.0f rows/s, index build %.1f s)%n",
        rep.rowsLoaded(),
        table,
        s,
        rep.rowsLoaded() / s,
        build);
  }

  /** Empties {@code work} for a new data set, refusing a non-empty directory that is not ours. */
  private static void prepare(Path work) throws IOException {
    if (Files.isDirectory(work)) {
      boolean empty;
      try (Stream<Path> s = Files.list(work)) {
        empty = s.findAny().isEmpty();
      }
      if (!empty && !Files.exists(work.resolve(MARKER))) {
        throw new InvalidInputException(
            "--work : "
                + work
                + " (expected: a new or empty directory, or one this experiment made; it has no "
                + MARKER
                + ")");
      }
      BenchDir.deleteTree(work);
    }
    Files.createDirectories(work);
    Files.writeString(work.resolve(MARKER), "work directory of idxkit bench accounting\n");
  }

  private static AccountingPass.Listener printing(
      AccountingPass.Listener inner, Runnable beforePhase) {
    return new AccountingPass.Listener() {
      @Override
      public void beforePhase(PassState s) {
        beforePhase.run();
        inner.beforePhase(s);
      }

      @Override
      public void checkpoint(PassState s) {
        // One line per checkpoint: the position a kill from here on resumes at.
        System.out.printf(
            Locale.ROOT,
            "accounting: checkpoint: readers=%d, %s phase, %,d lookups into the phase%n",
            s.readers[s.config],
            AccountingPass.PHASES[s.phase],
            s.lookups);
        inner.checkpoint(s);
      }

      @Override
      public void phaseDone(Measurement m) {
        System.out.printf(
            Locale.ROOT,
            "accounting: %d reader%s, %-9s phase: %,d objects, %,d lookups in %.2f s = %,.0f lookups/s%s%n",
            m.readers(),
            m.readers() == 1 ? "" : "s",
            AccountingPass.PHASES[m.phase()],
            m.objects(),
            m.lookups(),
            m.nanos() / 1e9,
            m.lookupsPerSecond(),
            m.resumed() ? " (resumed)" : "");
        inner.phaseDone(m);
      }
    };
  }

  private static int max(int[] a) {
    return Arrays.stream(a).max().orElse(1);
  }

  private static java.util.concurrent.ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.getAndIncrement());
      t.setDaemon(true);
      return t;
    };
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook is running and waits for this thread to return
    }
  }
}
