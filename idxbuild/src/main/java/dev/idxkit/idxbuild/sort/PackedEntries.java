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
 *   <li>Pack each entry into a long in the lower half of the pair region ({@link PackedForm}),
 *       counting the byte values of each varying key position once the longs stop coming in order.
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
 * <h2>One layout for a group</h2>
 *
 * Each buffer packs with its own {@link Layout}. For the final merge, {@link #common} finds one
 * layout for all the kept buffers of a group - the union of their varying positions (with the
 * positions where their constant bytes differ), their page span and their widest slots - and each
 * long is {@link Recode recoded} into it as the merge loads it (a buffer's order does not depend on
 * the layout); a buffer that varies in other bytes than the common layout is rewritten into it
 * first ({@link #recodeInto}), so the merge only moves RIDs. So the buffers merge as plain longs
 * ({@link PackedMerge}), without unpacking an entry to compare it. If the common layout passes 63
 * bits (see {@link PackedMerge}) they merge as byte entries.
 *
 * <p>Memory: the sort uses the buffer's pair region ({@code 16 n} bytes, two arrays of {@code n}
 * longs) and 8 × 256 ints of counters; the result stays there until {@link #compact} copies the
 * {@code 8 n} bytes into an array of their own, after which the buffer's arena can be reused.
 */
final class PackedEntries {
  private static final VarHandle LONG = PrefixSort.LONG;
  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /**
   * How longs map to entries: the constant bytes of the key part ({@code template}, entry length
   * minus 8), the positions of the varying key bytes in ascending order ({@code at}), and the RID
   * as {@code (page - firstPage) << slotBits | slot} in the low {@code ridBits} bits.
   */
  record Layout(byte[] template, int[] at, int ridBits, int slotBits, long firstPage) {
    int entryLength() {
      return template.length + 8;
    }

    /** The entry of {@code k}, written to {@code out[off, off + entryLength())}. */
    void unpack(long k, byte[] out, int off) {
      writeTemplate(out, off);
      unpackOver(k, out, off);
    }

    /** The constant bytes of every entry of this layout, at {@code out[off]}. */
    void writeTemplate(byte[] out, int off) {
      System.arraycopy(template, 0, out, off, template.length);
    }

    /**
     * The entry of {@code k} over {@code out[off, off + entryLength())}, which holds this layout's
     * constant bytes already ({@link #writeTemplate}): only the varying key bytes and the RID are
     * written (a merge unpacks every winner into one array).
     */
    void unpackOver(long k, byte[] out, int off) {
      int keyLen = template.length;
      long key = ridBits == 64 ? 0 : k >>> ridBits;
      for (int v = at.length - 1; v >= 0; v--) {
        out[off + at[v]] = (byte) key;
        key >>>= 8;
      }
      BE_LONG.set(out, off + keyLen, rid(k));
    }

    /**
     * The RID of {@code k} as the entry holds it in its last 8 bytes: {@code page << 16 | slot}.
     */
    long rid(long k) {
      long r = ridBits == 64 ? k : k & ((1L << ridBits) - 1);
      long page = firstPage + (r >>> slotBits);
      long slot = r & ((1L << slotBits) - 1);
      return page << 16 | slot;
    }
  }

  private final int n;
  private final int len;
  private final long lastPage;
  private Layout layout;
  private byte[] longs; // the longs, native order, n of them from longsAt
  private int longsAt;
  // Whether the longs are in order; false for a buffer packed in arrival order (RID order), which
  // GroupSort sorts together with the group's other buffers, or sortKeys on its own.
  private boolean keyOrdered;
  // Whether the longs are in the order the entries came (RID order): no radix pass moved them.
  private boolean inArrivalOrder;

  PackedEntries(
      int n,
      Layout layout,
      long lastPage,
      byte[] longs,
      int longsAt,
      boolean keyOrdered,
      boolean inArrivalOrder) {
    this.n = n;
    this.len = layout.entryLength();
    this.layout = layout;
    this.lastPage = lastPage;
    this.longs = longs;
    this.longsAt = longsAt;
    this.keyOrdered = keyOrdered;
    this.inArrivalOrder = inArrivalOrder;
  }

  /**
   * Sorts the {@code n >= 1} entries of {@code len} bytes at {@code data[j × len]} (arrival order,
   * RIDs non-decreasing, the RID the last 8 bytes) using the pair region at {@code data[base]}
   * ({@code 16 n} bytes) as scratch; null, with the entries unchanged, when the varying key bytes
   * and the RID do not fit in 64 bits.
   */
  static PackedEntries sort(byte[] data, int base, int n, int len) {
    return pack(data, base, n, len, true);
  }

  /**
   * {@link #sort}'s packing without its passes: the longs stay in arrival order, which is RID
   * order, unless they came in key order anyway ({@link #keyOrdered}). For a group sorted as one at
   * the build ({@link GroupSort}); {@link #sortKeys} sorts such a buffer on its own.
   */
  static PackedEntries packInArrivalOrder(byte[] data, int base, int n, int len) {
    return pack(data, base, n, len, false);
  }

  private static PackedEntries pack(byte[] data, int base, int n, int len, boolean sort) {
    int keyLen = len - 8;
    if (n < 1 || keyLen < 0) {
      return null;
    }
    // Each step is a method with one loop, so that each compiles on its own (a method with four
    // loops, called once per buffer, was compiled loop by loop on stack replacement, a dozen times
    // over a rebuild).
    // 1. Varying key bytes and the largest slot.
    long[] diff = new long[(keyLen + 7) >>> 3];
    int maxSlot = varyingBytes(data, n, len, diff);
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
    Layout layout = new Layout(Arrays.copyOf(data, keyLen), at, ridBits, slotBits, firstPage);
    // 2. Pack into the lower half of the pair region, counting the key digits.
    int lower = base;
    if (!sort) {
      boolean inOrder = PackedForm.packInArrivalOrder(data, n, len, layout, lower);
      return new PackedEntries(n, layout, lastPage, data, lower, inOrder, true);
    }
    int[] counts = new int[varying << 8]; // digit d's counts at [d << 8, (d + 1) << 8)
    int upper = base + (n << 3);
    boolean inOrder = PackedForm.pack(data, n, len, layout, counts, lower);
    // 3. LSD passes over the key digits, skipping digits shared by all; none at all when the
    // entries came in order already (a key that grows with the RID: a primary key loaded in key
    // order).
    int passes = inOrder ? 0 : bytePasses(data, lower, data, upper, n, layout, counts);
    return new PackedEntries(
        n, layout, lastPage, data, passes % 2 == 0 ? lower : upper, true, inOrder);
  }

  /**
   * Stable LSD passes over the {@code n} longs at {@code a[aAt]}, one a varying key byte (last
   * first, skipping a byte every long shares), back and forth with {@code b[bAt]}; returns how many
   * it made: an even number leaves the longs in {@code a}, an odd one in {@code b}.
   */
  private static int bytePasses(
      byte[] a, int aAt, byte[] b, int bAt, int n, Layout layout, int[] counts) {
    int ridBits = layout.ridBits();
    int[] pos = new int[256];
    int passes = 0;
    for (int d = 0; d < layout.at().length; d++) {
      byte[] src = passes % 2 == 0 ? a : b;
      int srcAt = passes % 2 == 0 ? aAt : bAt;
      int c = d << 8;
      int shift = ridBits + (d << 3);
      if (counts[c + ((int) ((long) LONG.get(src, srcAt) >>> shift) & 0xFF)] == n) {
        continue;
      }
      int sum = 0;
      for (int v = 0; v < 256; v++) {
        pos[v] = sum;
        sum += counts[c + v];
      }
      radixPass(
          src, srcAt, passes % 2 == 0 ? b : a, passes % 2 == 0 ? bAt : aAt, n, shift, 0xFF, pos);
      passes++;
    }
    return passes;
  }

  long lastPage() {
    return lastPage;
  }

  /** The array holding the longs, from {@link #longsAt}: for loops that read them in bulk. */
  byte[] longs() {
    return longs;
  }

  int longsAt() {
    return longsAt;
  }

  /** Whether the longs are in order: sorted, or packed in arrival order that was key order. */
  boolean keyOrdered() {
    return keyOrdered;
  }

  /**
   * Sorts longs packed in arrival order ({@link #packInArrivalOrder}) by their key bytes, as {@link
   * #sort} would have (stable LSD passes: they are in RID order): for a buffer of a group meant to
   * be sorted as one that is merged after all (it spills, or the memory for one sort was not
   * there). Before {@link #compact} the longs fill the lower half of the buffer's pair region and
   * the passes use its upper half, as {@link #sort} does; after it, a new array.
   */
  void sortKeys() {
    int varying = layout.at().length;
    if (!keyOrdered && varying > 0) {
      int[] counts = new int[varying << 8];
      new PackedForm.Packer(layout, len).count(longs, longsAt, n, counts);
      boolean compact = isCompact();
      byte[] scratch = compact ? new byte[8 * n] : longs;
      int scratchAt = compact ? 0 : longsAt + 8 * n;
      int passes = bytePasses(longs, longsAt, scratch, scratchAt, n, layout, counts);
      if (passes % 2 == 1) {
        longs = scratch;
        longsAt = scratchAt;
      }
      inArrivalOrder = passes == 0;
    }
    keyOrdered = true;
  }

  /** Whether the longs are in the order the entries came, RID order ({@link GroupSort}). */
  boolean inArrivalOrder() {
    return inArrivalOrder;
  }

  /**
   * ORs into {@code diff} (big-endian words of the key part) where each entry differs from entry 0
   * and returns the largest slot. Reading 8 bytes at a time runs into the RID bytes, in bounds; the
   * caller looks at key bytes only.
   */
  private static int varyingBytes(byte[] data, int n, int len, long[] diff) {
    int keyLen = len - 8;
    int words = diff.length;
    int maxSlot = 0;
    for (int off = 0, end = n * len; off < end; off += len) {
      for (int w = 0; w < words; w++) {
        diff[w] |= (long) BE_LONG.get(data, off + (w << 3)) ^ (long) BE_LONG.get(data, w << 3);
      }
      maxSlot = Math.max(maxSlot, (int) ((long) BE_LONG.get(data, off + keyLen) & 0xFFFF));
    }
    return maxSlot;
  }

  /**
   * One stable counting pass: the {@code n} longs at {@code from[src]} to {@code to[dst]}, each to
   * {@code pos} of its digit {@code (long >>> shift) & mask} (then advanced).
   */
  static void radixPass(
      byte[] from, int src, byte[] to, int dst, int n, int shift, int mask, int[] pos) {
    for (int i = 0; i < n; i++) {
      long k = (long) LONG.get(from, src + (i << 3));
      LONG.set(to, dst + (pos[(int) (k >>> shift) & mask]++ << 3), k);
    }
  }

  /**
   * One layout for all of {@code parts} (see the class comment), or null if their entries differ in
   * length or their varying bytes and RIDs together pass 63 bits.
   */
  static Layout common(java.util.List<PackedEntries> parts) {
    if (parts.isEmpty()) {
      return null;
    }
    Layout first = parts.get(0).layout;
    byte[] template = first.template();
    int keyLen = template.length;
    boolean[] varying = new boolean[keyLen];
    long firstPage = Long.MAX_VALUE;
    long lastPage = 0;
    int slotBits = 0;
    for (PackedEntries p : parts) {
      Layout l = p.layout;
      if (l.template().length != keyLen) {
        return null;
      }
      for (int a : l.at()) {
        varying[a] = true;
      }
      for (int i = 0; i < keyLen; i++) {
        varying[i] |= l.template()[i] != template[i];
      }
      firstPage = Math.min(firstPage, l.firstPage());
      lastPage = Math.max(lastPage, p.lastPage);
      slotBits = Math.max(slotBits, l.slotBits());
    }
    int ridBits = slotBits + bits(lastPage - firstPage);
    int[] at = new int[keyLen];
    int v = 0;
    for (int i = 0; i < keyLen; i++) {
      if (varying[i]) {
        at[v++] = i;
      }
    }
    // 63 at most, not 64: the merge plays an exhausted buffer as a long no entry reaches.
    if (8 * v + ridBits > 63) {
      return null;
    }
    return new Layout(template, Arrays.copyOf(at, v), ridBits, slotBits, firstPage);
  }

  Layout layout() {
    return layout;
  }

  /**
   * Rewrites every long into {@code to}, a layout {@link #common} made for this buffer among
   * others, and reads the buffer with it from then on (the entries and their order are unchanged).
   * Not while anything else reads the buffer.
   */
  void recodeInto(Layout to) {
    Recode r = new Recode(layout, to);
    for (int i = 0; i < n; i++) {
      int at = longsAt + (i << 3);
      LONG.set(longs, at, r.apply((long) LONG.get(longs, at)));
    }
    layout = to;
  }

  /**
   * {@link #recodeInto} {@code to} (nothing to rewrite when it is this buffer's layout already),
   * counting into {@code counts} on the way unless it is null: each long's key digits ({@link
   * GroupSort#countDigits}), or, in an array of 2^{@value GroupSort#WHOLE_BITS} counts, the key's
   * lowest {@value GroupSort#WHOLE_BITS} bits whole. The longs are read once for both.
   */
  void recodeCounting(Layout to, int[] counts) {
    // One method a path, one loop each: a loop the JIT compiled without seeing another path taken
    // would be sent back to the interpreter when it is.
    boolean whole = counts != null && counts.length == 1 << GroupSort.WHOLE_BITS;
    if (counts == null) {
      if (layout != to) {
        recodeInto(to);
      }
    } else if (layout == to) {
      if (whole) {
        countWhole(to.ridBits(), counts);
      } else {
        countDigits(to.ridBits(), counts);
      }
    } else if (whole) {
      recodeCountingWhole(to, counts);
    } else {
      recodeCountingDigits(to, counts);
    }
  }

  private void countDigits(int ridBits, int[] counts) {
    for (int i = 0; i < n; i++) {
      GroupSort.countDigits((long) LONG.get(longs, longsAt + (i << 3)), ridBits, counts);
    }
  }

  /**
   * Counts each key's lowest {@value GroupSort#WHOLE_BITS} bits: {@link GroupSort}'s whole keys.
   */
  private void countWhole(int ridBits, int[] counts) {
    for (int i = 0; i < n; i++) {
      counts[(int) ((long) LONG.get(longs, longsAt + (i << 3)) >>> ridBits) & 0xFFFF]++;
    }
  }

  private void recodeCountingDigits(Layout to, int[] counts) {
    int ridBits = to.ridBits();
    Recode r = new Recode(layout, to);
    for (int i = 0; i < n; i++) {
      int at = longsAt + (i << 3);
      long v = r.apply((long) LONG.get(longs, at));
      LONG.set(longs, at, v);
      GroupSort.countDigits(v, ridBits, counts);
    }
    layout = to;
  }

  private void recodeCountingWhole(Layout to, int[] counts) {
    int ridBits = to.ridBits();
    Recode r = new Recode(layout, to);
    for (int i = 0; i < n; i++) {
      int at = longsAt + (i << 3);
      long v = r.apply((long) LONG.get(longs, at));
      LONG.set(longs, at, v);
      counts[(int) (v >>> ridBits) & 0xFFFF]++;
    }
    layout = to;
  }

  /** The {@code i}-th long in sorted order. */
  long packedAt(int i) {
    return (long) LONG.get(longs, longsAt + (i << 3));
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
    return 8L * n + layout.template().length + 4L * layout.at().length;
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
    layout.unpack(packedAt(i), out, off);
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
