package dev.idxkit.loader.internal;

import dev.idxkit.loader.input.RejectedRow;

/**
 * One parsed chunk as the loading thread consumes it: records in input order, each a row or a
 * reject, each with the resume point just after it. {@link EncodedBatch} (bulk modes: rows already
 * encoded as records) and {@link ValueBatch} (live mode: rows as values) implement it.
 */
public interface RecordBatch {
  /** Records in the batch. */
  int count();

  /** The reject at {@code i}, or null if record {@code i} is a row. */
  RejectedRow reject(int i);

  /** Byte offset (files) or row count (generator) after record {@code i}. */
  long resumeOffset(int i);

  /** Line (or row number) after record {@code i}. */
  long resumeLine(int i);

  /** CPU time the parse thread spent turning the chunk into values. */
  long parseCpuNanos();

  /** CPU time the parse thread spent encoding the values into records (0 if it did not). */
  long encodeCpuNanos();

  /**
   * The loading thread is done with the batch: every record has gone to the sink or the reject
   * file, which copy what they keep. Its memory may then be reused; the batch must not be read
   * again. Optional.
   */
  default void release() {}
}
