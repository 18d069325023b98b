package dev.idxkit.loader.input;

import java.util.Arrays;

/**
 * A chunk's records already encoded as heap records, with the line and resume point of each and its
 * rejects: what {@link Chunk#parseEncoded} makes without a Java object per value, and what the
 * loader's parse-then-encode path builds too.
 *
 * <p>Layout: the records back to back in {@link #data()}; record {@code i} is {@code data[end(i-1),
 * end(i))} ({@code end(-1)} = 0), empty for a reject. Resume points in parallel arrays; rejects in
 * a sparse array, null where the record is a row.
 */
public final class EncodedRows {
  private final int count;
  private final byte[] data;
  private final int[] end;
  private final long[] line;
  private final long[] resumeOffset;
  private final long[] resumeLine;
  private final RejectedRow[] rejects;

  private EncodedRows(Builder b) {
    this.count = b.count;
    this.data = b.data;
    this.end = b.end;
    this.line = b.line;
    this.resumeOffset = b.resumeOffset;
    this.resumeLine = b.resumeLine;
    this.rejects = b.rejects;
  }

  public int count() {
    return count;
  }

  /** The reject at {@code i}, or null if record {@code i} is a row. */
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

  public long line(int i) {
    return line[i];
  }

  public long resumeOffset(int i) {
    return resumeOffset[i];
  }

  public long resumeLine(int i) {
    return resumeLine[i];
  }

  /** Collects records in input order; arrays grow as needed. */
  public static final class Builder {
    private int count;
    private byte[] data;
    private int length;
    private int[] end;
    private long[] line;
    private long[] resumeOffset;
    private long[] resumeLine;
    private RejectedRow[] rejects;

    /**
     * @param records how many records to expect (a hint)
     * @param bytes how many bytes of records to expect (a hint)
     */
    public Builder(int records, int bytes) {
      int n = Math.max(1, records);
      data = new byte[Math.max(64, bytes)];
      end = new int[n];
      line = new long[n];
      resumeOffset = new long[n];
      resumeLine = new long[n];
    }

    /** Appends a row whose record is {@code src[off, off + len)}. */
    public void addRow(
        byte[] src, int off, int len, long rowLine, long rowResumeOffset, long rowResumeLine) {
      if (length + len > data.length) {
        data = Arrays.copyOf(data, Math.max(data.length * 2, length + len));
      }
      System.arraycopy(src, off, data, length, len);
      length += len;
      add(rowLine, rowResumeOffset, rowResumeLine);
    }

    /** Appends a reject. */
    public void addReject(RejectedRow r) {
      int i = add(r.line(), r.resumeOffset(), r.resumeLine());
      if (rejects == null) {
        rejects = new RejectedRow[end.length];
      }
      rejects[i] = r;
    }

    private int add(long rowLine, long rowResumeOffset, long rowResumeLine) {
      if (count == end.length) {
        int n = count * 2;
        end = Arrays.copyOf(end, n);
        line = Arrays.copyOf(line, n);
        resumeOffset = Arrays.copyOf(resumeOffset, n);
        resumeLine = Arrays.copyOf(resumeLine, n);
        if (rejects != null) {
          rejects = Arrays.copyOf(rejects, n);
        }
      }
      int i = count++;
      end[i] = length;
      line[i] = rowLine;
      resumeOffset[i] = rowResumeOffset;
      resumeLine[i] = rowResumeLine;
      return i;
    }

    public EncodedRows build() {
      return new EncodedRows(this);
    }
  }
}
