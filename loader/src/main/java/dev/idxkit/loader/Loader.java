package dev.idxkit.loader;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.RecordLayout;
import dev.idxkit.core.spi.TableState;
import dev.idxkit.loader.input.Batch;
import dev.idxkit.loader.input.EncodedRows;
import dev.idxkit.loader.input.RowSource;
import dev.idxkit.loader.internal.BulkSink;
import dev.idxkit.loader.internal.CpuClock;
import dev.idxkit.loader.internal.EncodedBatch;
import dev.idxkit.loader.internal.KeyLengthGuard;
import dev.idxkit.loader.internal.LiveSink;
import dev.idxkit.loader.internal.LoadLoop;
import dev.idxkit.loader.internal.LoadUndo;
import dev.idxkit.loader.internal.ParseAhead;
import dev.idxkit.loader.internal.RecordBatch;
import dev.idxkit.loader.internal.RejectWriter;
import dev.idxkit.loader.internal.ResumeState;
import dev.idxkit.loader.internal.RowLines;
import dev.idxkit.loader.internal.RowSink;
import dev.idxkit.loader.internal.ValueBatch;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loads rows from a CSV file, a JSON Lines file or the TPC-H generator into a table: the library
 * behind {@code idxkit load}.
 *
 * <pre>{@code
 * LoadOptions options = LoadOptions.of("lineitem", LoadInput.csv(file, CsvOptions.defaults()))
 *     .withRejectFile(Path.of("lineitem.rejects"));
 * LoadReport report = new Loader(db, options, indexBuild).run(LoadListener.NONE);
 * report.summaryLines().forEach(System.out::println);
 * }</pre>
 *
 * <h2>A run</h2>
 *
 * <ol>
 *   <li>The resume point {@code load:<table>} decides what the run may do ({@link StartMode}): a
 *       new load is refused while an unfinished one exists; a resume checks the input identity and
 *       index mode against it; a restart removes the unfinished load's rows.
 *   <li>The first checkpoint is made durable before any row: in the bulk modes it publishes the
 *       table's indexes as inactive, and records the table's pages from before the load. So a load
 *       killed at any moment can be resumed, and restarted.
 *   <li>The calling thread cuts the input into chunks; {@code parseThreads} threads parse them -
 *       and, in the bulk modes, encode the rows as heap records - ahead of it ({@link ParseAhead});
 *       the calling thread takes the batches in input order and appends the records to heap pages
 *       ({@link dev.idxkit.core.spi.HeapAppender}) or inserts the rows (live), writes rejects to
 *       the reject file, and checkpoints every {@code checkpointRows} records or {@code
 *       checkpointBytes} of input ({@link LoadLoop}).
 *   <li>At the end: the last rows are published (with the resume point removed, or, for a deferred
 *       build, moved to its "building indexes" phase), then the {@link IndexBuild} runs, then the
 *       resume point is removed. A crash during the build resumes into the build.
 * </ol>
 *
 * <h2>Stopping</h2>
 *
 * {@link #cancel()} (from any thread: a Ctrl-C handler) stops the run after the record being
 * handled, with a checkpoint there, and the run returns {@link LoadOutcome#CANCELLED}. An interrupt
 * of the loading thread does the same while it waits for a parse; prefer {@code cancel()}, because
 * an interrupt that lands in a file write closes the file (a rule of Java's NIO channels). Too many
 * rejects stop it without a checkpoint ({@link LoadOutcome#TOO_MANY_ERRORS}). A failure - an I/O
 * error, an input that cannot be read - throws, and the database keeps its last checkpoint.
 *
 * <p>Memory: {@code 2 * parseThreads} chunks (1 MiB each by default) and their parsed batches, a
 * heap page, and the bulk session's write buffers (16 MiB). Disk: the rows, the reject file.
 */
public final class Loader {
  private final Database db;
  private final LoadOptions options;
  private final IndexBuild indexBuild;
  private volatile boolean cancelled;

  /**
   * @param indexBuild the deferred index build; needed only for {@link IndexMode#DEFERRED} loads
   *     into tables with indexes, may be null otherwise
   */
  public Loader(Database db, LoadOptions options, IndexBuild indexBuild) {
    this.db = db;
    this.options = options;
    this.indexBuild = indexBuild;
  }

  /** Stops the run at the next record with a checkpoint; safe from any thread. */
  public void cancel() {
    cancelled = true;
  }

  public boolean isCancelled() {
    return cancelled;
  }

  /** The resume-point key of loads into {@code table}. */
  public static String resumeKey(String table) {
    return ResumeState.key(table);
  }

  /** A description of the unfinished load of {@code table}, if there is one. */
  public static Optional<String> unfinishedLoad(Database db, String table) {
    String key = ResumeState.key(db.catalog().table(table).name());
    byte[] b = db.resumePoint(key);
    if (b == null) {
      return Optional.empty();
    }
    ResumeState s = ResumeState.decode(b, key, db.dir());
    return Optional.of(s.describe() + ", input " + s.inputIdentity());
  }

  /** Runs the load with its own parse threads ({@code load-parse-N}). */
  public LoadReport run(LoadListener listener) {
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            options.parseThreads(),
            r -> {
              Thread t = new Thread(r, "load-parse-" + n.getAndIncrement());
              t.setDaemon(true);
              return t;
            });
    try {
      return run(listener, pool);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Runs the load, parsing on {@code parsePool} (not shut down here). */
  public LoadReport run(LoadListener listener, ExecutorService parsePool) {
    long t0 = System.nanoTime();
    listener.phase(LoadPhase.STARTING);
    TableInfo table = db.catalog().table(options.table());
    String key = ResumeState.key(table.name());
    byte[] stored = db.resumePoint(key);
    ResumeState prior = stored == null ? null : ResumeState.decode(stored, key, db.dir());
    String identity = options.input().identity();
    StartMode mode = options.startMode();
    StartRules.check(options, table, prior, identity);
    boolean resume = mode == StartMode.RESUME;
    boolean restart = mode == StartMode.RESTART && prior != null;
    if (options.indexMode() == IndexMode.DEFERRED
        && !table.indexes().isEmpty()
        && indexBuild == null) {
      throw new IllegalArgumentException(
          "a deferred load into " + table.name() + " needs an IndexBuild");
    }
    // Open the input before anything is written: a file that cannot be read or a CSV header that
    // does not match the table is refused with the database untouched, instead of after the first
    // checkpoint, which in the bulk modes has made the indexes inactive and left an unfinished
    // load that only --restart clears. A new load reads from the start, so the source opened here
    // is the one it reads; a resume opens at its checkpoint later (null resources are skipped).
    try (RowSource fresh = resume ? null : options.input().open(table.def(), null)) {
      // The sink first: a refused restart must leave the reject file of the interrupted load alone.
      RowSink sink;
      long tableRows;
      PageRuns pagesBefore = PageRuns.EMPTY;
      RowLines lines = new RowLines();
      if (options.indexMode().bulk()) {
        BulkSink bulk = new BulkSink(db, table, key, lines);
        TableState ts;
        try {
          ts = bulk.open(restart ? prior : null);
        } catch (RuntimeException e) {
          bulk.abort();
          throw e;
        }
        sink = bulk;
        tableRows = ts.rows();
        pagesBefore = ts.pages();
      } else {
        if (restart) {
          undoAlone(table, prior);
        }
        Table t = db.table(table.name());
        sink = new LiveSink(db, t, key, lines);
        tableRows = t.rowCount();
      }
      List<String> notes = new ArrayList<>();
      Path rejectPath =
          options.rejectFile() == null ? null : options.rejectFile().toAbsolutePath().normalize();
      try (sink;
          RejectWriter rejects = openRejects(table, prior, resume, rejectPath, notes)) {
        long rejectLength = rejects == null ? -1 : rejects.checkpoint();
        ResumeState start =
            resume
                ? prior.withRejectFile(rejectPath, rejectLength).counted()
                : new ResumeState(
                        ResumeState.LOADING,
                        options.indexMode(),
                        table.id(),
                        System.currentTimeMillis(),
                        null,
                        0,
                        0,
                        0,
                        0,
                        tableRows,
                        tableRows,
                        rejectLength,
                        identity,
                        rejectPath,
                        pagesBefore)
                    .counted();
        return load(
            new Run(
                table, key, sink, rejects, fresh, start, tableRows, resume, lines, notes, listener,
                parsePool, t0));
      } catch (RuntimeException | Error e) {
        sink.abort();
        throw e;
      }
    }
  }

  /**
   * One run's request to {@link #load}, gathered by {@link #run(LoadListener, ExecutorService)}.
   *
   * @param table the target table
   * @param key the resume-point key of loads into it
   * @param sink where rows go (bulk or live)
   * @param rejects the reject file, or null
   * @param fresh the input opened at its start for a new load; null for a resume (opened at its
   *     checkpoint here)
   * @param start the state the run starts from (already durable after {@code begin})
   * @param tableRows the table's rows at the start of the run
   * @param resume whether this run resumes an unfinished load
   * @param lines each loaded row's input line, for duplicate-key rejects
   * @param notes notes gathered so far for the report
   * @param listener progress
   * @param pool the parse threads
   * @param t0 when the run began ({@link System#nanoTime()})
   */
  private record Run(
      TableInfo table,
      String key,
      RowSink sink,
      RejectWriter rejects,
      RowSource fresh,
      ResumeState start,
      long tableRows,
      boolean resume,
      RowLines lines,
      List<String> notes,
      LoadListener listener,
      ExecutorService pool,
      long t0) {}

  private LoadReport load(Run run) {
    TableInfo table = run.table();
    RowSink sink = run.sink();
    ResumeState start = run.start();
    LoadListener listener = run.listener();
    CpuClock threadCpu = new CpuClock();
    long cpu0 = threadCpu.now();
    long process0 = processCpuNanos();
    LoadLoop loop =
        new LoadLoop(
            options,
            sink,
            run.rejects(),
            start,
            run.tableRows(),
            this::isCancelled,
            listener,
            run.t0());
    loop.begin();
    LoadLoop.Stop stop = LoadLoop.Stop.END;
    if (start.phase() == ResumeState.LOADING) {
      listener.phase(LoadPhase.LOADING);
      try (RowSource source =
              run.fresh() != null
                  ? run.fresh()
                  : options.input().open(table.def(), start.resume());
          ParseAhead<RecordBatch> ahead =
              new ParseAhead<>(source, run.pool(), 2 * options.parseThreads(), prepare(table))) {
        stop = loop.run(ahead);
      }
    }
    LoadOutcome outcome;
    DeferredBuild.Outcome build = null;
    long buildNanos = 0;
    boolean keptIndexed = false;
    boolean deferred = options.indexMode() == IndexMode.DEFERRED && !table.indexes().isEmpty();
    if (stop == LoadLoop.Stop.TOO_MANY_ERRORS) {
      sink.abort();
      outcome = LoadOutcome.TOO_MANY_ERRORS;
    } else if (stop == LoadLoop.Stop.CANCELLED) {
      outcome = LoadOutcome.CANCELLED;
    } else if (!deferred) {
      loop.finish(null);
      outcome = LoadOutcome.COMPLETED;
    } else {
      ResumeState last = loop.current().withPhase(ResumeState.BUILDING_INDEXES).counted();
      loop.finish(last);
      outcome = LoadOutcome.COMPLETED; // every row is in: the build runs even if cancelled now
    }
    long loadCpu = process0 < 0 ? -1 : processCpuNanos() - process0;
    if (deferred) {
      // A stopped load does not leave the table's indexes inactive: the rows it keeps (those of
      // the last checkpoint) are indexed too, and its resume point stays, so --resume continues
      // (marking them inactive again until its end) and --restart removes the rows.
      boolean stopped = stop != LoadLoop.Stop.END;
      if (stopped) {
        sink.close();
      }
      boolean interrupted = stopped && Thread.interrupted(); // the Ctrl-C must not stop this build
      listener.phase(LoadPhase.BUILDING_INDEXES);
      long b0 = System.nanoTime();
      try {
        build = deferredBuild(run, loop, stopped);
      } finally {
        buildNanos = System.nanoTime() - b0;
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      if (stopped) {
        keptIndexed = build.unnamed() == null;
      } else {
        if (build.unnamed() != null) {
          outcome = LoadOutcome.DUPLICATE_KEYS;
        } else if (loop.tooManyRejects()) {
          // Every row is in and indexed, but the duplicates pushed the rejects over the limit.
          outcome = LoadOutcome.TOO_MANY_ERRORS;
        }
        // Every row is in: what is left is for idxbuild, not for a resumed load.
        removeResumePoint(run.key());
      }
    }
    listener.phase(LoadPhase.DONE);
    Map<String, IndexStatus> indexes = indexStates(table);
    List<String> notes = run.notes();
    notes.addAll(LoadNotes.notes(db, options, table, outcome, loop, indexes, keptIndexed, stop));
    ResumeState last = loop.durable();
    boolean finished = stop == LoadLoop.Stop.END;
    return new LoadReport(
        outcome,
        table.name(),
        options.input().name(),
        options.indexMode(),
        run.resume(),
        start.resume(),
        finished ? null : last.resume(),
        loop.records(),
        last.rowsLoaded(),
        loop.rejects(),
        loop.runRows(),
        loop.runPosition(),
        options.input().positionsAreBytes(),
        loop.checkpoints(),
        new LoadTimings(
            System.nanoTime() - run.t0(),
            loop.cutNanos(),
            loop.waitNanos(),
            loop.appendNanos(),
            loop.checkpointNanos(),
            buildNanos,
            loop.parseCpuNanos(),
            loop.encodeCpuNanos(),
            threadCpu.now() - cpu0,
            process0 < 0 ? -1 : processCpuNanos() - process0,
            loadCpu),
        indexes,
        run.rejects() == null ? null : run.rejects().file(),
        loop.firstRejects(),
        build == null ? null : build.unnamed(),
        build == null ? null : build.built(),
        notes);
  }

  private DeferredBuild.Outcome deferredBuild(Run run, LoadLoop loop, boolean keepResumePoint) {
    return new DeferredBuild(
            db,
            run.table(),
            options.input(),
            indexBuild,
            run.lines(),
            loop,
            run.key(),
            keepResumePoint)
        .run(run.listener()::indexBuild);
  }

  /** CPU time of the whole process so far, or -1 where the JVM does not tell. */
  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : -1;
  }

  private ParseAhead.Prepare<RecordBatch> prepare(TableInfo table) {
    if (!options.indexMode().bulk()) {
      return (chunk, clock) -> {
        long t0 = clock.now();
        Batch batch = chunk.parse();
        return new ValueBatch(batch, clock.now() - t0);
      };
    }
    KeyLengthGuard guard = new KeyLengthGuard(table, Engine.of(db).pageSize());
    RecordLayout layout = table.layout();
    return (chunk, clock) -> {
      long t0 = clock.now();
      // Straight from the input's bytes to records when the chunk can (CSV) and no key needs a
      // length check (the guard checks values): no Java object per value.
      EncodedRows direct = guard.nothingToCheck() ? chunk.parseEncoded(layout) : null;
      if (direct != null) {
        return new EncodedBatch(direct, clock.now() - t0, 0);
      }
      Batch batch = chunk.parse();
      return EncodedBatch.encode(batch, layout, guard, clock.now() - t0, clock);
    };
  }

  private void undoAlone(TableInfo table, ResumeState prior) {
    try (BulkWrite bulk = Engine.of(db).beginBulk()) {
      LoadUndo.undo(bulk, table, prior);
      bulk.meta().resume(ResumeState.key(table.name()), null);
      bulk.publish();
    } finally {
      db.bulkPublished();
    }
  }

  private RejectWriter openRejects(
      TableInfo table, ResumeState prior, boolean resume, Path file, List<String> notes) {
    if (file == null) {
      return null;
    }
    if (resume && file.equals(prior.rejectFile())) {
      RejectWriter w =
          RejectWriter.resume(
              file,
              options.input().name(),
              prior.rejectBytes(),
              prior.resume() == null ? 1 : prior.resume().line());
      if (w.shortBy() > 0) {
        notes.add(
            "the reject file "
                + file
                + " was "
                + w.shortBy()
                + " bytes shorter than at the last checkpoint; new rejects were appended to it"
                + " as it was");
      }
      return w;
    }
    if (resume && prior.rejectFile() != null) {
      notes.add("the rejects before the resume are in " + prior.rejectFile());
    }
    return RejectWriter.create(file, options.input().name(), table.name());
  }

  private void removeResumePoint(String key) {
    try (Transaction t = db.begin(Durability.SYNC)) {
      t.setResumePoint(key, null);
      t.commit();
    }
  }

  // ---- the report ----

  private Map<String, IndexStatus> indexStates(TableInfo table) {
    Map<String, IndexStatus> out = new LinkedHashMap<>();
    for (IndexInfo ix : table.indexes()) {
      out.put(
          ix.name(), db.index(ix.name()).isActive() ? IndexStatus.ACTIVE : IndexStatus.INACTIVE);
    }
    return out;
  }
}
