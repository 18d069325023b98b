package dev.idxkit.loader.internal;

import dev.idxkit.loader.input.RejectedRow;

/**
 * Where the loading thread puts rows: {@link BulkSink} (heap pages through a bulk session) or
 * {@link LiveSink} (transactions). Call order: {@link #begin}, then for each batch {@link #append}
 * per row and {@link #endBatch}, with {@link #checkpoint} wherever one is due; then {@link #finish}
 * - or {@link #abort()} to stop with what was made durable last; {@link #close()} in any case.
 * Single-threaded: the loading thread only.
 */
public interface RowSink extends AutoCloseable {
  /** Makes {@code start} (the load's first checkpoint, or the resumed one) durable. */
  void begin(ResumeState start);

  /**
   * Adds row {@code i} of {@code batch}; returns null, or a reject if the row cannot go in (live
   * mode: a duplicate unique key).
   */
  RejectedRow append(RecordBatch batch, int i);

  /**
   * The batch is done; {@code state} says where the input stands after it. Returns true if the sink
   * committed the batch with {@code state} (live mode), so that the database now holds that state;
   * false if rows wait for the next checkpoint (bulk modes).
   */
  boolean endBatch(ResumeState state);

  /** Makes every row so far and {@code state} durable, together. */
  void checkpoint(ResumeState state);

  /**
   * Makes every row so far durable together with {@code last}: the resume point to keep (the
   * deferred build remains) or null to remove it (the load is done).
   */
  void finish(ResumeState last);

  /** Abandons whatever is not durable yet; the database keeps the last checkpoint. */
  void abort();

  @Override
  void close();
}
