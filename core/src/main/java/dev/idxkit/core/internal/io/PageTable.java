package dev.idxkit.core.internal.io;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A map from pages, (area, page number), to objects: a radix table per area, chunks of {@value
 * #CHUNK} slots indexed by the page number's low bits, allocated when a page of their range is
 * first put. It replaces a hash map for the page lookups of transactions and of the page index:
 * page numbers in an area are dense, so the pages a transaction or a checkpoint interval touches
 * fill a few chunks, and a lookup is two dependent loads into small arrays (a chunk of 4,096
 * references is 16 KiB), where a hash map of the same pages spreads them over two arrays twice its
 * size and misses the cache on both (26 % of random inserts' CPU once the dirty pages of nine
 * growing trees passed 20,000, in a profile of {@code bench growth}).
 *
 * <p>Worked example: page 8,200 of area 1 lives in {@code areas[1][2][8]} (8,200 = 2 x 4,096 + 8);
 * putting it allocates chunk 2 of area 1 if no page in 8,192..12,287 was there before. Chunks past
 * the first {@value #DIRECT_CHUNKS} of an area (pages from 16,777,216 on, 128 GiB of 8 KiB pages)
 * are found through a hash map instead, so a page number far out never makes an array that long.
 *
 * <p>Iteration and {@link #clear()} follow a list of the keys put ({@code area << 48 | page}), so
 * they cost the entries held, not the chunks; {@link #sortedKeys()} walks the chunks that hold
 * entries, which yields the keys in (area, page) order without a sort.
 *
 * <p>Memory: 16 KiB per chunk touched (kept for reuse across {@link #clear()}), plus the key list.
 * Not thread-safe; the store guards it.
 */
public final class PageTable<V> {
  static final int SHIFT = 12;
  static final int CHUNK = 1 << SHIFT;
  static final int DIRECT_CHUNKS = 4096;
  private static final int MASK = CHUNK - 1;

  private Object[][][] areas = new Object[2][][];
  private int[][] counts = new int[2][];
  // Chunks from DIRECT_CHUNKS on, by area << 36 | chunk.
  private final java.util.HashMap<Long, Object[]> far = new java.util.HashMap<>();
  private long[] putKeys = new long[64];
  private int putCount;
  private int size;
  // Removals since the last clear: while there are none, the key list holds each key once.
  private int removals;

  /** The key of a page: area in the top 16 bits, page number in the low 48. */
  public static long key(int area, long page) {
    return ((long) area << 48) | page;
  }

  public static int areaOf(long key) {
    return (int) (key >>> 48);
  }

  public static long pageOf(long key) {
    return key & ((1L << 48) - 1);
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  @SuppressWarnings("unchecked")
  public V get(int area, long page) {
    Object[][][] a = areas;
    if (area >= a.length) {
      return null;
    }
    Object[][] chunks = a[area];
    long c = page >>> SHIFT;
    Object[] chunk;
    if (chunks != null && c < chunks.length) {
      chunk = chunks[(int) c];
    } else if (c >= DIRECT_CHUNKS) {
      chunk = far.get(farKey(area, c));
    } else {
      return null;
    }
    return chunk == null ? null : (V) chunk[(int) page & MASK];
  }

  private static long farKey(int area, long chunk) {
    return ((long) area << 36) | chunk;
  }

  public V get(long key) {
    return get(areaOf(key), pageOf(key));
  }

  /** Puts a non-null value; returns the value it replaced, or null. */
  @SuppressWarnings("unchecked")
  public V put(int area, long page, V value) {
    if (value == null || area < 0 || page < 0 || area > 0xFFFF || page >= 1L << 48) {
      throw new IllegalArgumentException("area " + area + " page " + page + " / value " + value);
    }
    Object[] chunk = chunkFor(area, page);
    int i = (int) page & MASK;
    V old = (V) chunk[i];
    chunk[i] = value;
    if (old == null) {
      count(area, page, 1);
      size++;
      if (putCount == putKeys.length) {
        compactKeys();
      }
      putKeys[putCount++] = key(area, page);
    }
    return old;
  }

  public V put(long key, V value) {
    return put(areaOf(key), pageOf(key), value);
  }

  @SuppressWarnings("unchecked")
  public V remove(int area, long page) {
    V old = get(area, page);
    if (old != null) {
      chunkFor(area, page)[(int) page & MASK] = null;
      count(area, page, -1);
      size--;
      removals++;
    }
    return old;
  }

  public V remove(long key) {
    return remove(areaOf(key), pageOf(key));
  }

  public boolean containsKey(long key) {
    return get(key) != null;
  }

  /** Forgets every entry; the chunks stay for the next entries. */
  public void clear() {
    for (int k = 0; k < putCount; k++) {
      long key = putKeys[k];
      int area = areaOf(key);
      long page = pageOf(key);
      Object[] chunk = chunkFor(area, page);
      if (chunk[(int) page & MASK] != null) {
        chunk[(int) page & MASK] = null;
        count(area, page, -1);
      }
    }
    putCount = 0;
    size = 0;
    removals = 0;
  }

  /** Calls {@code action} with every value, in no particular order. */
  public void forEachValue(Consumer<V> action) {
    if (removals > 0) {
      compactKeys();
    }
    for (int k = 0; k < putCount; k++) {
      action.accept(get(putKeys[k]));
    }
  }

  /** The keys held, in (area, page) order. */
  public long[] sortedKeys() {
    long[] out = new long[size];
    int n = 0;
    long[] farChunks = far.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
    int f = 0;
    for (int area = 0; area < areas.length; area++) {
      Object[][] chunks = areas[area];
      if (chunks != null) {
        for (int c = 0; c < chunks.length; c++) {
          if (counts[area][c] > 0) {
            n = collect(chunks[c], area, c, out, n);
          }
        }
      }
      for (; f < farChunks.length && (farChunks[f] >>> 36) == area; f++) {
        n = collect(far.get(farChunks[f]), area, farChunks[f] & ((1L << 36) - 1), out, n);
      }
    }
    return out;
  }

  private static int collect(Object[] chunk, int area, long c, long[] out, int n) {
    for (int i = 0; i < CHUNK; i++) {
      if (chunk[i] != null) {
        out[n++] = key(area, (c << SHIFT) | i);
      }
    }
    return n;
  }

  private void count(int area, long page, int delta) {
    long c = page >>> SHIFT;
    if (c < DIRECT_CHUNKS) {
      counts[area][(int) c] += delta;
    }
  }

  private Object[] chunkFor(int area, long page) {
    if (area >= areas.length) {
      areas = Arrays.copyOf(areas, area + 1);
      counts = Arrays.copyOf(counts, area + 1);
    }
    long c = page >>> SHIFT;
    if (c >= DIRECT_CHUNKS) {
      return far.computeIfAbsent(farKey(area, c), k -> new Object[CHUNK]);
    }
    Object[][] chunks = areas[area];
    if (chunks == null || c >= chunks.length) {
      int n =
          (int) Math.min(DIRECT_CHUNKS, Math.max(c + 1, chunks == null ? 4 : chunks.length * 2L));
      chunks = chunks == null ? new Object[n][] : Arrays.copyOf(chunks, n);
      areas[area] = chunks;
      counts[area] = counts[area] == null ? new int[n] : Arrays.copyOf(counts[area], n);
    }
    Object[] chunk = chunks[(int) c];
    if (chunk == null) {
      chunk = chunks[(int) c] = new Object[CHUNK];
    }
    return chunk;
  }

  /**
   * The key list holds every key put since the last clear; after removals some are gone and some
   * twice (removed, then put again): keeps each live key once. Makes room when over half full.
   */
  private void compactKeys() {
    if (removals > 0) {
      Arrays.sort(putKeys, 0, putCount);
      int live = 0;
      for (int k = 0; k < putCount; k++) {
        long key = putKeys[k];
        if ((live == 0 || putKeys[live - 1] != key) && get(key) != null) {
          putKeys[live++] = key;
        }
      }
      putCount = live;
      removals = 0;
    }
    if (putCount * 2 > putKeys.length) {
      putKeys = Arrays.copyOf(putKeys, putKeys.length * 2);
    }
  }
}
