package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.spi.Keys;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Sorts the index of an {@link EntryBuffer} in place: an in-place MSD radix sort (American flag
 * sort) on each entry's 8-byte normalized prefix, then runs of equal prefixes resolved on the
 * following bytes. No comparator, no per-entry objects, no scratch array the size of the input.
 *
 * <p>Input: the buffer's arena holds, from {@code base}, one 16-byte pair per entry: the prefix
 * ({@link Keys#prefix8} of the entry's bytes) and {@code offset << 32 | length} of the entry in the
 * same arena, both as native-order longs. Keeping the pair side by side means one cache line per
 * element moved by the permutation. The sort permutes the pairs; the prefixes of tied entries are
 * overwritten with deeper keys (the caller reloads them before sorting again).
 *
 * <p>First, when all prefixes share their first byte, the bytes every entry shares are measured
 * once and the sort starts after them ({@code depth} > 0): in a group holding one index, the 2-byte
 * index id and the high bytes of its numbers would otherwise leave a few varying bits in the prefix
 * and everything to the tie resolution.
 *
 * <p>Steps, for a range of entries that agree exactly on their first {@code depth} bytes ({@link
 * #sortRange}):
 *
 * <ol>
 *   <li>Load the key: the 8 bytes at {@code depth}, zero padded (at depth 0 they are already
 *       there).
 *   <li>OR together {@code key ^ firstKey}: its leading zero bytes are the bytes every entry
 *       shares, which the radix passes skip (the index id and common key prefixes cost one pass,
 *       not one histogram each). All equal: go to step 4 directly.
 *   <li>MSD radix on the first varying byte: histogram, bucket bounds, then the cycle-leader
 *       permutation; recurse per bucket on the next byte. Buckets of at most {@value #INSERTION}
 *       entries are insertion-sorted on the key instead.
 *   <li>Scan for runs of equal keys ({@link #resolveTies}). Small runs are insertion-sorted with a
 *       full unsigned compare. In a large run the keys are equal only as zero padded bytes, so an
 *       entry that ends within these 8 bytes is a prefix of every longer entry of the run: those
 *       short ones go first, ordered by length (equal length means equal bytes). The rest agree on
 *       8 more bytes; their longest common prefix beyond that is measured with {@link
 *       Arrays#mismatch} (vectorized) so a run of long duplicates costs one scan, and the range is
 *       sorted again from the first byte where two of them differ.
 * </ol>
 *
 * <p>Cost: about three passes (diff, histogram, permutation) per radix level that varies, and a
 * level only recurses into buckets larger than {@value #INSERTION}; entries whose prefixes differ
 * are never compared in full. Memory: 3 × 8 × 256 ints of counters and the recursion stack (depth
 * at most 8 per 8 bytes of common prefix).
 */
final class PrefixSort {
  private static final int INSERTION = 32;
  private static final int SMALL_TIES = 16;

  /** The pairs are read and written as longs inside the byte arena. */
  static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private final byte[] data;
  private final int base;
  private final int[][] counts = new int[8][256];
  private final int[][] heads = new int[8][256];
  private final int[][] ends = new int[8][256];

  private PrefixSort(byte[] data, int base) {
    this.data = data;
    this.base = base;
  }

  /** Sorts the {@code n} pairs at {@code data[base]}; their prefixes must be loaded (depth 0). */
  static void sort(byte[] data, int base, int n) {
    if (n < 2) {
      return;
    }
    PrefixSort s = new PrefixSort(data, base);
    long first = s.key(0);
    long diff = 0;
    for (int i = 1; i < n; i++) {
      diff |= s.key(i) ^ first;
    }
    int depth = 0;
    if (Long.numberOfLeadingZeros(diff) >= 8) {
      // Every prefix starts with the same byte (a sort group of one index: its 2-byte id; then
      // often the high bytes of a number): measure what all entries share and sort on the 8
      // bytes after it, so the radix passes see varying bytes instead of tie runs.
      depth = s.commonPrefix(0, n, 0);
      if (depth < 0) {
        return; // all identical
      }
    }
    s.sortRange(0, n, depth);
  }

  static long keyAt(byte[] a, int base, int i) {
    return (long) LONG.get(a, base + (i << 4));
  }

  static long refAt(byte[] a, int base, int i) {
    return (long) LONG.get(a, base + (i << 4) + 8);
  }

  static void putPair(byte[] a, int base, int i, long key, long ref) {
    LONG.set(a, base + (i << 4), key);
    LONG.set(a, base + (i << 4) + 8, ref);
  }

  /** Each of the {@code n} pairs' prefix computed again from its entry's bytes. */
  static void reloadPrefixes(byte[] a, int base, int n) {
    for (int i = 0; i < n; i++) {
      long r = refAt(a, base, i);
      putPair(a, base, i, Keys.prefix8(a, offsetOf(r), lengthOf(r)), r);
    }
  }

  private long key(int i) {
    return (long) LONG.get(data, base + (i << 4));
  }

  private long ref(int i) {
    return (long) LONG.get(data, base + (i << 4) + 8);
  }

  private void setKey(int i, long k) {
    LONG.set(data, base + (i << 4), k);
  }

  private void put(int i, long k, long r) {
    LONG.set(data, base + (i << 4), k);
    LONG.set(data, base + (i << 4) + 8, r);
  }

  static int offsetOf(long ref) {
    return (int) (ref >>> 32);
  }

  static int lengthOf(long ref) {
    return (int) ref;
  }

  static long ref(int offset, int length) {
    return ((long) offset << 32) | (length & 0xFFFFFFFFL);
  }

  /** Entries in [lo, hi) agree exactly on bytes [0, depth) and are at least depth bytes long. */
  private void sortRange(int lo, int hi, int depth) {
    if (depth > 0) {
      for (int i = lo; i < hi; i++) {
        long r = ref(i);
        setKey(i, Keys.prefix8(data, offsetOf(r) + depth, lengthOf(r) - depth));
      }
    }
    msd(lo, hi, 0);
    int i = lo;
    while (i < hi) {
      long k = key(i);
      int j = i + 1;
      while (j < hi && key(j) == k) {
        j++;
      }
      if (j - i > 1) {
        resolveTies(i, j, depth);
      }
      i = j;
    }
  }

  /** Sorts [lo, hi) by key alone, from radix level {@code level} (byte 0 = most significant). */
  private void msd(int lo, int hi, int level) {
    if (hi - lo <= INSERTION) {
      insertionByKey(lo, hi);
      return;
    }
    long first = key(lo);
    long diff = 0;
    for (int i = lo + 1; i < hi; i++) {
      diff |= key(i) ^ first;
    }
    if (diff == 0) {
      return;
    }
    level = Math.max(level, Long.numberOfLeadingZeros(diff) >>> 3);
    int shift = 56 - 8 * level;
    int[] count = counts[level];
    int[] head = heads[level];
    int[] end = ends[level];
    Arrays.fill(count, 0);
    for (int i = lo; i < hi; i++) {
      count[(int) (key(i) >>> shift) & 0xFF]++;
    }
    int pos = lo;
    for (int b = 0; b < 256; b++) {
      head[b] = pos;
      pos += count[b];
      end[b] = pos;
    }
    // Cycle leader: take the element at the head of bucket b, swap it to the head of the bucket
    // it belongs to until an element of b comes back, then place it and advance b's head.
    for (int b = 0; b < 256; b++) {
      while (head[b] < end[b]) {
        int i = head[b];
        long k = key(i);
        long r = ref(i);
        int d = (int) (k >>> shift) & 0xFF;
        while (d != b) {
          int j = head[d]++;
          long tk = key(j);
          long tr = ref(j);
          put(j, k, r);
          k = tk;
          r = tr;
          d = (int) (k >>> shift) & 0xFF;
        }
        put(i, k, r);
        head[b]++;
      }
    }
    if (level == 7) {
      return;
    }
    for (int b = 0; b < 256; b++) {
      int c = count[b];
      if (c > 1) {
        msd(end[b] - c, end[b], level + 1);
      }
    }
  }

  private void insertionByKey(int lo, int hi) {
    for (int i = lo + 1; i < hi; i++) {
      long k = key(i);
      long r = ref(i);
      int j = i - 1;
      while (j >= lo && Long.compareUnsigned(key(j), k) > 0) {
        put(j + 1, key(j), ref(j));
        j--;
      }
      put(j + 1, k, r);
    }
  }

  /**
   * Entries in [lo, hi) agree exactly on [0, depth) and, zero padded, on [depth, depth + 8): put
   * them in full byte order.
   */
  private void resolveTies(int lo, int hi, int depth) {
    if (hi - lo <= SMALL_TIES) {
      insertionFull(lo, hi);
      return;
    }
    int limit = depth + 8;
    int m = lo;
    for (int i = lo; i < hi; i++) {
      if (lengthOf(ref(i)) < limit) {
        swap(i, m++);
      }
    }
    if (m - lo > 1) {
      // Each is a prefix of the next longer one: order by length.
      for (int i = lo; i < m; i++) {
        setKey(i, lengthOf(ref(i)));
      }
      msd(lo, m, 0);
    }
    if (hi - m > 1) {
      int next = commonPrefix(m, hi, limit);
      if (next >= 0) {
        sortRange(m, hi, next);
      }
    }
  }

  /**
   * Entries in [lo, hi) agree exactly on [0, from): the length of the prefix they all share (at
   * least {@code from}, at most the shortest entry), or -1 when they are all identical. {@link
   * Arrays#mismatch} is vectorized, so a run of long duplicates costs one scan.
   */
  private int commonPrefix(int lo, int hi, int from) {
    long r0 = ref(lo);
    int o0 = offsetOf(r0) + from;
    int e0 = offsetOf(r0) + lengthOf(r0);
    int lcp = Integer.MAX_VALUE;
    for (int i = lo + 1; i < hi; i++) {
      long r = ref(i);
      int o = offsetOf(r);
      int mm = Arrays.mismatch(data, o0, e0, data, o + from, o + lengthOf(r));
      if (mm >= 0 && mm < lcp) {
        lcp = mm;
        if (lcp == 0) {
          break;
        }
      }
    }
    return lcp == Integer.MAX_VALUE ? -1 : from + lcp;
  }

  private void insertionFull(int lo, int hi) {
    for (int i = lo + 1; i < hi; i++) {
      long k = key(i);
      long r = ref(i);
      int ro = offsetOf(r);
      int rl = lengthOf(r);
      int j = i - 1;
      while (j >= lo) {
        long q = ref(j);
        if (Arrays.compareUnsigned(data, offsetOf(q), offsetOf(q) + lengthOf(q), data, ro, ro + rl)
            <= 0) {
          break;
        }
        put(j + 1, key(j), q);
        j--;
      }
      put(j + 1, k, r);
    }
  }

  private void swap(int i, int j) {
    long k = key(i);
    long r = ref(i);
    put(i, key(j), ref(j));
    put(j, k, r);
  }
}
