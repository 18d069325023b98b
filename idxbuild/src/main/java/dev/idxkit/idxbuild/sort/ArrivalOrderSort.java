package dev.idxkit.idxbuild.sort;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The scan's fast sort of an {@link EntryBuffer}: when every entry has the same length and the
 * entries arrived in non-decreasing RID order (their last 8 bytes), the order of the whole entries
 * is the order of their key parts, ties kept in arrival order. So a stable sort on the key part
 * alone is enough, and the RID bytes, which make most of the work of {@link PrefixSort} on
 * duplicate-heavy keys (dates, foreign keys), are never looked at.
 *
 * <p>Why it holds: two entries of equal length {@code L} compare on bytes {@code [0, L-8)} first
 * (index id and key); when those are equal they compare on the RID, and the earlier arrival has the
 * lower or equal RID. The scan appends entries in heap order, page by page and slot by slot, so
 * each scan buffer qualifies; {@link EntryBuffer#add} checks both conditions as entries come, and
 * anything else goes to {@link PrefixSort}.
 *
 * <p>Steps:
 *
 * <ol>
 *   <li>One sequential pass over the entry bytes (they are contiguous: entry {@code j} in arrival
 *       order is at {@code j × L}) finds the key-part byte positions where some entry differs from
 *       the first. Bytes no entry changes (the index id, the high bytes of numbers) cannot order
 *       anything and are dropped. More than fits (below) and this sort declines.
 *   <li>Each entry becomes one long: its varying key bytes, big-endian, above its arrival number
 *       {@code j} ({@code bits(n-1)} bits). Distinct longs, whose unsigned order is (key part,
 *       arrival): exactly the order wanted, so any sort of the longs is a stable sort of entries.
 *   <li>LSD radix sort of the longs on the 8-bit digits of the key bytes, skipping digits every
 *       long shares (the packing pass counts all digits). The passes are stable and the longs start
 *       in arrival order, so the arrival numbers need no pass. Worked example: a group of one date
 *       index holds 15-byte entries {@code 00 07 | 01 | 80 00 2a 1c | rid} (index id, NOT NULL
 *       flag, date); if the dates of the buffer differ only in their last two bytes, 3 entries
 *       become {@code 2a1c << 2 | j} (2 bits of arrival number): at most 2 digit passes, where the
 *       general sort would compare the RIDs of every run of equal dates.
 *   <li>Expand each long back to its 16-byte pair: the key slot gets the long (callers reload real
 *       prefixes before another sort), the reference {@code (j × L) << 32 | L}.
 * </ol>
 *
 * <p>Memory: none beyond the buffer. The pair region ({@code 16 n} bytes) is used as two arrays of
 * {@code n} longs, the radix passes going back and forth between them; the expansion then runs
 * ascending from the upper half or descending from the lower half, so it never overwrites a long
 * not yet read. Counters: 8 × 256 ints. Cost: {@code 3 + varying bytes} sequential passes, with no
 * byte compares and no tie resolution.
 */
final class ArrivalOrderSort {
  private static final VarHandle LONG = PrefixSort.LONG;
  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private ArrivalOrderSort() {}

  /**
   * Sorts the {@code n} pairs at {@code data[base]} whose entries are {@code len} bytes each at
   * {@code data[j × len]} in arrival order (pair {@code n-1-j} is entry {@code j}); false, with
   * nothing changed, when the varying key bytes and the arrival number do not fit in 64 bits.
   */
  static boolean sort(byte[] data, int base, int n, int len) {
    int keyLen = len - 8;
    if (n < 2 || keyLen < 0) {
      return n < 2;
    }
    int jBits = 64 - Long.numberOfLeadingZeros(n - 1);
    int maxVarying = (64 - jBits) / 8;
    // 1. Which key-part bytes vary: one pass, 8 bytes at a time (reading into the RID bytes is
    // in bounds; the mask below drops them).
    int words = (keyLen + 7) >>> 3;
    long[] diff = new long[words];
    for (int off = len, end = n * len; off < end; off += len) {
      for (int w = 0; w < words; w++) {
        diff[w] |= (long) BE_LONG.get(data, off + (w << 3)) ^ (long) BE_LONG.get(data, w << 3);
      }
    }
    int[] at = new int[keyLen];
    int varying = 0;
    for (int p = 0; p < keyLen; p++) {
      if (((diff[p >>> 3] >>> (56 - ((p & 7) << 3))) & 0xFF) != 0) {
        if (varying == maxVarying) {
          return false;
        }
        at[varying++] = p;
      }
    }
    // 2. Pack into the lower half of the pair region, in arrival order, counting every digit of
    // the key bits as we go.
    int digits = varying;
    int[][] counts = new int[digits][256];
    int lower = base;
    int upper = base + (n << 3);
    for (int j = 0, off = 0; j < n; j++, off += len) {
      long k = 0;
      for (int v = 0; v < varying; v++) {
        int b = data[off + at[v]] & 0xFF;
        k = (k << 8) | b;
        counts[varying - 1 - v][b]++;
      }
      LONG.set(data, lower + (j << 3), (k << jBits) | j);
    }
    // 3. LSD passes over the key digits only, skipping digits shared by all: each pass is stable
    // and the longs start in arrival order, so the arrival numbers need no pass of their own.
    int src = lower;
    int dst = upper;
    int[] pos = new int[256];
    for (int d = 0; d < digits; d++) {
      int[] c = counts[d];
      int shift = jBits + (d << 3);
      if (c[(int) ((long) LONG.get(data, src) >>> shift) & 0xFF] == n) {
        continue;
      }
      int sum = 0;
      for (int b = 0; b < 256; b++) {
        pos[b] = sum;
        sum += c[b];
      }
      for (int i = 0; i < n; i++) {
        long k = (long) LONG.get(data, src + (i << 3));
        int b = (int) (k >>> shift) & 0xFF;
        LONG.set(data, dst + (pos[b]++ << 3), k);
      }
      int t = src;
      src = dst;
      dst = t;
    }
    // 4. Expand to pairs in place.
    long jMask = (1L << jBits) - 1;
    if (src == upper) {
      for (int i = 0; i < n; i++) {
        long k = (long) LONG.get(data, upper + (i << 3));
        int j = (int) (k & jMask);
        PrefixSort.putPair(data, base, i, k, PrefixSort.ref(j * len, len));
      }
    } else {
      for (int i = n - 1; i >= 0; i--) {
        long k = (long) LONG.get(data, lower + (i << 3));
        int j = (int) (k & jMask);
        PrefixSort.putPair(data, base, i, k, PrefixSort.ref(j * len, len));
      }
    }
    return true;
  }
}
