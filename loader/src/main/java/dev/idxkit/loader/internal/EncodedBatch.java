package dev.idxkit.loader.internal;

import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.RecordLayout;
import dev.idxkit.loader.input.Batch;
import dev.idxkit.loader.input.EncodedRows;
import dev.idxkit.loader.input.InputRecord;
import dev.idxkit.loader.input.InputRow;
import dev.idxkit.loader.input.RejectedRow;
import java.util.List;

/**
 * A parsed chunk with its rows already encoded as heap records, for the bulk modes: the parse
 * thread encodes, so the loading thread only copies bytes into pages. The records come either
 * straight from the input's bytes ({@link dev.idxkit.loader.input.Chunk#parseEncoded}, no Java
 * object per value) or from parsed values ({@link #encode}), whose values then die young on the
 * parse thread.
 */
public final class EncodedBatch implements RecordBatch {
  private final EncodedRows rows;
  private final long parseCpuNanos;
  private final long encodeCpuNanos;

  public EncodedBatch(EncodedRows rows, long parseCpuNanos, long encodeCpuNanos) {
    this.rows = rows;
    this.parseCpuNanos = parseCpuNanos;
    this.encodeCpuNanos = encodeCpuNanos;
  }

  /**
   * Encodes the rows of {@code batch} (on the calling parse thread). A row that cannot be encoded
   * or whose key would be too long for an index becomes a reject with its line.
   */
  public static EncodedBatch encode(
      Batch batch, RecordLayout layout, KeyLengthGuard guard, long parseCpuNanos, CpuClock clock) {
    long t0 = clock.now();
    List<InputRecord> records = batch.records();
    int n = records.size();
    EncodedRows.Builder out = new EncodedRows.Builder(n, n * (layout.minLength() + 48));
    GrowableBytes scratch = new GrowableBytes(layout.minLength() + 256);
    KeyLengthGuard.Checker checker = guard.nothingToCheck() ? null : guard.checker();
    for (int i = 0; i < n; i++) {
      InputRecord r = records.get(i);
      if (r instanceof InputRow row) {
        String tooLong = checker == null ? null : checker.check(row.values());
        if (tooLong != null) {
          out.addReject(reject(row, tooLong));
          continue;
        }
        try {
          layout.encode(row.values(), scratch);
        } catch (IdxkitException e) {
          out.addReject(reject(row, e.getMessage()));
          continue;
        }
        out.addRow(
            scratch.array(), 0, scratch.length(), row.line(), row.resumeOffset(), row.resumeLine());
      } else {
        out.addReject((RejectedRow) r);
      }
    }
    return new EncodedBatch(out.build(), parseCpuNanos, clock.now() - t0);
  }

  private static RejectedRow reject(InputRow row, String reason) {
    return new RejectedRow(row.line(), null, null, reason, row.resumeOffset(), row.resumeLine());
  }

  @Override
  public int count() {
    return rows.count();
  }

  @Override
  public void release() {
    rows.release();
  }

  @Override
  public RejectedRow reject(int i) {
    return rows.reject(i);
  }

  /** The encoded records of every row, back to back. */
  public byte[] data() {
    return rows.data();
  }

  /** Where record {@code i} starts in {@link #data()}. */
  public int start(int i) {
    return rows.start(i);
  }

  /** Where record {@code i} ends in {@link #data()}. */
  public int end(int i) {
    return rows.end(i);
  }

  /** The 1-based input line where record {@code i} starts (the row number for the generator). */
  public long line(int i) {
    return rows.line(i);
  }

  @Override
  public long resumeOffset(int i) {
    return rows.resumeOffset(i);
  }

  @Override
  public long resumeLine(int i) {
    return rows.resumeLine(i);
  }

  @Override
  public long parseCpuNanos() {
    return parseCpuNanos;
  }

  @Override
  public long encodeCpuNanos() {
    return encodeCpuNanos;
  }
}
