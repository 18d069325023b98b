package dev.idxkit.jmh.experiments;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.internal.txn.CheckpointStats;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.internal.txn.StoreOptions;
import dev.idxkit.core.internal.txn.StoreTxn;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.jmh.BenchDir;
import dev.idxkit.jmh.ExperimentArgs;
import dev.idxkit.jmh.report.ResultWriter;
import dev.idxkit.jmh.report.Results;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The durability experiment: how many commits per second the write-ahead log sustains, and how
 * close a checkpoint's flush comes to the disk's sequential write bandwidth.
 *
 * <p>Commits: each transaction rewrites two random pages of a 1,000-page table, for {@code seconds}
 * per configuration, with 1 and 2 writer threads under SYNC (fsync per commit, shared by group
 * commit) and ASYNC. Checkpoint: {@code mb} MiB of committed pages are made in the log with
 * durability OFF, then one checkpoint writes them out and is timed: its flush (the pages home, then
 * the area fsync; new pages, which skip the double write). Then every page is changed and a second
 * checkpoint gives the double write (every page to a file of its own, fsynced, before any goes
 * home); in the same run the same number of bytes is written sequentially to a new file in the same
 * directory with 1 MiB writes and one fsync, and the flush's ratio to it printed, and the whole
 * checkpoint's to two such writes. The pair runs {@code --rounds} times (the sequential write first
 * in every other round); the median ratio is the figure. Target: checkpoint at >= 90% of the
 * sequential figure.
 *
 * <p>Log bytes per committed row: a table of nine indexed random BIGINT keys and a 40-character pad
 * (the {@code growth} experiment's rows) gets {@value #LOG_PRELOAD_ROWS} rows, a checkpoint, then
 * two windows of {@value #LOG_WINDOW_ROWS} rows in transactions of 1,000 (durability OFF, no
 * checkpoint in between); the log's growth in each window over its rows is printed. The first
 * window after a checkpoint pays for first changes of pages (full images once the log holds
 * deltas), the second shows the steady state.
 *
 * <p>Run: {@code idxkit bench durability [--dir D] [--seconds 3] [--mb 256] [--out DIR]}, or {@code
 * java -cp jmh/target/benchmarks.jar dev.idxkit.jmh.experiments.DurabilityBench} with the same
 * options. The stores go to a new directory under {@code --dir} (default the temp directory),
 * deleted at the end; the figures to {@code durability-commits.csv/json} and {@code
 * durability-checkpoint.csv/json} under {@code --out} (default {@code bench-results/durability}).
 */
public final class DurabilityBench {
  private DurabilityBench() {}

  public static void main(String[] args) {
    command()
        .run(
            args,
            a ->
                run(
                    a.path("--dir"),
                    a.integer("--seconds", 1, 3600),
                    a.integer("--mb", 1, 1 << 20),
                    a.integer("--rounds", 1, 100),
                    a.flag("--checkpoint-only"),
                    a.out()));
  }

  /** The command line: options, defaults and help. */
  static ExperimentArgs command() {
    return ExperimentArgs.command(
            "durability",
            "Commits/s of 2-page transactions under sync and async with 1 and 2 writers, and a\n"
                + "checkpoint's flush against a sequential write of the same bytes.")
        .option("--dir", "DIR", System.getProperty("java.io.tmpdir"), "where the stores are made")
        .option("--seconds", "S", "3", "seconds per commit configuration")
        .option("--mb", "MIB", "256", "MiB of pages the checkpoint flushes")
        .option(
            "--rounds",
            "N",
            "3",
            "checkpoint/sequential pairs, alternating which goes first; the median ratio is the"
                + " figure")
        .flag("--checkpoint-only", "skip the commit and log-size parts");
  }

  static final int LOG_PRELOAD_ROWS = 50_000;
  static final int LOG_WINDOW_ROWS = 20_000;

  /** Log bytes per committed row in two windows after a checkpoint; see the class comment. */
  static long[] logBytesPerRow(Path db) {
    SplittableRandom r = new SplittableRandom(20_261_125L);
    // Preloaded with the default checkpoint interval, then reopened (which checkpoints) with none,
    // so that the windows' log is all there is to measure.
    try (Database d = Database.create(db, DatabaseOptions.defaults())) {
      StringBuilder ddl = new StringBuilder("CREATE TABLE t (id BIGINT");
      for (int k = 1; k <= 9; k++) {
        ddl.append(", k").append(k).append(" BIGINT");
      }
      ddl.append(", pad VARCHAR(60));");
      for (int k = 1; k <= 9; k++) {
        ddl.append("CREATE INDEX t_k").append(k).append(" ON t (k").append(k).append(");");
      }
      d.execute(ddl.toString(), "log bytes schema");
      insertRows(d, d.table("t"), r, 0, LOG_PRELOAD_ROWS);
    }
    DatabaseOptions opts =
        DatabaseOptions.defaults()
            .withDurability(Durability.OFF)
            .withCheckpointBytes(1L << 40)
            .withDirtyPageBytes(1L << 40);
    try (Database d = Database.open(db, opts)) {
      Table t = d.table("t");
      long[] perRow = new long[2];
      long id = LOG_PRELOAD_ROWS;
      for (int w = 0; w < 2; w++) {
        long before = d.stats().logBytes();
        insertRows(d, t, r, id, LOG_WINDOW_ROWS);
        id += LOG_WINDOW_ROWS;
        perRow[w] = Math.round((d.stats().logBytes() - before) / (double) LOG_WINDOW_ROWS);
      }
      return perRow;
    }
  }

  private static void insertRows(Database d, Table t, SplittableRandom r, long from, int rows) {
    Object[] row = new Object[11];
    char[] pad = new char[40];
    for (int i = 0; i < rows; ) {
      try (Transaction tx = d.begin(Durability.OFF)) {
        for (int end = Math.min(rows, i + 1000); i < end; i++) {
          row[0] = from + i;
          for (int k = 1; k <= 9; k++) {
            row[k] = r.nextLong();
          }
          for (int c = 0; c < pad.length; c++) {
            pad[c] = (char) ('a' + r.nextInt(26));
          }
          row[10] = new String(pad);
          tx.insert(t, row);
        }
        tx.commit();
      }
    }
  }

  /**
   * Runs the experiment in a new directory under {@code parent} (deleted at the end) and writes the
   * figures under {@code out}.
   */
  public static void run(
      Path parent, int seconds, int mb, int rounds, boolean checkpointOnly, Path out)
      throws Exception {
    ResultWriter results = ResultWriter.open("durability", out);
    System.out.println("durability: " + results.machineAtStart().describe());
    Results commits =
        Results.of("durability-commits", "durability", "writers", "seconds", "commits_per_s")
            .parameter("pages_per_commit", 2)
            .parameter("table_pages", 1000);
    Results ckpt =
        Results.of(
                "durability-checkpoint",
                "round",
                "mib",
                "log_fsync_seconds",
                "double_write_seconds",
                "flush_seconds",
                "write_seconds",
                "area_fsync_seconds",
                "meta_seconds",
                "flush_mib_per_s",
                "sequential_seconds",
                "sequential_mib_per_s",
                "ratio",
                "whole_ratio")
            .note(
                "target: checkpoint flush >= 0.90 of the sequential write; whole_ratio: the double"
                    + " write and the flush (twice the bytes) against two sequential writes");
    try (Scratch scratch = Scratch.under(parent, "durability")) {
      Path dir = scratch.path();
      System.out.printf(
          "durability bench in %s (%d s per commit config, %d MiB checkpoint)%n", dir, seconds, mb);
      if (!checkpointOnly) {
        commitsAndLog(dir, seconds, results, commits);
      }
      double[] ratios = new double[rounds];
      double[] wholeRatios = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        CheckpointRun c = checkpoint(dir, mb, r % 2 == 1);
        ratios[r] = c.flushMibPerSecond() / c.sequentialMibPerSecond();
        wholeRatios[r] = 2 * c.sequentialSeconds() / (c.doubleWriteSeconds() + c.flushSeconds());
        ckpt.row(
            r + 1,
            mb,
            round(c.walSyncSeconds()),
            round(c.doubleWriteSeconds()),
            round(c.flushSeconds()),
            round(c.writeSeconds()),
            round(c.flushSeconds() - c.writeSeconds()),
            round(c.metaSeconds()),
            round(c.flushMibPerSecond()),
            round(c.sequentialSeconds()),
            round(c.sequentialMibPerSecond()),
            round(ratios[r]),
            round(wholeRatios[r]));
      }
      double[] sorted = ratios.clone();
      Arrays.sort(sorted);
      System.out.printf(
          "checkpoint flush / sequential write over %d rounds: median %.2f (min %.2f, max %.2f;"
              + " target >= 0.90)%n",
          rounds, sorted[rounds / 2], sorted[0], sorted[rounds - 1]);
      double[] whole = wholeRatios.clone();
      Arrays.sort(whole);
      System.out.printf(
          "whole checkpoint (double write + flush, twice the bytes) / two sequential writes:"
              + " median %.2f (min %.2f, max %.2f)%n",
          whole[rounds / 2], whole[0], whole[rounds - 1]);
      results.write(ckpt);
    }
    results.printFiles(System.out);
  }

  /** The commit-rate and log-bytes parts of the experiment. */
  private static void commitsAndLog(Path dir, int seconds, ResultWriter results, Results commits)
      throws Exception {
    System.out.printf("%-8s %-8s %12s%n", "mode", "writers", "commits/s");
    for (Durability d : new Durability[] {Durability.SYNC, Durability.ASYNC}) {
      for (int writers : new int[] {1, 2}) {
        Path db = dir.resolve("commits-" + d + "-" + writers);
        double rate = commits(db, d, writers, seconds);
        System.out.printf("%-8s %-8d %12.0f%n", d.name().toLowerCase(), writers, rate);
        commits.row(d.name().toLowerCase(Locale.ROOT), writers, seconds, Math.round(rate));
        BenchDir.deleteTree(db);
      }
    }
    results.write(commits);
    Path logDb = dir.resolve("log-bytes");
    long[] perRow = logBytesPerRow(logDb);
    BenchDir.deleteTree(logDb);
    System.out.printf(
        "log bytes per committed row (9 indexed random keys, txns of 1,000): %,d in the first"
            + " %,d rows after a checkpoint, %,d in the next %,d%n",
        perRow[0], LOG_WINDOW_ROWS, perRow[1], LOG_WINDOW_ROWS);
    results.write(
        Results.of("durability-log", "window", "rows", "log_bytes_per_row")
            .parameter("preload_rows", LOG_PRELOAD_ROWS)
            .parameter("indexes", 9)
            .row("first after checkpoint", LOG_WINDOW_ROWS, perRow[0])
            .row("second", LOG_WINDOW_ROWS, perRow[1]));
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  /** What {@link #checkpoint} measured. */
  record CheckpointRun(
      long bytes,
      double walSyncSeconds,
      double doubleWriteSeconds,
      double writeSeconds,
      double flushSeconds,
      double metaSeconds,
      double sequentialSeconds) {
    double flushMibPerSecond() {
      return bytes / 1048576.0 / flushSeconds;
    }

    double sequentialMibPerSecond() {
      return bytes / 1048576.0 / sequentialSeconds;
    }
  }

  static double commits(Path db, Durability d, int writers, int seconds) throws Exception {
    StoreOptions opts = StoreOptions.defaults().withDurability(d);
    try (Store s = Store.create(db, opts, Map.of(0, "data"), new byte[0])) {
      long[] pages = new long[1000];
      try (StoreTxn t = s.begin(Durability.OFF)) {
        for (int i = 0; i < pages.length; i++) {
          pages[i] = t.pages(0).allocate(PageType.HEAP).pageNo();
        }
        t.commit();
      }
      s.checkpoint();
      AtomicLong done = new AtomicLong();
      long end = System.nanoTime() + seconds * 1_000_000_000L;
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        SplittableRandom r = new SplittableRandom(w);
        Thread th =
            new Thread(
                () -> {
                  while (System.nanoTime() < end) {
                    try (StoreTxn t = s.begin(d)) {
                      for (int k = 0; k < 2; k++) {
                        Page p = t.pages(0).write(pages[r.nextInt(pages.length)]);
                        p.putLong(Page.HEADER_SIZE, p.getLong(Page.HEADER_SIZE) + 1);
                      }
                      t.commit();
                    }
                    done.incrementAndGet();
                  }
                },
                "bench-writer-" + w);
        threads.add(th);
        th.start();
      }
      for (Thread th : threads) {
        th.join();
      }
      return done.get() / (double) seconds;
    }
  }

  /**
   * One checkpoint of {@code mb} MiB and one sequential write of the same bytes, the sequential
   * write first when {@code sequentialFirst} (rounds alternate, so neither always runs on a disk
   * the other just left busy).
   */
  static CheckpointRun checkpoint(Path dir, int mb, boolean sequentialFirst) throws IOException {
    int pageSize = Page.DEFAULT_SIZE;
    long pages = (long) mb * (1 << 20) / pageSize;
    long bytes = pages * pageSize;
    double seqSeconds = sequentialFirst ? sequentialWrite(dir, bytes) : 0;
    TwoCheckpoints both = checkpointTwice(dir.resolve("checkpoint"), pages);
    CheckpointStats c = both.fresh();
    CheckpointStats changed = both.changed();
    if (!sequentialFirst) {
      seqSeconds = sequentialWrite(dir, bytes);
    }
    double ckptSeconds = c.flushNanos() / 1e9;
    double ckptMb = bytes / 1048576.0 / ckptSeconds;
    double seqMb = bytes / 1048576.0 / seqSeconds;
    System.out.printf(
        "checkpoint phases: log fsync %.2f s, double write %.2f s (%.0f MiB/s), flush %.2f s"
            + " (writes %.2f s, area fsync %.2f s; write-behind %s), meta+reset %.3f s%n",
        c.walSyncNanos() / 1e9,
        changed.doubleWriteNanos() / 1e9,
        changed.doubleWriteMibPerSecond(),
        ckptSeconds,
        c.writeNanos() / 1e9,
        (c.flushNanos() - c.writeNanos()) / 1e9,
        c.writeBehindProblem() == null ? "on" : "off: " + c.writeBehindProblem(),
        c.metaNanos() / 1e9);
    System.out.printf(
        "checkpoint flush: %d MiB home in %.2f s = %.0f MiB/s; sequential write: %.2f s = %.0f MiB/s;"
            + " ratio %.2f (target >= 0.90)%n",
        mb, ckptSeconds, ckptMb, seqSeconds, seqMb, ckptMb / seqMb);
    return new CheckpointRun(
        bytes,
        c.walSyncNanos() / 1e9,
        changed.doubleWriteNanos() / 1e9,
        c.writeNanos() / 1e9,
        ckptSeconds,
        c.metaNanos() / 1e9,
        seqSeconds);
  }

  /**
   * Commits {@code pages} new pages with durability OFF and checkpoints them (pages formatted since
   * the last checkpoint: written home only, to blocks the file system allocates, as the sequential
   * write's are), then changes every one of them and checkpoints again (pages that were home: each
   * to a new double-write file first). Returns the two checkpoints' stats; the flush of the first
   * and the double write of the second are the two writes of a page a checkpoint can make.
   */
  private static TwoCheckpoints checkpointTwice(Path db, long pages) throws IOException {
    StoreOptions opts =
        StoreOptions.defaults()
            .withDurability(Durability.OFF)
            .withCheckpointBytes(1L << 40)
            .withDirtyPageBytes(1L << 40);
    try (Store s = Store.create(db, opts, Map.of(0, "data"), new byte[0])) {
      for (long done = 0; done < pages; ) {
        try (StoreTxn t = s.begin(Durability.OFF)) {
          for (int i = 0; i < 1024 && done < pages; i++, done++) {
            t.pages(0).allocate(PageType.HEAP).putLong(Page.HEADER_SIZE, done);
          }
          t.commit();
        }
      }
      s.checkpoint();
      CheckpointStats fresh = s.lastCheckpoint();
      for (long done = 0; done < pages; ) {
        try (StoreTxn t = s.begin(Durability.OFF)) {
          for (int i = 0; i < 1024 && done < pages; i++, done++) {
            // Page numbers start at 1 (0 is the area's header).
            t.pages(0).write(done + 1).putLong(Page.HEADER_SIZE + 8, done);
          }
          t.commit();
        }
      }
      s.checkpoint();
      CheckpointStats changed = s.lastCheckpoint();
      if (fresh.doubledPages() != 0 || changed.doubledPages() != pages) {
        throw new IllegalStateException(
            "checkpoints double-wrote "
                + fresh.doubledPages()
                + " of "
                + pages
                + " new pages and "
                + changed.doubledPages()
                + " changed ones (expected: none, all)");
      }
      System.out.printf(
          "checkpoint of %d new pages: %.2f s, none double-written; of the same pages changed:"
              + " %.2f s, all double-written (flush %.2f s of overwrites)%n",
          pages, fresh.totalNanos() / 1e9, changed.totalNanos() / 1e9, changed.flushNanos() / 1e9);
      return new TwoCheckpoints(fresh, changed);
    } finally {
      BenchDir.deleteTree(db);
    }
  }

  /** The checkpoint of new pages and the checkpoint of the same pages changed. */
  private record TwoCheckpoints(CheckpointStats fresh, CheckpointStats changed) {}

  /** Seconds to write {@code bytes} to a new file with 1 MiB writes and one fsync. */
  private static double sequentialWrite(Path dir, long bytes) throws IOException {
    Path seq = dir.resolve("sequential.dat");
    long t0 = System.nanoTime();
    try (FileChannel ch =
        FileChannel.open(seq, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
      for (long off = 0; off < bytes; off += b.capacity()) {
        b.clear();
        while (b.hasRemaining()) {
          ch.write(b, off + b.position());
        }
      }
      ch.force(false);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    Files.delete(seq);
    return seconds;
  }
}
