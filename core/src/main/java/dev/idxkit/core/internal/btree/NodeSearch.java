package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;

/**
 * Search for a key within one node page of either format ({@link Node}); every lookup, cursor seek
 * and descent for an insert or delete ends here once per level. Allocates nothing.
 *
 * <p>Result: the index of the key if present, else {@code -(insertion point) - 1}, as {@link
 * java.util.Arrays#binarySearch}.
 *
 * <p>Algorithm: a four-way search. Each round takes the three slots at the quarter points of the
 * remaining range {@code [lo, hi)}, compares the probe with all three and keeps the one quarter
 * that can hold it; below {@value #BINARY} slots, binary search finishes. Why not binary search all
 * the way: in a tree larger than the CPU caches nearly every probe of a leaf is a cache miss, and
 * binary search's probes depend on each other (the next address comes from the last comparison), so
 * it waits for one miss after another: about 9 for a leaf of 400 entries. The three probes of a
 * round do not depend on each other, so the CPU has their cache lines fetched at the same time, and
 * a round costs about one miss: 4-5 rounds for that leaf, the last ones in lines already read.
 *
 * <p>Per format:
 *
 * <ul>
 *   <li>Format 1: a probe reads the slot, then the key in the cell it points to; two misses one
 *       after the other, but the three probes of a round still overlap.
 *   <li>Format 2: the probe is first compared with the page prefix, which shares the header's cache
 *       line; if it does not start with the prefix it sorts below or above every key and the answer
 *       is known without reading a slot. Otherwise a probe compares the probe's head (its 4 bytes
 *       after the prefix) with the head in the slot, and reads the suffix in the cell only when the
 *       two heads are equal. A search then touches the slot array and, usually, one cell: the one
 *       of the key found.
 * </ul>
 *
 * <p>A damaged page (keys out of order) gives a wrong answer, never an index outside {@code [0,
 * count]}: {@link TreeChecker} is what finds the damage.
 */
final class NodeSearch {
  /** Ranges at most this long are finished by binary search (their slots span 1-2 cache lines). */
  static final int BINARY = 16;

  private NodeSearch() {}

  static int search(Page p, byte[] key, int kOff, int kLen) {
    return Node.format(p) == Node.FORMAT_2
        ? searchFormat2(p, key, kOff, kLen)
        : searchFormat1(p, key, kOff, kLen);
  }

  private static int searchFormat1(Page p, byte[] key, int kOff, int kLen) {
    int shift = Node.keyShift(p);
    int lo = 0;
    int hi = Node.count(p);
    while (hi - lo > BINARY) {
      int q = (hi - lo) >>> 2;
      int m1 = lo + q;
      int m2 = m1 + q;
      int m3 = m2 + q;
      // Three independent loads first, so that their misses overlap.
      int s1 = p.getInt(Node.HEADER_SIZE + (m1 << 2));
      int s2 = p.getInt(Node.HEADER_SIZE + (m2 << 2));
      int s3 = p.getInt(Node.HEADER_SIZE + (m3 << 2));
      int c1 = p.compare((s1 & 0xFFFF) + shift, s1 >>> 16, key, kOff, kLen);
      int c2 = p.compare((s2 & 0xFFFF) + shift, s2 >>> 16, key, kOff, kLen);
      int c3 = p.compare((s3 & 0xFFFF) + shift, s3 >>> 16, key, kOff, kLen);
      if ((c1 == 0) | (c2 == 0) | (c3 == 0)) {
        return c1 == 0 ? m1 : c2 == 0 ? m2 : m3;
      }
      int below = (c1 >>> 31) + (c2 >>> 31) + (c3 >>> 31);
      int nextLo = below == 0 ? lo : lo + below * q + 1;
      hi = below == 3 ? hi : lo + (below + 1) * q;
      lo = nextLo;
    }
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int s = p.getInt(Node.HEADER_SIZE + (mid << 2));
      int c = p.compare((s & 0xFFFF) + shift, s >>> 16, key, kOff, kLen);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  private static int searchFormat2(Page p, byte[] key, int kOff, int kLen) {
    int n = Node.count(p);
    int pfx = p.getU16(Node.OFF_PREFIX);
    if (pfx > 0) {
      int c = Keys.comparePrefix(p, pfx, key, kOff, kLen);
      if (c != 0) {
        return c > 0 ? -1 : -(n + 1);
      }
    }
    int sOff = kOff + pfx;
    int sLen = kLen - pfx;
    int head = Keys.head(key, sOff, sLen);
    int shift = Node.keyShift(p);
    int base = Node.HEADER_SIZE + Node.prefixArea(pfx);
    int lo = 0;
    int hi = n;
    while (hi - lo > BINARY) {
      int q = (hi - lo) >>> 2;
      int m1 = lo + q;
      int m2 = m1 + q;
      int m3 = m2 + q;
      long s1 = p.getLong(base + (m1 << 3));
      long s2 = p.getLong(base + (m2 << 3));
      long s3 = p.getLong(base + (m3 << 3));
      int c1 = compare(p, s1, head, shift, key, sOff, sLen);
      int c2 = compare(p, s2, head, shift, key, sOff, sLen);
      int c3 = compare(p, s3, head, shift, key, sOff, sLen);
      if ((c1 == 0) | (c2 == 0) | (c3 == 0)) {
        return c1 == 0 ? m1 : c2 == 0 ? m2 : m3;
      }
      int below = (c1 >>> 31) + (c2 >>> 31) + (c3 >>> 31);
      int nextLo = below == 0 ? lo : lo + below * q + 1;
      hi = below == 3 ? hi : lo + (below + 1) * q;
      lo = nextLo;
    }
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = compare(p, p.getLong(base + (mid << 3)), head, shift, key, sOff, sLen);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /** The key of a format 2 slot against the probe's suffix: heads first, the cell on a tie. */
  private static int compare(
      Page p, long slot, int head, int shift, byte[] key, int sOff, int sLen) {
    int c = Integer.compareUnsigned((int) (slot >>> 32), head);
    if (c != 0) {
      return c;
    }
    int s = (int) slot;
    return p.compare((s & 0xFFFF) + shift, s >>> 16, key, sOff, sLen);
  }
}
