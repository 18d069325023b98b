package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.spi.Keys;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A scan buffer's entries sorted and kept as one {@code long} each: the scan's fast sort when every
 * entry has the same length and the entries came in non-decreasing RID order, as a scan buffer's do
 * ({@link EntryBuffer#add} tracks both). It replaces sorting 16-byte pairs and then copying the
 * entries into sorted order: the long <em>is</em> the entry, so the sorted longs are the kept
 * buffer, at 8 bytes an entry instead of the entry's length, and nothing is gathered.
 *
 * <p>Why a long holds an entry: the bytes no entry of the buffer changes (the index id, the NOT
 * NULL flags, the high bytes of numbers) are kept once, in a template; what is left are the key
 * bytes that vary and the RID. The RID {@code page << 16 | slot} is kept as {@code (page -
 * firstPage) << slotBits | slot}, with {@code slotBits} for the buffer's largest slot and the page
 * relative to the buffer's first (RIDs arrive in order, so first and last bound them). When the
 * varying key bytes and that RID fit in 64 bits together, each entry becomes {@code varying key
 * bytes (big-endian) << ridBits | rid}, and the unsigned order of these longs is the unsigned byte
 * order of the entries (the constant bytes order nothing; the key bytes come first; equal keys
 * order by RID, whose packing keeps its order). Otherwise {@link #sort} declines and the buffer
 * takes {@link ArrivalOrderSort} or {@link PrefixSort}.
 *
 * <p>Steps of {@link #sort}:
 *
 * <ol>
 *   <li>One sequential pass over the entries (contiguous: entry {@code j} at {@code j × len}):
 *       which key bytes differ from entry 0's, and the largest slot.
 *   <li>Pack each entry into a long in the lower half of the pair region, counting the byte values
 *       of each varying key position as it goes.
 *   <li>LSD radix passes on the key bytes only, skipping a byte every long shares. The passes are
 *       stable and the longs start in RID order, so the RID bits need no pass.
 * </ol>
 *
 * <p>Worked example: a date index's 15-byte entries {@code 00 07 | 01 | 80 00 2a 1c | rid}. In a
 * buffer whose dates differ only in their last two bytes and whose RIDs run from page 4,000 slot 0
 * to page 4,700 slot 61, slots take 6 bits and pages 10: entry {@code ...2a 1c | page 4,123 slot 9}
 * becomes {@code 0x2a1c << 16 | 123 << 6 | 9}. Reading it back ({@link #unpack}) writes the
 * template {@code 00 07 01 80 00 ?? ??}, the two date bytes, and the RID {@code 4,123 << 16 | 9} as
 * 8 big-endian bytes.
 *
 * <p>Memory: the sort uses the buffer's pair region ({@code 16 n} bytes, two arrays of {@code n}
 * longs) and 8 × 256 ints of counters; the result stays there until {@link #compact} copies the
 * {@code 8 n} bytes into an array of their own, after which the buffer's arena can be reused.
 */
final class PackedEntries {
  private static final VarHandle LONG = PrefixSort.LONG;
  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final int n;
  private final int len;
  private final int keyLen;
  private final byte[] template; // entry 0's key part: the constant bytes
  private final int[] at; // the varying key positions, ascending
  private final int ridBits;
  private final int slotBits;
  private final long firstPage;
  private byte[] longs; // the sorted longs, native order, n of them from longsAt
  private int longsAt;

  private PackedEntries(
      int n,
      int len,
      byte[] template,
      int[] at,
      int ridBits,
      int slotBits,
      long firstPage,
      byte[] longs,
      int longsAt) {
    this.n = n;
    this.len = len;
    this.keyLen = len - 8;
    this.template = template;
    this.at = at;
    this.ridBits = ridBits;
    this.slotBits = slotBits;
    this.firstPage = firstPage;
    this.longs = longs;
    this.longsAt = longsAt;
  }

  /**
   * Sorts the {@code n >= 1} entries of {@code len} bytes at {@code data[j × len]} (arrival order,
   * RIDs non-decreasing, the RID the last 8 bytes) using the pair region at {@code data[base]}
   * ({@code 16 n} bytes) as scratch; null, with the entries unchanged, when the varying key bytes
   * and the RID do not fit in 64 bits.
   */
  static PackedEntries sort(byte[] data, int base, int n, int len) {
    int keyLen = len - 8;
    if (n < 1 || keyLen < 0) {
      return null;
    }
    // 1. Varying key bytes (reading 8 at a time into the RID bytes is in bounds; the mask below
    // drops them) and the largest slot.
    int words = (keyLen + 7) >>> 3;
    long[] diff = new long[words];
    int maxSlot = 0;
    for (int off = 0, end = n * len; off < end; off += len) {
      for (int w = 0; w < words; w++) {
        diff[w] |= (long) BE_LONG.get(data, off + (w << 3)) ^ (long) BE_LONG.get(data, w << 3);
      }
      maxSlot = Math.max(maxSlot, (int) ((long) BE_LONG.get(data, off + keyLen) & 0xFFFF));
    }
    long firstPage = (long) BE_LONG.get(data, keyLen) >>> 16;
    long lastPage = (long) BE_LONG.get(data, (n - 1) * len + keyLen) >>> 16;
    int slotBits = bits(maxSlot);
    int ridBits = slotBits + bits(lastPage - firstPage);
    int[] at = new int[keyLen];
    int varying = 0;
    for (int p = 0; p < keyLen; p++) {
      if (((diff[p >>> 3] >>> (56 - ((p & 7) << 3))) & 0xFF) != 0) {
        if (8 * (varying + 1) + ridBits > 64) {
          return null;
        }
        at[varying++] = p;
      }
    }
    at = Arrays.copyOf(at, varying);
    // 2. Pack into the lower half of the pair region, counting the key digits.
    int[][] counts = new int[varying][256];
    int lower = base;
    int upper = base + (n << 3);
    for (int j = 0, off = 0; j < n; j++, off += len) {
      long k = 0;
      for (int v = 0; v < varying; v++) {
        int b = data[off + at[v]] & 0xFF;
        k = (k << 8) | b;
        counts[varying - 1 - v][b]++;
      }
      long rid = (long) BE_LONG.get(data, off + keyLen);
      long r = ((rid >>> 16) - firstPage) << slotBits | (rid & 0xFFFF);
      LONG.set(data, lower + (j << 3), ridBits == 64 ? r : (k << ridBits) | r);
    }
    // 3. LSD passes over the key digits, skipping digits shared by all.
    int src = lower;
    int dst = upper;
    int[] pos = new int[256];
    for (int d = 0; d < varying; d++) {
      int[] c = counts[d];
      int shift = ridBits + (d << 3);
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
        LONG.set(data, dst + (pos[(int) (k >>> shift) & 0xFF]++ << 3), k);
      }
      int t = src;
      src = dst;
      dst = t;
    }
    return new PackedEntries(
        n, len, Arrays.copyOf(data, keyLen), at, ridBits, slotBits, firstPage, data, src);
  }

  /** Bits to hold {@code v >= 0}. */
  private static int bits(long v) {
    return 64 - Long.numberOfLeadingZeros(v);
  }

  int size() {
    return n;
  }

  int entryLength() {
    return len;
  }

  /** Bytes this takes once {@link #compact compacted}: the longs and the template. */
  long compactBytes() {
    return 8L * n + keyLen + 4L * at.length;
  }

  boolean isCompact() {
    return longsAt == 0 && longs.length == 8 * n;
  }

  /**
   * Copies the longs out of the buffer's arena into an array of their own; returns true if it did
   * (and the arena is free), false if they were already on their own.
   */
  boolean compact() {
    if (isCompact()) {
      return false;
    }
    longs = Arrays.copyOfRange(longs, longsAt, longsAt + 8 * n);
    longsAt = 0;
    return true;
  }

  /** The {@code i}-th entry in sorted order, written to {@code out[off, off + len)}. */
  void unpack(int i, byte[] out, int off) {
    long k = (long) LONG.get(longs, longsAt + (i << 3));
    System.arraycopy(template, 0, out, off, keyLen);
    long key = ridBits == 64 ? 0 : k >>> ridBits;
    for (int v = at.length - 1; v >= 0; v--) {
      out[off + at[v]] = (byte) key;
      key >>>= 8;
    }
    long r = ridBits == 64 ? k : k & ((1L << ridBits) - 1);
    long page = firstPage + (r >>> slotBits);
    long slot = r & ((1L << slotBits) - 1);
    BE_LONG.set(out, off + keyLen, page << 16 | slot);
  }

  /** The first entry not below {@code key}, by binary search; {@code n} if none. */
  int lowerBound(byte[] key) {
    byte[] scratch = new byte[len];
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      unpack(mid, scratch, 0);
      if (Keys.compare(scratch, 0, len, key, 0, key.length) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Entries {@code [lo, hi)} in order, each unpacked into the cursor's own array. */
  EntrySource source(int lo, int hi) {
    return new Cursor(lo, hi);
  }

  private final class Cursor implements EntrySource {
    private final byte[] entry = new byte[len];
    private int i;
    private final int end;

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
      unpack(++i, entry, 0);
      return true;
    }

    @Override
    public byte[] array() {
      return entry;
    }

    @Override
    public int offset() {
      return 0;
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
