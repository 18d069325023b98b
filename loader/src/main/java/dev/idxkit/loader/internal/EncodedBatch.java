package dev.idxkit.loader.internal;

import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.RecordLayout;
import dev.idxkit.loader.input.Batch;
import dev.idxkit.loader.input.InputRecord;
import dev.idxkit.loader.input.InputRow;
import dev.idxkit.loader.input.RejectedRow;
import java.util.Arrays;
import java.util.List;

/**
 * A parsed chunk with its rows already encoded as heap records, for the bulk modes: the parse
 * thread encodes, so the loading thread only copies bytes into pages.
 *
 * <p>Layout: the records of the rows back to back in {@code data}; record {@code i} is {@code
 * data[end[i-1], end[i])} ({@code end[-1]} = 0), empty for a reject. Resume points in two parallel
 * arrays; rejects in a sparse array, null where the record is a row. The parsed values are dropped
 * once encoded, so they die young on the parse thread.
 */
public final class EncodedBatch implements RecordBatch {
  private final int count;
  private final byte[] data;
  private final int[] end;
  private final long[] resumeOffset;
  private final long[] resumeLine;
  private final RejectedRow[] rejects;
  private final long parseCpuNanos;
  private final long encodeCpuNanos;

  private EncodedBatch(
      int count,
      byte[] data,
      int[] end,
      long[] resumeOffset,
      long[] resumeLine,
      RejectedRow[] rejects,
      long parseCpuNanos,
      long encodeCpuNanos) {
    this.count = count;
    this.data = data;
    this.end = end;
    this.resumeOffset = resumeOffset;
    this.resumeLine = resumeLine;
    this.rejects = rejects;
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
    int[] end = new int[n];
    long[] resumeOffset = new long[n];
    long[] resumeLine = new long[n];
    RejectedRow[] rejects = null;
    byte[] data = new byte[Math.max(64, n * (layout.minLength() + 48))];
    int length = 0;
    GrowableBytes scratch = new GrowableBytes(layout.minLength() + 256);
    KeyLengthGuard.Checker checker = guard.nothingToCheck() ? null : guard.checker();
    for (int i = 0; i < n; i++) {
      InputRecord r = records.get(i);
      RejectedRow reject = null;
      if (r instanceof InputRow row) {
        resumeOffset[i] = row.resumeOffset();
        resumeLine[i] = row.resumeLine();
        String tooLong = checker == null ? null : checker.check(row.values());
        if (tooLong != null) {
          reject = reject(row, tooLong);
        } else {
          try {
            layout.encode(row.values(), scratch);
            int len = scratch.length();
            if (length + len > data.length) {
              data = Arrays.copyOf(data, Math.max(data.length * 2, length + len));
            }
            System.arraycopy(scratch.array(), 0, data, length, len);
            length += len;
          } catch (IdxkitException e) {
            reject = reject(row, e.getMessage());
          }
        }
      } else {
        reject = (RejectedRow) r;
        resumeOffset[i] = reject.resumeOffset();
        resumeLine[i] = reject.resumeLine();
      }
      if (reject != null) {
        if (rejects == null) {
          rejects = new RejectedRow[n];
        }
        rejects[i] = reject;
      }
      end[i] = length;
    }
    return new EncodedBatch(
        n, data, end, resumeOffset, resumeLine, rejects, parseCpuNanos, clock.now() - t0);
  }

  private static RejectedRow reject(InputRow row, String reason) {
    return new RejectedRow(row.line(), null, null, reason, row.resumeOffset(), row.resumeLine());
  }

  @Override
  public int count() {
    return count;
  }

  @Override
  public RejectedRow reject(int i) {
    return rejects == null ? null : rejects[i];
  }

  /** The encoded records of every row, back to back. */
  public byte[] data() {
    return data;
  }

  /** Where record {@code i} starts in {@link #data()}. */
  public int start(int i) {
    return i == 0 ? 0 : end[i - 1];
  }

  /** Where record {@code i} ends in {@link #data()}. */
  public int end(int i) {
    return end[i];
  }

  @Override
  public long resumeOffset(int i) {
    return resumeOffset[i];
  }

  @Override
  public long resumeLine(int i) {
    return resumeLine[i];
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
