package dev.idxkit.idxbuild.sort;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An entry to its long ({@link PackedEntries.Layout}) a run of adjacent varying key bytes at a
 * time, not byte by byte: the scan's sort packs every entry once, and the loop was among the scan's
 * hottest.
 *
 * <p>A run is a maximal set of adjacent varying positions (the low bytes of an integer key column
 * are one run; a two-column key has one run per column). Packing reads each run as one big-endian
 * long from its first byte, shifted down to the run's bytes; the read stays within the entry, since
 * a run starts before the key's end and the entry's last 8 bytes are its RID.
 *
 * <p>The varying bytes' values are counted for the radix passes only once the entries stop coming
 * in order ({@link Packer#packInOrder}): a buffer whose entries all come in order (a primary key
 * scanned in key order) needs no pass and is not counted at all.
 */
final class PackedForm {
  private static final VarHandle LONG = PrefixSort.LONG;
  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private PackedForm() {}

  /**
   * Packs entry {@code j} into the long at {@code data[to + 8 j]} with {@code layout}, counting
   * each varying key byte's values in {@code counts} (last byte first), unless the longs come out
   * in non-decreasing order: then it returns true and has counted nothing (no radix pass needs the
   * counts).
   *
   * <p>The entries are packed without counting for as long as they come in order (a primary key
   * scanned in key order, all the way), then the longs so far are counted and the rest packed
   * counting. The varying bytes are read a run of adjacent positions at a time.
   */
  static boolean pack(
      byte[] data, int n, int len, PackedEntries.Layout layout, int[] counts, int to) {
    Packer p = new Packer(layout, len);
    int j = p.packInOrder(data, n, to);
    if (j == n) {
      return true;
    }
    p.count(data, to, j, counts);
    p.packCounting(data, j, n, to, counts);
    return false;
  }

  /** Entry to long for one layout; each loop a method of its own, so each compiles on its own. */
  static final class Packer {
    private final int len;
    private final int keyLen;
    private final int varying;
    private final int[] runStart;
    private final int[] runBits;
    private final int ridBits;
    private final int slotBits;
    private final long firstPage;

    Packer(PackedEntries.Layout layout, int len) {
      int[] at = layout.at();
      this.len = len;
      this.keyLen = len - 8;
      this.varying = at.length;
      // The runs of adjacent varying positions, most significant first: each one's first position
      // and its width in bits.
      int runs = 0;
      int[] start = new int[varying];
      int[] bits = new int[varying];
      for (int v = 0; v < varying; v++) {
        if (v == 0 || at[v] != at[v - 1] + 1) {
          start[runs++] = at[v];
        }
        bits[runs - 1] += 8;
      }
      this.runStart = Arrays.copyOf(start, runs);
      this.runBits = Arrays.copyOf(bits, runs);
      this.ridBits = layout.ridBits();
      this.slotBits = layout.slotBits();
      this.firstPage = layout.firstPage();
    }

    /** The long of the entry at {@code data[off]}. */
    private long pack(byte[] data, int off) {
      long k = 0;
      for (int r = 0; r < runStart.length; r++) {
        int b = runBits[r];
        // A run of 8 bytes is the only one (at most 8 varying bytes): k is still 0, and k << 64
        // leaves it 0 in Java, as wanted.
        k = (k << b) | ((long) BE_LONG.get(data, off + runStart[r]) >>> (64 - b));
      }
      long rid = (long) BE_LONG.get(data, off + keyLen);
      long r = ((rid >>> 16) - firstPage) << slotBits | (rid & 0xFFFF);
      return ridBits == 64 ? r : (k << ridBits) | r;
    }

    /**
     * Packs entries from the first while their longs do not decrease; returns the first one that
     * would (not packed), or {@code n}.
     */
    int packInOrder(byte[] data, int n, int to) {
      long prev = 0;
      for (int j = 0; j < n; j++) {
        long packed = pack(data, j * len);
        if (Long.compareUnsigned(prev, packed) > 0) {
          return j;
        }
        prev = packed;
        LONG.set(data, to + (j << 3), packed);
      }
      return n;
    }

    /** Packs entries {@code [from, n)}, counting their varying bytes' values. */
    void packCounting(byte[] data, int from, int n, int to, int[] counts) {
      for (int j = from; j < n; j++) {
        long packed = pack(data, j * len);
        countDigits(packed, counts);
        LONG.set(data, to + (j << 3), packed);
      }
    }

    /** Counts the varying key bytes of the {@code n} longs already packed at {@code data[at]}. */
    void count(byte[] data, int at, int n, int[] counts) {
      for (int j = 0; j < n; j++) {
        countDigits((long) LONG.get(data, at + (j << 3)), counts);
      }
    }

    /**
     * Counts each varying key byte's value of {@code packed} into {@code counts}: digit {@code d},
     * the {@code d}-th byte from the key's end, at {@code [d << 8, (d + 1) << 8)}.
     */
    private void countDigits(long packed, int[] counts) {
      long key = ridBits == 64 ? 0 : packed >>> ridBits;
      for (int d = 0; d < varying; d++) {
        counts[(d << 8) | ((int) (key >>> (d << 3)) & 0xFF)]++;
      }
    }
  }
}
