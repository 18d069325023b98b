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

  /**
   * Packs entry {@code j} into the long at {@code data[to + 8 j]} with {@code layout} and counts
   * nothing: a buffer left in arrival order for {@link GroupSort}. Returns whether the longs came
   * out in non-decreasing order.
   */
  static boolean packInArrivalOrder(
      byte[] data, int n, int len, PackedEntries.Layout layout, int to) {
    Packer p = new Packer(layout, len);
    int j = p.packInOrder(data, n, to);
    if (j == n) {
      return true;
    }
    p.packRest(data, j, n, to);
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

    /** Packs entries {@code [from, n)}, counting nothing. */
    void packRest(byte[] data, int from, int n, int to) {
      for (int j = from; j < n; j++) {
        LONG.set(data, to + (j << 3), pack(data, j * len));
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

  /**
   * Long to entry in four stores, for a layout whose key bytes after the first {@code skip} fit
   * three 8-byte words, each holding at most two pieces of runs of varying bytes (lineitem's six
   * indexes less their index id: one or two integer or date columns of a marker byte and 4 or 8
   * value bytes, up to 18 bytes): each word is its constant bytes OR its pieces shifted into place,
   * then the RID's word overwrites what the last one wrote past the key. The merge unpacks every
   * entry of a rebuild; byte by byte it took about a third of a merge's time ({@code
   * ScanMergeBench}). A general word-at-a-time unpacker, looping over words and runs, was slower
   * than the byte loop; this one has no loop.
   */
  static final class ShortKey {
    private static final int WORDS = 3;
    private final PackedEntries.Layout layout;
    private final int skip;
    private final int keyLen;
    private final int ridBits;
    // Where words 1 and 2 go: skip + 8 and skip + 16, or, for a key without that word, the RID's
    // first byte (the RID's store overwrites it).
    private final int secondWord;
    private final int thirdWord;
    private final long base0;
    private final long base1;
    private final long base2;
    // Piece q (0, 1 in the first word; 2, 3 in the second; 4, 5 in the third) is (key >>> down) &
    // mask, shifted up bits into its word; an absent piece has mask 0.
    private final int down0;
    private final int down1;
    private final int down2;
    private final int down3;
    private final int down4;
    private final int down5;
    private final long mask0;
    private final long mask1;
    private final long mask2;
    private final long mask3;
    private final long mask4;
    private final long mask5;
    private final int up0;
    private final int up1;
    private final int up2;
    private final int up3;
    private final int up4;
    private final int up5;

    private ShortKey(PackedEntries.Layout layout, int skip, long[] base, long[] pieces) {
      this.layout = layout;
      this.skip = skip;
      this.keyLen = layout.template().length;
      this.ridBits = layout.ridBits();
      this.secondWord = keyLen - skip > 8 ? skip + 8 : keyLen;
      this.thirdWord = keyLen - skip > 16 ? skip + 16 : keyLen;
      this.base0 = base[0];
      this.base1 = base[1];
      this.base2 = base[2];
      this.down0 = (int) pieces[0];
      this.mask0 = pieces[1];
      this.up0 = (int) pieces[2];
      this.down1 = (int) pieces[3];
      this.mask1 = pieces[4];
      this.up1 = (int) pieces[5];
      this.down2 = (int) pieces[6];
      this.mask2 = pieces[7];
      this.up2 = (int) pieces[8];
      this.down3 = (int) pieces[9];
      this.mask3 = pieces[10];
      this.up3 = (int) pieces[11];
      this.down4 = (int) pieces[12];
      this.mask4 = pieces[13];
      this.up4 = (int) pieces[14];
      this.down5 = (int) pieces[15];
      this.mask5 = pieces[16];
      this.up5 = (int) pieces[17];
    }

    /** The plan for {@code layout} leaving out {@code skip} bytes, or null if it does not fit. */
    static ShortKey of(PackedEntries.Layout layout, int skip) {
      byte[] template = layout.template();
      int[] at = layout.at();
      int keyLen = template.length;
      if (keyLen - skip > 8 * WORDS || (at.length > 0 && at[0] < skip)) {
        return null;
      }
      long[] base = new long[WORDS];
      long[] pieces = new long[6 * WORDS]; // down, mask, up of each of two pieces a word
      for (int w = 0; w * 8 < keyLen - skip; w++) {
        int o = skip + 8 * w;
        int end = Math.min(o + 8, keyLen);
        for (int p = o; p < o + 8; p++) {
          boolean constant = p < keyLen && Arrays.binarySearch(at, p) < 0;
          base[w] = base[w] << 8 | (constant ? template[p] & 0xFF : 0);
        }
        int found = 0;
        for (int p = o; p < end; p++) {
          int v = Arrays.binarySearch(at, p); // p's index among the varying positions
          if (v < 0) {
            continue;
          }
          int last = p; // the piece: p and the varying positions right after it in this word
          while (last + 1 < end
              && v + last + 1 - p < at.length
              && at[v + last + 1 - p] == last + 1) {
            last++;
          }
          if (found == 2) {
            return null;
          }
          int q = 3 * (2 * w + found);
          int bytes = last - p + 1;
          // The piece's last byte is the key's (at.length - 1 - its index)-th byte from the bottom.
          pieces[q] = 8L * (at.length - 1 - (v + bytes - 1));
          pieces[q + 1] = bytes == 8 ? -1L : (1L << (8 * bytes)) - 1;
          pieces[q + 2] = 8L * (o + 7 - last);
          found++;
          p = last;
        }
      }
      return new ShortKey(layout, skip, base, pieces);
    }

    /**
     * The entry of {@code k}, its bytes from {@code skip} on, at {@code out[off + skip]}. Four
     * stores whatever the key's shape, with no branch: a word the key does not have lands on the
     * RID's bytes (its constant bytes and masks are 0) and the RID's store overwrites it. A branch
     * on the shape recompiled the merge loop in a cold rebuild each time the next index had the
     * other shape (the profile had never seen it taken).
     */
    void unpack(long k, byte[] out, int off) {
      long key = k >>> ridBits; // with 64 RID bits no key byte varies: every mask is 0
      BE_LONG.set(
          out,
          off + skip,
          base0 | ((key >>> down0) & mask0) << up0 | ((key >>> down1) & mask1) << up1);
      BE_LONG.set(
          out,
          off + secondWord,
          base1 | ((key >>> down2) & mask2) << up2 | ((key >>> down3) & mask3) << up3);
      BE_LONG.set(
          out,
          off + thirdWord,
          base2 | ((key >>> down4) & mask4) << up4 | ((key >>> down5) & mask5) << up5);
      BE_LONG.set(out, off + keyLen, layout.rid(k));
    }
  }
}
