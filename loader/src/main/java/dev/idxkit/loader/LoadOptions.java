package dev.idxkit.loader;

import dev.idxkit.core.InvalidInputException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Everything a {@link Loader} run is told; {@link #of} gives the defaults and the {@code with...}
 * methods change one thing each (a picocli command maps its options onto them one by one).
 *
 * @param table the target table (created beforehand with DDL)
 * @param input where the rows come from ({@link LoadInput#csv}, {@link LoadInput#jsonLines}, {@link
 *     LoadInput#tpch})
 * @param indexMode what happens to the table's indexes (default {@link IndexMode#DEFERRED})
 * @param startMode how an unfinished earlier load of the table is treated (default {@link
 *     StartMode#NEW}: refuse to start if there is one)
 * @param checkpointRows publish a checkpoint after this many records (rows and rejects) since the
 *     last one (default 1,000,000)
 * @param checkpointBytes also after this many input bytes since the last one, for file inputs
 *     (default 256 MiB); whichever comes first
 * @param rejectFile where rejected rows are written, one line each ({@link
 *     dev.idxkit.loader.internal.RejectWriter} documents the format); null to only count them (the
 *     report keeps the first few)
 * @param maxErrors the load stops as {@link LoadOutcome#TOO_MANY_ERRORS} when more rows than this
 *     have been rejected (counting rejects before a resume); -1 (default) for no limit
 * @param parseThreads threads that parse chunks while the calling thread cuts and appends (default:
 *     the number of cores)
 */
public record LoadOptions(
    String table,
    LoadInput input,
    IndexMode indexMode,
    StartMode startMode,
    long checkpointRows,
    long checkpointBytes,
    Path rejectFile,
    long maxErrors,
    int parseThreads) {
  public static final long DEFAULT_CHECKPOINT_ROWS = 1_000_000;
  public static final long DEFAULT_CHECKPOINT_BYTES = 256L << 20;
  public static final int MAX_PARSE_THREADS = 256;

  public LoadOptions {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(indexMode, "indexMode");
    Objects.requireNonNull(startMode, "startMode");
    if (checkpointRows < 1) {
      throw new InvalidInputException(
          "--checkpoint-rows : " + checkpointRows + " (expected: >= 1)");
    }
    if (checkpointBytes < 1) {
      throw new InvalidInputException(
          "--checkpoint-mb (in bytes) : " + checkpointBytes + " (expected: >= 1)");
    }
    if (maxErrors < -1) {
      throw new InvalidInputException(
          "--max-errors : " + maxErrors + " (expected: >= 0, or -1 for no limit)");
    }
    if (parseThreads < 1 || parseThreads > MAX_PARSE_THREADS) {
      throw new InvalidInputException(
          "--threads : " + parseThreads + " (expected: 1.." + MAX_PARSE_THREADS + ")");
    }
  }

  /** Defaults for loading {@code input} into {@code table}. */
  public static LoadOptions of(String table, LoadInput input) {
    return new LoadOptions(
        table,
        input,
        IndexMode.DEFERRED,
        StartMode.NEW,
        DEFAULT_CHECKPOINT_ROWS,
        DEFAULT_CHECKPOINT_BYTES,
        null,
        -1,
        Math.min(MAX_PARSE_THREADS, Runtime.getRuntime().availableProcessors()));
  }

  public LoadOptions withIndexMode(IndexMode m) {
    return new LoadOptions(
        table,
        input,
        m,
        startMode,
        checkpointRows,
        checkpointBytes,
        rejectFile,
        maxErrors,
        parseThreads);
  }

  public LoadOptions withStartMode(StartMode m) {
    return new LoadOptions(
        table,
        input,
        indexMode,
        m,
        checkpointRows,
        checkpointBytes,
        rejectFile,
        maxErrors,
        parseThreads);
  }

  public LoadOptions withCheckpointRows(long rows) {
    return new LoadOptions(
        table,
        input,
        indexMode,
        startMode,
        rows,
        checkpointBytes,
        rejectFile,
        maxErrors,
        parseThreads);
  }

  /** Checkpoint every {@code megabytes} MiB of input (file inputs). */
  public LoadOptions withCheckpointMegabytes(long megabytes) {
    if (megabytes < 1 || megabytes > Long.MAX_VALUE >> 20) {
      throw new InvalidInputException("--checkpoint-mb : " + megabytes + " (expected: >= 1)");
    }
    return withCheckpointBytes(megabytes << 20);
  }

  public LoadOptions withCheckpointBytes(long bytes) {
    return new LoadOptions(
        table,
        input,
        indexMode,
        startMode,
        checkpointRows,
        bytes,
        rejectFile,
        maxErrors,
        parseThreads);
  }

  public LoadOptions withRejectFile(Path file) {
    return new LoadOptions(
        table,
        input,
        indexMode,
        startMode,
        checkpointRows,
        checkpointBytes,
        file,
        maxErrors,
        parseThreads);
  }

  public LoadOptions withMaxErrors(long max) {
    return new LoadOptions(
        table,
        input,
        indexMode,
        startMode,
        checkpointRows,
        checkpointBytes,
        rejectFile,
        max,
        parseThreads);
  }

  public LoadOptions withParseThreads(int threads) {
    return new LoadOptions(
        table,
        input,
        indexMode,
        startMode,
        checkpointRows,
        checkpointBytes,
        rejectFile,
        maxErrors,
        threads);
  }
}
