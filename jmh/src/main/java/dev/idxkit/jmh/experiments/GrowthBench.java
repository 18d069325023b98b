package dev.idxkit.jmh.experiments;

import dev.idxkit.jmh.ExperimentArgs;
import dev.idxkit.jmh.report.Chart;
import dev.idxkit.jmh.report.ResultWriter;
import dev.idxkit.jmh.report.Results;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The {@code growth} experiment (multi-keyed file growth): does the time to insert a run of records
 * stay flat as the file grows? Records have nine indexed keys, each an independent random BIGINT,
 * so every insert lands at a random place in each of nine B+trees; as the trees outgrow the CPU
 * caches (and, at the full size, pass 1 GB) each insert touches more cold pages.
 *
 * <p>Steps, for run = 1 .. {@code --runs}:
 *
 * <ol>
 *   <li>Generate the run's {@code --per-run} rows from the run's seed (derived from {@code --seed},
 *       printed): id, nine random keys, a 40-character random pad. Generated before timing, so
 *       neither store pays for it.
 *   <li>Insert them into idxkit (public {@code Database}/{@code Transaction} API, a commit every
 *       {@code --batch} rows), timing wall, user and system time of the process ({@link
 *       ProcessTimes}) and reading the store's file size after.
 *   <li>The same rows into SQLite in the same process, same batches (unless {@code --no-sqlite}).
 *   <li>Write {@code growth.csv/json} and the charts {@code growth.png} (seconds per run) and
 *       {@code growth-size.png} (table and index files, log excluded), so an interrupted run keeps
 *       its figures.
 * </ol>
 *
 * Runs alternate between the stores so that both see the same machine conditions. At the end it
 * prints the goal: idxkit's last run at most 1.3 times its run 3.
 *
 * <p>Defaults: the experiment is 14 runs of 305,000 rows; here 14 runs of 20,000 rows,
 * because random inserts with nine indexes ran at a few thousand rows per second per store on the
 * shared 2-core machine, and 14 x 305,000 x 2 stores would take hours. {@code --per-run 305000}
 * gives the full size. Memory: one run's rows (about 150 bytes each) on the heap. Disk: both
 * stores, about 0.5 KB per row each, deleted at the end unless {@code --keep}.
 */
public final class GrowthBench {
  static final int PAD_CHARS = 40;

  private GrowthBench() {}

  public static void main(String[] args) {
    command().run(args, GrowthBench::run);
  }

  /** The command line: options, defaults and help. */
  static ExperimentArgs command() {
    return ExperimentArgs.command(
            "growth",
            "Random inserts of records with 9 independently random indexed keys, in runs, into\n"
                + "idxkit and SQLite in the same process: time per run as the files grow.\n"
                + "The issue's size is --runs 14 --per-run 305000 (hours on a small machine).")
        .option("--runs", "N", "14", "number of runs")
        .option("--per-run", "ROWS", "20000", "rows per run")
        .option("--batch", "ROWS", "1000", "rows per transaction (both stores)")
        .option(
            "--dir", "DIR", System.getProperty("java.io.tmpdir"), "where the stores are created")
        .option("--seed", "N", "", "seed of the keys (default: drawn and printed)")
        .option(
            "--change-buffer-mb",
            "MB",
            "",
            "idxkit's change-buffer memory (0: off; default: the store's default)")
        .flag("--no-sqlite", "measure idxkit only")
        .flag("--keep", "keep both stores (printed) instead of deleting them");
  }

  static void run(ExperimentArgs a) throws Exception {
    int runs = a.integer("--runs", 1, 1000);
    int perRun = a.integer("--per-run", 1, 50_000_000);
    int batch = a.integer("--batch", 1, 10_000_000);
    long seed =
        a.get("--seed").isEmpty()
            ? new SplittableRandom().nextLong()
            : a.count("--seed", Long.MIN_VALUE, Long.MAX_VALUE);
    boolean sqlite = !a.flag("--no-sqlite");
    long changeBuffer =
        a.get("--change-buffer-mb").isEmpty()
            ? -1
            : a.count("--change-buffer-mb", 0, 1 << 20) << 20;

    ResultWriter out = ResultWriter.open("growth", a.out());
    System.out.println("growth: " + out.machineAtStart().describe());
    System.out.printf(
        Locale.ROOT,
        "growth: %d runs of %,d rows, 9 indexed random keys, commit every %,d rows, seed %d%n",
        runs,
        perRun,
        batch,
        seed);
    Results r =
        Results.of(
                "growth",
                "store",
                "run",
                "rows_total",
                "seconds",
                "user_seconds",
                "system_seconds",
                "file_bytes",
                "data_bytes",
                "inserts_per_s")
            .parameter("runs", runs)
            .parameter("per_run", perRun)
            .parameter("batch_rows", batch)
            .parameter("indexes", GrowthStore.KEYS)
            .parameter("seed", seed);
    Scratch dir = Scratch.under(a.path("--dir"), "growth");
    try {
      List<GrowthStore> stores = new ArrayList<>();
      try {
        stores.add(new GrowthStore.Idxkit(dir.resolve("idxkit"), changeBuffer));
        if (sqlite) {
          stores.add(new GrowthStore.Sqlite(dir.resolve("growth.sqlite")));
        }
        for (GrowthStore s : stores) {
          r.note(s.settings());
          System.out.println("growth: " + s.settings());
        }
        System.out.printf(
            Locale.ROOT,
            "%-7s %4s %12s %9s %9s %9s %10s %10s %10s%n",
            "store",
            "run",
            "rows",
            "wall s",
            "user s",
            "sys s",
            "file MiB",
            "data MiB",
            "rows/s");
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int run = 1; run <= runs; run++) {
          long runSeed = seeds.nextLong();
          long[][] keys = new long[perRun][GrowthStore.KEYS];
          String[] pads = new String[perRun];
          generate(new SplittableRandom(runSeed), keys, pads);
          long from = (long) (run - 1) * perRun;
          for (GrowthStore s : stores) {
            ProcessTimes t0 = ProcessTimes.now();
            s.insert(from, keys, pads, batch);
            double[] t = ProcessTimes.now().secondsSince(t0);
            long bytes = s.fileBytes();
            long data = s.dataBytes();
            r.row(
                s.name(),
                run,
                from + perRun,
                round(t[0]),
                round(t[1]),
                round(t[2]),
                bytes,
                data,
                Math.round(perRun / t[0]));
            System.out.printf(
                Locale.ROOT,
                "%-7s %4d %,12d %9.2f %9.2f %9.2f %10.1f %10.1f %,10.0f%n",
                s.name(),
                run,
                from + perRun,
                t[0],
                t[1],
                t[2],
                bytes / 1048576.0,
                data / 1048576.0,
                perRun / t[0]);
          }
          out.write(r);
        }
        // Closing is part of the work: idxkit merges what its change buffers still hold and
        // writes its last checkpoint, SQLite checkpoints its WAL. Timed, and reported beside the
        // runs, so that work deferred past the last run is not left out of the figures.
        for (GrowthStore s : stores) {
          ProcessTimes t0 = ProcessTimes.now();
          s.close();
          double[] t = ProcessTimes.now().secondsSince(t0);
          String line =
              String.format(
                  Locale.ROOT,
                  "%s: close (deferred work: merges, last checkpoint) %.2f s wall, %.2f s CPU;"
                      + " all runs and the close %.2f s",
                  s.name(),
                  t[0],
                  t[1] + t[2],
                  totalSeconds(r, s.name()) + t[0]);
          System.out.println("growth: " + line);
          r.note(line);
        }
      } finally {
        for (GrowthStore s : stores) {
          s.close();
        }
      }
      String goal = goal(r, runs);
      System.out.println("growth: " + goal);
      r.note(goal);
      out.write(r);
      out.chart(
          chart(r, stores.size() > 1, "seconds", "Time per run", "seconds per run"), "growth");
      out.chart(
          chart(
              r,
              stores.size() > 1,
              "data_bytes",
              "Table and index files after each run (log excluded)",
              "bytes"),
          "growth-size");
      out.printFiles(System.out);
    } finally {
      if (a.flag("--keep")) {
        dir.keep();
        System.out.println("growth: stores kept in " + dir.path());
      } else {
        dir.close();
      }
    }
  }

  /** Fills one run's rows: nine independent random keys and a random lowercase pad each. */
  static void generate(SplittableRandom rnd, long[][] keys, String[] pads) {
    char[] pad = new char[PAD_CHARS];
    for (int i = 0; i < keys.length; i++) {
      for (int k = 0; k < GrowthStore.KEYS; k++) {
        keys[i][k] = rnd.nextLong();
      }
      for (int c = 0; c < PAD_CHARS; c++) {
        pad[c] = (char) ('a' + rnd.nextInt(26));
      }
      pads[i] = new String(pad);
    }
  }

  /** The goal for idxkit: the last run at most 1.3 times run 3. */
  static String goal(Results r, int runs) {
    if (runs < 4) {
      return "goal (last run <= 1.3 x run 3) not evaluated: fewer than 4 runs";
    }
    double run3 = seconds(r, "idxkit", 3);
    double last = seconds(r, "idxkit", runs);
    double ratio = last / run3;
    return String.format(
        Locale.ROOT,
        "goal: idxkit run %d took %.2f s, run 3 %.2f s: ratio %.2f (goal <= 1.30: %s)",
        runs,
        last,
        run3,
        ratio,
        ratio <= 1.3 ? "met" : "not met");
  }

  private static double totalSeconds(Results r, String store) {
    double sum = 0;
    for (List<Object> row : r.rows()) {
      if (row.get(0).equals(store)) {
        sum += ((Number) row.get(3)).doubleValue();
      }
    }
    return sum;
  }

  private static double seconds(Results r, String store, int run) {
    for (List<Object> row : r.rows()) {
      if (row.get(0).equals(store) && ((Number) row.get(1)).intValue() == run) {
        return ((Number) row.get(3)).doubleValue();
      }
    }
    throw new IllegalStateException("no row for " + store + " run " + run);
  }

  private static Chart chart(Results r, boolean sqlite, String column, String title, String y) {
    Chart c = Chart.line(title + " (9 random indexed keys)", "run", y);
    c.series(r, "idxkit", "run", column, row -> row.get(0).equals("idxkit"));
    if (sqlite) {
      c.series(r, "SQLite", "run", column, row -> row.get(0).equals("sqlite"));
    }
    return c;
  }

  private static double round(double v) {
    return v < 0 ? v : Math.round(v * 1000) / 1000.0;
  }
}
