package dev.idxkit.loader;

import dev.idxkit.core.IndexStatus;
import dev.idxkit.loader.input.RejectedRow;
import dev.idxkit.loader.input.ResumePoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a {@link Loader} run did: returned for every outcome but a failure that throws (a bad
 * option, an input that cannot be read, an I/O error - the database then keeps its last checkpoint,
 * as after a crash).
 *
 * <p>"Load" counts ({@code recordsRead}, {@code rowsLoaded}, {@code rejected}) are over the whole
 * load including the runs before a resume; "run" counts and all times are this run's.
 *
 * @param outcome how it ended; {@link LoadOutcome#exitCode()} for a command line
 * @param table the target table
 * @param input the input's name
 * @param indexMode the index mode
 * @param resumed true if this run continued an unfinished load
 * @param startedAt where this run began reading the input
 * @param lastCheckpoint where the load's last checkpoint stands: a resume continues here; null when
 *     the load completed (its resume point is gone)
 * @param recordsRead rows and rejects read (load); after {@link LoadOutcome#TOO_MANY_ERRORS} this
 *     includes the records read after the last checkpoint
 * @param rowsLoaded rows of this load that are in the table (load): for a stopped load, those of
 *     its last checkpoint
 * @param rejected rejected rows (load)
 * @param runRows rows appended or inserted by this run (checkpointed or not)
 * @param runPosition input read by this run: bytes for files, rows for the generator
 * @param positionsAreBytes whether {@code runPosition} is bytes
 * @param checkpoints checkpoints this run made durable (including the start and the end)
 * @param timings where this run's time went
 * @param indexes every index of the table and its status after the run
 * @param rejectFile where rejects were written, or null
 * @param firstRejects the first few rejects of this run (at most {@value #MAX_SHOWN_REJECTS})
 * @param duplicate for {@link LoadOutcome#DUPLICATE_KEYS}, the two rows; else null
 * @param indexBuild what the deferred index build reported, or null if it did not run
 * @param notes what else the user should read: how to continue, how to build inactive indexes
 */
public record LoadReport(
    LoadOutcome outcome,
    String table,
    String input,
    IndexMode indexMode,
    boolean resumed,
    ResumePoint startedAt,
    ResumePoint lastCheckpoint,
    long recordsRead,
    long rowsLoaded,
    long rejected,
    long runRows,
    long runPosition,
    boolean positionsAreBytes,
    int checkpoints,
    LoadTimings timings,
    Map<String, IndexStatus> indexes,
    Path rejectFile,
    List<RejectedRow> firstRejects,
    DuplicateKeys duplicate,
    IndexBuild.Result indexBuild,
    List<String> notes) {
  public static final int MAX_SHOWN_REJECTS = 10;

  public LoadReport {
    indexes = Map.copyOf(indexes);
    firstRejects = List.copyOf(firstRejects);
    notes = List.copyOf(notes);
  }

  /** Seconds spent reading and appending: the run without the index build. */
  public double loadSeconds() {
    return Math.max(1, timings.totalNanos() - timings.indexBuildNanos()) / 1e9;
  }

  /** Rows this run appended per second of loading (index build excluded). */
  public double rowsPerSecond() {
    return runRows / loadSeconds();
  }

  /** Input megabytes (10^6 bytes) read per second of loading; 0 for the generator. */
  public double megabytesPerSecond() {
    return positionsAreBytes ? runPosition / 1e6 / loadSeconds() : 0;
  }

  /** The report as lines for a terminal or a log. */
  public List<String> summaryLines() {
    List<String> out = new ArrayList<>();
    LoadTimings t = timings;
    out.add(
        String.format(
            Locale.ROOT,
            "load %s into %s (index build: %s): %s%s",
            input,
            table,
            indexMode.name().toLowerCase(Locale.ROOT),
            outcome.name().toLowerCase(Locale.ROOT).replace('_', ' '),
            resumed ? ", resumed at line " + startedAt.line() : ""));
    out.add(
        String.format(
            Locale.ROOT,
            "rows: %,d read, %,d loaded, %,d rejected%s",
            recordsRead,
            rowsLoaded,
            rejected,
            rejectFile != null && rejected > 0 ? " (see " + rejectFile + ")" : ""));
    out.add(
        String.format(
            Locale.ROOT,
            "speed: %,.0f rows/s%s over %.2f s of loading; %.2f s in all",
            rowsPerSecond(),
            positionsAreBytes
                ? String.format(Locale.ROOT, ", %.1f MB/s", megabytesPerSecond())
                : "",
            loadSeconds(),
            t.totalNanos() / 1e9));
    out.add(
        String.format(
            Locale.ROOT,
            "time: parse %.2f s + encode %.2f s CPU on parse threads; loading thread: cut %.2f s,"
                + " wait %.2f s, append %.2f s, checkpoints %.2f s (%d); index build %.2f s",
            t.parseCpuNanos() / 1e9,
            t.encodeCpuNanos() / 1e9,
            t.cutNanos() / 1e9,
            t.waitNanos() / 1e9,
            t.appendNanos() / 1e9,
            t.checkpointNanos() / 1e9,
            checkpoints,
            t.indexBuildNanos() / 1e9));
    if (t.processCpuNanos() >= 0) {
      out.add(
          String.format(
              Locale.ROOT,
              "cpu: %.2f s for the process (%,.0f rows per CPU second), %.2f s of it loading,"
                  + " %.2f s on the loading thread",
              t.processCpuNanos() / 1e9,
              runRows / Math.max(1e-9, t.processCpuNanos() / 1e9),
              t.loadProcessCpuNanos() / 1e9,
              t.loadingThreadCpuNanos() / 1e9));
    }
    if (indexBuild != null && !indexBuild.summary().isEmpty()) {
      out.add("index build: " + indexBuild.summary());
    }
    if (!indexes.isEmpty()) {
      List<String> states = new ArrayList<>();
      indexes.entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(
              e -> states.add(e.getKey() + " " + e.getValue().name().toLowerCase(Locale.ROOT)));
      out.add("indexes: " + String.join(", ", states));
    }
    for (RejectedRow r : firstRejects) {
      out.add("rejected: " + r.describe());
    }
    if (duplicate != null) {
      out.addAll(List.of(duplicate.describe().split("\n")));
    }
    out.addAll(notes);
    return out;
  }
}
