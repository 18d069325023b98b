package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.key.Keys;
import java.util.Arrays;

/**
 * The in-memory sort buffer of one sort group: variable-length entries appended until a fixed byte
 * budget is reached, then sorted in place and streamed out (to a {@link RunWriter}, or straight
 * into the final merge when the whole group fits).
 *
 * <p>Call order: {@link #add} until it returns false (full); {@link #sort()}; {@link #source()} (or
 * {@link #source(byte[], byte[])} for a key range) to read the entries in order; {@link #clear()}
 * to reuse the memory for the next batch. Not thread-safe: one filler at a time.
 *
 * <p>Layout: the entry bytes are appended to one byte array; beside it one long array holds two
 * longs per entry, the entry's 8-byte normalized prefix ({@link Keys#prefix8}, computed by {@code
 * add} while the bytes are in cache) and {@code offset << 32 | length}. The sort ({@link
 * PrefixSort}: MSD radix on the prefix, then full comparison of equal-prefix runs) permutes those
 * pairs only; entry bytes never move.
 *
 * <p>Memory: {@link #bytesUsed()} = entry bytes + {@value #INDEX_BYTES_PER_ENTRY} bytes per entry,
 * and {@code add} refuses an entry that would take it past the capacity. The two arrays grow by
 * doubling, clipped so that together they never exceed the capacity (when one must grow and the
 * other has slack, the other is trimmed first); while an array grows, the old one lives until the
 * copy is done. A buffer that is never filled never allocates its full capacity. Sorting allocates
 * 6 KB of counters.
 */
public final class EntryBuffer {
  /** Index bytes per entry: the prefix and the packed offset and length. */
  public static final int INDEX_BYTES_PER_ENTRY = 16;

  /** Arrays are limited to int indexes; stay under the VM's largest array. */
  public static final long MAX_CAPACITY = Integer.MAX_VALUE - 8;

  private static final int MIN_DATA = 64 * 1024;
  private static final int MIN_ENTRIES = 4096;
  private static final byte[] NO_BYTES = {};
  private static final long[] NO_LONGS = {};

  private final long capacity;
  private byte[] data = NO_BYTES;
  private int dataLen;
  private long[] idx = NO_LONGS;
  private int n;
  private boolean sorted = true;
  private boolean prefixesLoaded = true;

  public EntryBuffer(long capacityBytes) {
    if (capacityBytes < 1024 || capacityBytes > MAX_CAPACITY) {
      throw new IllegalArgumentException(
          "capacityBytes : " + capacityBytes + " (expected: 1024.." + MAX_CAPACITY + ")");
    }
    this.capacity = capacityBytes;
  }

  /**
   * Copies {@code b[off, off+len)} in; false when it would take the buffer past its capacity, and
   * then nothing was added. An entry larger than the whole capacity is never accepted.
   */
  public boolean add(byte[] b, int off, int len) {
    if (len < 0 || off < 0 || off + len > b.length) {
      throw new IndexOutOfBoundsException(
          "entry [" + off + ", " + off + "+" + len + ") of a " + b.length + "-byte array");
    }
    if ((long) dataLen + len + (long) INDEX_BYTES_PER_ENTRY * (n + 1) > capacity) {
      return false;
    }
    ensureRoom(len);
    System.arraycopy(b, off, data, dataLen, len);
    idx[2 * n] = Keys.prefix8(b, off, len);
    idx[2 * n + 1] = PrefixSort.ref(dataLen, len);
    dataLen += len;
    n++;
    sorted = n <= 1;
    return true;
  }

  public boolean add(byte[] entry) {
    return add(entry, 0, entry.length);
  }

  /** Sorts the entries into unsigned byte order. Equal entries are all kept. */
  public void sort() {
    if (!prefixesLoaded) {
      for (int i = 0; i < n; i++) {
        long r = idx[2 * i + 1];
        idx[2 * i] = Keys.prefix8(data, PrefixSort.offsetOf(r), PrefixSort.lengthOf(r));
      }
    }
    PrefixSort.sort(data, idx, n);
    // The sort leaves deeper keys in the prefix slots of tied entries.
    prefixesLoaded = false;
    sorted = true;
  }

  public boolean isSorted() {
    return sorted;
  }

  /** All entries in sorted order; {@link #sort()} first. The buffer must not change meanwhile. */
  public EntrySource source() {
    checkSorted();
    return new Cursor(0, n);
  }

  /**
   * The sorted entries in {@code [from, to)}; a null bound is open. Found by binary search, for
   * merging one key range of a group on its own thread (see {@link Splitters}).
   */
  public EntrySource source(byte[] from, byte[] to) {
    checkSorted();
    int lo = from == null ? 0 : lowerBound(from);
    int hi = to == null ? n : lowerBound(to);
    return new Cursor(lo, Math.max(lo, hi));
  }

  /** Number of entries. */
  public int size() {
    return n;
  }

  /** Entry bytes plus {@value #INDEX_BYTES_PER_ENTRY} per entry: what counts against capacity. */
  public long bytesUsed() {
    return dataLen + (long) INDEX_BYTES_PER_ENTRY * n;
  }

  public long capacity() {
    return capacity;
  }

  /** Bytes of the arrays actually allocated now (at most the capacity). */
  public long bytesAllocated() {
    return data.length + 8L * idx.length;
  }

  /** A copy of the {@code i}-th entry in the current order (sorted order after {@link #sort}). */
  public byte[] entryAt(int i) {
    if (i < 0 || i >= n) {
      throw new IndexOutOfBoundsException("entry " + i + " of " + n);
    }
    long r = idx[2 * i + 1];
    int o = PrefixSort.offsetOf(r);
    return Arrays.copyOfRange(data, o, o + PrefixSort.lengthOf(r));
  }

  /** Forgets every entry and keeps the arrays for the next batch. */
  public void clear() {
    n = 0;
    dataLen = 0;
    sorted = true;
    prefixesLoaded = true;
  }

  private void checkSorted() {
    if (!sorted) {
      throw new IllegalStateException("entry buffer is not sorted: call sort() before source()");
    }
  }

  private int lowerBound(byte[] key) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      long r = idx[2 * mid + 1];
      int o = PrefixSort.offsetOf(r);
      if (Keys.compare(data, o, PrefixSort.lengthOf(r), key, 0, key.length) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Grows the arrays so one more entry of {@code len} bytes fits, never past the capacity. */
  private void ensureRoom(int len) {
    int needData = dataLen + len;
    int needLongs = 2 * (n + 1);
    if (needData > data.length) {
      long limit = capacity - 8L * idx.length;
      if (needData > limit) {
        idx = Arrays.copyOf(idx, needLongs); // give back the index's slack
        limit = capacity - 8L * idx.length;
      }
      long want = Math.max(needData, Math.min(Math.max(2L * data.length, MIN_DATA), limit));
      data = Arrays.copyOf(data, (int) want);
    }
    if (needLongs > idx.length) {
      long limitLongs = (capacity - data.length) / 8;
      if (needLongs > limitLongs) {
        data = Arrays.copyOf(data, needData); // give back the data's slack
        limitLongs = (capacity - data.length) / 8;
      }
      long want =
          Math.max(needLongs, Math.min(Math.max(2L * idx.length, 2L * MIN_ENTRIES), limitLongs));
      idx = Arrays.copyOf(idx, (int) (want & ~1L));
    }
  }

  /** Streams [lo, hi) of the index. */
  private final class Cursor implements EntrySource {
    private int i;
    private final int end;
    private int off;
    private int len;

    Cursor(int lo, int hi) {
      this.i = lo - 1;
      this.end = hi;
    }

    @Override
    public boolean next() {
      if (i + 1 >= end) {
        i = end;
        return false;
      }
      i++;
      long r = idx[2 * i + 1];
      off = PrefixSort.offsetOf(r);
      len = PrefixSort.lengthOf(r);
      return true;
    }

    @Override
    public byte[] array() {
      return data;
    }

    @Override
    public int offset() {
      return off;
    }

    @Override
    public int length() {
      return len;
    }

    @Override
    public void close() {
      i = end;
    }
  }
}
