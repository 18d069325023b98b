package dev.idxkit.loader.internal;

import dev.idxkit.loader.input.Batch;
import dev.idxkit.loader.input.InputRecord;
import dev.idxkit.loader.input.InputRow;
import dev.idxkit.loader.input.RejectedRow;
import java.util.List;

/** A parsed chunk with its rows as values, for live mode (inserts encode as they go). */
public final class ValueBatch implements RecordBatch {
  private final List<InputRecord> records;
  private final long parseCpuNanos;

  public ValueBatch(Batch batch, long parseCpuNanos) {
    this.records = batch.records();
    this.parseCpuNanos = parseCpuNanos;
  }

  @Override
  public int count() {
    return records.size();
  }

  /** The row at {@code i}; call only where {@link #reject(int)} is null. */
  public InputRow row(int i) {
    return (InputRow) records.get(i);
  }

  @Override
  public RejectedRow reject(int i) {
    return records.get(i) instanceof RejectedRow r ? r : null;
  }

  @Override
  public long resumeOffset(int i) {
    InputRecord r = records.get(i);
    return r instanceof InputRow row ? row.resumeOffset() : ((RejectedRow) r).resumeOffset();
  }

  @Override
  public long resumeLine(int i) {
    InputRecord r = records.get(i);
    return r instanceof InputRow row ? row.resumeLine() : ((RejectedRow) r).resumeLine();
  }

  @Override
  public long parseCpuNanos() {
    return parseCpuNanos;
  }

  @Override
  public long encodeCpuNanos() {
    return 0;
  }
}
