package dev.idxkit.loader.input;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * A chunk's records already encoded as heap records, with the line and resume point of each and its
 * rejects: what {@link Chunk#parseEncoded} makes without a Java object per value, and what the
 * loader's parse-then-encode path builds too.
 *
 * <p>Layout: the records back to back in {@link #data()}; record {@code i} is {@code data[end(i-1),
 * end(i))} ({@code end(-1)} = 0), empty for a reject. Resume points in parallel arrays; rejects in
 * a sparse array, null where the record is a row.
 *
 * <p>Reuse: a builder given {@link Spares} takes the arrays of an {@link #release() released}
 * instance instead of allocating (the records of a 1 MiB chunk need a 1 MiB array, which G1
 * allocates outside the young generation, often in memory never touched before: a clear and page
 * faults per chunk on the parse threads).
 */
public final class EncodedRows {
  private final int count;
  private final byte[] data;
  private final int[] end;
  private final long[] line;
  private final long[] resumeOffset;
  private final long[] resumeLine;
  private final RejectedRow[] rejects;
  private final Spares spares;
  private boolean released;

  private EncodedRows(Builder b) {
    this.count = b.count;
    this.data = b.data;
    this.end = b.end;
    this.line = b.line;
    this.resumeOffset = b.resumeOffset;
    this.resumeLine = b.resumeLine;
    this.rejects = b.rejects;
    this.spares = b.spares;
  }

  /**
   * Says that the caller is done with these rows, so that a later builder may reuse their arrays;
   * nothing of this instance may be read afterwards (rejects already taken stay valid). At most
   * once; a no-op without spares.
   */
  public void release() {
    if (spares != null && !released) {
      released = true;
      spares.offer(this);
    }
  }

  /**
   * Arrays of released rows, waiting for the next builder: shared by the parse threads of one
   * input, which build, and the loading thread, which releases. At most {@value #MAX} wait.
   */
  public static final class Spares {
    private static final int MAX = 8;
    private final ArrayDeque<EncodedRows> free = new ArrayDeque<>();

    synchronized EncodedRows poll() {
      return free.poll();
    }

    synchronized void offer(EncodedRows r) {
      if (free.size() < MAX) {
        free.push(r);
      }
    }
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
    private final Spares spares;

    /**
     * @param records how many records to expect (a hint)
     * @param bytes how many bytes of records to expect (a hint)
     */
    public Builder(int records, int bytes) {
      this(records, bytes, null);
    }

    /**
     * A builder that reuses the arrays of rows released to {@code spares} (null: none) when they
     * are large enough, and whose rows go back there when released.
     */
    public Builder(int records, int bytes, Spares spares) {
      this.spares = spares;
      int n = Math.max(1, records);
      int size = Math.max(64, bytes);
      EncodedRows old = spares == null ? null : spares.poll();
      data = old != null && old.data.length >= size ? old.data : new byte[size];
      if (old != null && old.end.length >= n) {
        end = old.end;
        line = old.line;
        resumeOffset = old.resumeOffset;
        resumeLine = old.resumeLine;
      } else {
        end = new int[n];
        line = new long[n];
        resumeOffset = new long[n];
        resumeLine = new long[n];
      }
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
