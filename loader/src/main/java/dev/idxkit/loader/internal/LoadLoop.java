package dev.idxkit.loader.internal;

import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadOptions;
import dev.idxkit.loader.LoadPhase;
import dev.idxkit.loader.LoadProgress;
import dev.idxkit.loader.LoadReport;
import dev.idxkit.loader.input.RejectedRow;
import dev.idxkit.loader.input.ResumePoint;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The loading thread's loop: takes parsed batches in input order and hands each record to the sink
 * or the reject file, counting, and checkpoints when due.
 *
 * <p>Per record: a reject goes to the reject file (and counts against {@code maxErrors}); a row
 * goes to the sink, which may still reject it (live mode: duplicate key). Then the position moves
 * to the record's resume point, and if {@code checkpointRows} records or {@code checkpointBytes} of
 * input have passed since the last checkpoint, the sink makes everything durable with the resume
 * state ({@link RowSink#checkpoint}). Checkpoints fall exactly after a record, so a resume
 * continues exactly after it. Cancellation is looked at after every record: the loop checkpoints
 * where it stands and stops. Exceeding {@code maxErrors} stops it without a checkpoint: the
 * database keeps the last one - in live mode, where every batch commits with its resume point
 * (unsynced), the last batch commit.
 *
 * <p>Thread: the caller's only. Memory: the batches {@link ParseAhead} holds; nothing per row.
 */
public final class LoadLoop {
  /** Why the loop ended. */
  public enum Stop {
    END,
    CANCELLED,
    TOO_MANY_ERRORS
  }

  private final LoadOptions options;
  private final boolean bytes;
  private final long size;
  private final RowSink sink;
  private final RejectWriter rejectFile;
  private final BooleanSupplier cancelled;
  private final LoadListener listener;
  private final long startNanos;
  private final long tableRowsAtStart;
  private final long startPosition;
  private final List<RejectedRow> firstRejects = new ArrayList<>();

  private ResumeState durable;
  // Where the input stands after the last record taken: kept as two longs, not a ResumePoint per
  // record; atLine 0 means the input's start (nothing read yet, no resume point).
  private long atOffset;
  private long atLine;
  private long records;
  private long rows;
  private long rejects;
  private long runRows;
  private long lastCheckpointRecords;
  private long lastCheckpointPosition;
  private int checkpoints;
  private long appendNanos;
  private long checkpointNanos;
  private long parseCpuNanos;
  private long encodeCpuNanos;
  private long cutNanos;
  private long waitNanos;

  /**
   * @param durable the checkpoint the run starts from (already durable)
   * @param tableRowsAtStart the table's row count at the start of this run
   */
  public LoadLoop(
      LoadOptions options,
      RowSink sink,
      RejectWriter rejectFile,
      ResumeState durable,
      long tableRowsAtStart,
      BooleanSupplier cancelled,
      LoadListener listener,
      long startNanos) {
    this.options = options;
    this.bytes = options.input().positionsAreBytes();
    this.size = options.input().size();
    this.sink = sink;
    this.rejectFile = rejectFile;
    this.cancelled = cancelled;
    this.listener = listener;
    this.startNanos = startNanos;
    this.tableRowsAtStart = tableRowsAtStart;
    this.durable = durable;
    ResumePoint at = durable.resume();
    this.atOffset = at == null ? 0 : at.offset();
    this.atLine = at == null ? 0 : at.line();
    this.records = durable.recordsRead();
    this.rows = durable.rowsLoaded();
    this.rejects = durable.rejected();
    this.lastCheckpointRecords = records;
    this.startPosition = at == null ? 0 : at.offset();
    this.lastCheckpointPosition = startPosition;
  }

  /**
   * Runs until the input ends, the load is cancelled (or the thread interrupted: then the interrupt
   * flag is set again on return) or has too many rejects.
   */
  public Stop run(ParseAhead<? extends RecordBatch> ahead) {
    try {
      return loop(ahead);
    } catch (InterruptedException e) {
      // Stop as for cancel(): checkpoint where we stand, then let the caller see the interrupt.
      checkpoint();
      Thread.currentThread().interrupt();
      return Stop.CANCELLED;
    } finally {
      cutNanos = ahead.cutNanos();
      waitNanos = ahead.waitNanos();
    }
  }

  private Stop loop(ParseAhead<? extends RecordBatch> ahead) throws InterruptedException {
    RecordBatch b;
    while ((b = ahead.next()) != null) {
      parseCpuNanos += b.parseCpuNanos();
      encodeCpuNanos += b.encodeCpuNanos();
      long t0 = System.nanoTime();
      int n = b.count();
      for (int i = 0; i < n; i++) {
        RejectedRow reject = b.reject(i);
        if (reject == null) {
          reject = sink.append(b, i);
          if (reject == null) {
            rows++;
            runRows++;
          }
        }
        records++;
        atOffset = b.resumeOffset(i);
        atLine = b.resumeLine(i);
        if (reject != null && reject(reject)) {
          appendNanos += System.nanoTime() - t0;
          return Stop.TOO_MANY_ERRORS;
        }
        if (records - lastCheckpointRecords >= options.checkpointRows()
            || bytes && atOffset - lastCheckpointPosition >= options.checkpointBytes()) {
          appendNanos += System.nanoTime() - t0;
          checkpoint();
          t0 = System.nanoTime();
        }
        if (cancelled.getAsBoolean()) {
          appendNanos += System.nanoTime() - t0;
          checkpoint();
          return Stop.CANCELLED;
        }
      }
      ResumeState batchEnd = current();
      if (sink.endBatch(batchEnd)) {
        durable = batchEnd; // live mode: committed, though not synced; a resume starts here
      }
      b.release();
      appendNanos += System.nanoTime() - t0;
      listener.progress(progress(LoadPhase.LOADING));
    }
    return Stop.END;
  }

  /** Writes a reject; true if that makes too many. */
  private boolean reject(RejectedRow r) {
    rejects++;
    if (firstRejects.size() < LoadReport.MAX_SHOWN_REJECTS) {
      firstRejects.add(r);
    }
    if (rejectFile != null) {
      rejectFile.write(r);
    }
    return tooManyRejects();
  }

  /**
   * A row already in the table is a reject after all (a duplicate key the index build found): it is
   * counted and written to the reject file like any other, and the load's counts lose a row.
   * Returns the durable state with those counts, for the caller to store in the transaction that
   * deletes the row, so that a resume or restart sees the table as it is.
   */
  public ResumeState rejectLoaded(RejectedRow r) {
    reject(r);
    rows--;
    runRows--;
    long rejectLength = rejectFile == null ? -1 : rejectFile.checkpoint();
    durable =
        durable.withProgress(
            durable.resume(),
            durable.recordsRead(),
            durable.rowsLoaded() - 1,
            durable.rejected() + 1,
            durable.tableRowsNow() - 1,
            rejectLength);
    return durable;
  }

  /** True once the rejects are more than {@code --max-errors} allows. */
  public boolean tooManyRejects() {
    return options.maxErrors() >= 0 && rejects > options.maxErrors();
  }

  /** Makes the rows so far and the resume point after the last record durable. */
  public void checkpoint() {
    long t0 = System.nanoTime();
    long rejectLength = rejectFile == null ? -1 : rejectFile.checkpoint();
    ResumeState s = state(rejectLength).counted();
    sink.checkpoint(s);
    durable = s;
    checkpoints++;
    lastCheckpointRecords = records;
    lastCheckpointPosition = atOffset;
    checkpointNanos += System.nanoTime() - t0;
    listener.checkpoint(progress(LoadPhase.LOADING));
  }

  /**
   * The state after the last record read, for the sink's batch commit or the final publish; the
   * reject file is flushed (not synced) so that its length covers the rejects counted.
   */
  public ResumeState current() {
    long rejectLength = -1;
    if (rejectFile != null) {
      rejectFile.flush();
      rejectLength = rejectFile.length();
    }
    return state(rejectLength);
  }

  private ResumeState state(long rejectLength) {
    ResumePoint at = atLine == 0 ? null : new ResumePoint(atOffset, atLine);
    return durable.withProgress(
        at, records, rows, rejects, tableRowsAtStart + runRows, rejectLength);
  }

  /** Makes the run's first checkpoint (the state it was built with) durable. */
  public void begin() {
    long t0 = System.nanoTime();
    sink.begin(durable);
    checkpoints++;
    checkpointNanos += System.nanoTime() - t0;
  }

  /**
   * Makes every row durable with {@code last} as the resume point to keep, or with the resume point
   * removed if {@code last} is null (the load is done).
   */
  public void finish(ResumeState last) {
    long t0 = System.nanoTime();
    ResumeState s = last != null ? last : current().counted();
    sink.finish(last);
    durable = s;
    checkpoints++;
    checkpointNanos += System.nanoTime() - t0;
  }

  public LoadProgress progress(LoadPhase phase) {
    return new LoadProgress(
        phase,
        records,
        rows,
        rejects,
        atOffset,
        size,
        startPosition,
        System.nanoTime() - startNanos,
        checkpoints,
        durable.resume());
  }

  public ResumeState durable() {
    return durable;
  }

  public long records() {
    return records;
  }

  public long rejects() {
    return rejects;
  }

  public long runRows() {
    return runRows;
  }

  /** Input read by this run, in the input's unit. */
  public long runPosition() {
    return atOffset - startPosition;
  }

  public int checkpoints() {
    return checkpoints;
  }

  public List<RejectedRow> firstRejects() {
    return firstRejects;
  }

  public long appendNanos() {
    return appendNanos;
  }

  public long checkpointNanos() {
    return checkpointNanos;
  }

  public long parseCpuNanos() {
    return parseCpuNanos;
  }

  public long encodeCpuNanos() {
    return encodeCpuNanos;
  }

  public long cutNanos() {
    return cutNanos;
  }

  public long waitNanos() {
    return waitNanos;
  }
}
