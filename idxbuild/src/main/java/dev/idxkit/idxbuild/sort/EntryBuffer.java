package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.spi.Keys;
import java.util.Arrays;

/**
 * The in-memory sort buffer of one sort group: variable-length entries appended until a fixed byte
 * budget is reached, then sorted in place and streamed out (to a {@link RunWriter}, or straight
 * into the final merge when the whole group fits).
 *
 * <p>Call order: {@link #add} until it returns false (full); {@link #sort()}; {@link #compact()} if
 * the buffer is kept for the final merge; {@link #source()} (or {@link #source(byte[], byte[])} for
 * a key range) to read the entries in order; {@link #clear()} to reuse the memory for the next
 * batch. Not thread-safe: one filler at a time.
 *
 * <p>Layout: one byte array, the arena, filled from both ends until they meet:
 *
 * <pre>
 *  0                        dataLen              start = length - 16 n              length
 *  +------------------------+--------------------+----------+----------+-----+----------+
 *  | entry bytes, appended  |        free        | prefix 0 | ref 0    | ... | ref n-1  |
 *  +------------------------+--------------------+----------+----------+-----+----------+
 *                                                 \_ 8 bytes  \_ 8 bytes: offset << 32 | length
 * </pre>
 *
 * Each entry has a 16-byte pair at the top: its 8-byte normalized prefix ({@link Keys#prefix8},
 * computed by {@code add} while the bytes are in cache) and where its bytes are. The sort ({@link
 * PrefixSort}: MSD radix on the prefix, then full comparison of equal-prefix runs) permutes those
 * pairs only; entry bytes do not move (only {@link #compact()} moves them, into sorted order).
 * Pairs are native-order longs read through a {@code VarHandle}; a new pair goes below the others,
 * so before sorting the pairs are in reverse order of arrival.
 *
 * <p>Memory: {@link #bytesUsed()} = entry bytes + {@value #INDEX_BYTES_PER_ENTRY} bytes per entry,
 * and {@code add} refuses an entry that would take it past the capacity, so the buffer fills to its
 * capacity exactly whatever the mix of entry lengths. The arena starts small and doubles, never
 * past the capacity (while it grows, the old arena lives until the copy is done); a buffer that is
 * never filled never allocates its full capacity. Sorting allocates 6 KB of counters.
 */
public final class EntryBuffer {
  /** Index bytes per entry: the prefix and the packed offset and length. */
  public static final int INDEX_BYTES_PER_ENTRY = 16;

  /** Arrays are limited to int indexes; stay under the VM's largest array. */
  public static final long MAX_CAPACITY = Integer.MAX_VALUE - 8;

  private static final int MIN_ARENA = 64 * 1024;
  private static final byte[] NO_BYTES = {};

  private final long capacity;
  private byte[] arena = NO_BYTES;
  private int dataLen;
  private int n;
  private boolean sorted = true;
  private boolean prefixesLoaded = true;
  private int growths;

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
    long need = (long) dataLen + len + (long) INDEX_BYTES_PER_ENTRY * (n + 1);
    if (need > capacity) {
      return false;
    }
    if (need > arena.length) {
      grow(need);
    }
    System.arraycopy(b, off, arena, dataLen, len);
    PrefixSort.putPair(
        arena,
        start() - INDEX_BYTES_PER_ENTRY,
        0,
        Keys.prefix8(b, off, len),
        PrefixSort.ref(dataLen, len));
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
    int base = start();
    if (!prefixesLoaded) {
      for (int i = 0; i < n; i++) {
        long r = PrefixSort.refAt(arena, base, i);
        PrefixSort.putPair(
            arena, base, i, Keys.prefix8(arena, PrefixSort.offsetOf(r), PrefixSort.lengthOf(r)), r);
      }
    }
    PrefixSort.sort(arena, base, n);
    // The sort leaves deeper keys in the prefix slots of tied entries.
    prefixesLoaded = false;
    sorted = true;
  }

  /**
   * Rewrites the sorted entries into a new arena of exactly their size, in sorted order, so that
   * reading them streams through memory instead of jumping around the arena: a kept buffer is read
   * once, in order, by the final merge. Costs one copy (the old arena lives until it is done).
   */
  public void compact() {
    checkSorted();
    int pairs = INDEX_BYTES_PER_ENTRY * n;
    byte[] next = new byte[dataLen + pairs];
    int base = start();
    int nextBase = next.length - pairs;
    int pos = 0;
    for (int i = 0; i < n; i++) {
      long r = PrefixSort.refAt(arena, base, i);
      int len = PrefixSort.lengthOf(r);
      System.arraycopy(arena, PrefixSort.offsetOf(r), next, pos, len);
      PrefixSort.putPair(next, nextBase, i, 0, PrefixSort.ref(pos, len));
      pos += len;
    }
    arena = next;
    prefixesLoaded = false; // a later sort() reloads them
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

  /** Bytes of the arena allocated now (at most the capacity). */
  public long bytesAllocated() {
    return arena.length;
  }

  /** A copy of the {@code i}-th entry in the current order (sorted order after {@link #sort}). */
  public byte[] entryAt(int i) {
    if (i < 0 || i >= n) {
      throw new IndexOutOfBoundsException("entry " + i + " of " + n);
    }
    long r = PrefixSort.refAt(arena, start(), i);
    int o = PrefixSort.offsetOf(r);
    return Arrays.copyOfRange(arena, o, o + PrefixSort.lengthOf(r));
  }

  /** Forgets every entry and keeps the arena for the next batch. */
  public void clear() {
    n = 0;
    dataLen = 0;
    sorted = true;
    prefixesLoaded = true;
  }

  private int start() {
    return arena.length - INDEX_BYTES_PER_ENTRY * n;
  }

  private void checkSorted() {
    if (!sorted) {
      throw new IllegalStateException("entry buffer is not sorted: call sort() before source()");
    }
  }

  private int lowerBound(byte[] key) {
    int base = start();
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      long r = PrefixSort.refAt(arena, base, mid);
      int o = PrefixSort.offsetOf(r);
      if (Keys.compare(arena, o, PrefixSort.lengthOf(r), key, 0, key.length) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * A larger arena (doubling, at most the capacity): the data stays at the front, pairs at the top.
   */
  private void grow(long need) {
    long want = Math.max(need, Math.min(capacity, Math.max(2L * arena.length, MIN_ARENA)));
    byte[] next = new byte[(int) want];
    System.arraycopy(arena, 0, next, 0, dataLen);
    int pairs = INDEX_BYTES_PER_ENTRY * n;
    System.arraycopy(arena, arena.length - pairs, next, next.length - pairs, pairs);
    arena = next;
    growths++;
  }

  /** How many times the arena was reallocated: a test's handle on the growth policy. */
  int growths() {
    return growths;
  }

  /** Streams [lo, hi) of the pairs. */
  private final class Cursor implements EntrySource {
    private final int base = start();
    private final byte[] data = arena;
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
      long r = PrefixSort.refAt(data, base, i);
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
