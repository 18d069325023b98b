package dev.idxkit.idxbuild.sort;

import java.util.List;

/**
 * K-way merge of packed buffers in one {@link PackedEntries.Layout}: the {@link LoserTree} of Knuth
 * (vol. 3, 5.4.1) played on the buffers' longs, each moved into the common layout as it is loaded
 * (its RID re-based, {@link Recode#moveRid}; {@link #unify} has rewritten any buffer that varies in
 * other key bytes), whose unsigned order is then the entries' order, so a match is one compare of
 * two longs instead of two cached prefixes and, on a tie, the bytes. Only the winner is unpacked,
 * into this source's own array, which holds the layout's constant bytes from the start: only a
 * winner's varying bytes and RID are written (callers read the array, never write it).
 *
 * <p>Call order: as any {@link EntrySource}: {@link #next()} until false, then {@link #close()}
 * (nothing to release). After a first {@code next()}, {@link #fill} may take the entries a batch at
 * a time instead, into one array, when the caller knows how many are left. Each part merges its
 * index range {@code [from[i], to[i])}, so a group cut into key ranges merges each range on its own
 * thread over the same buffers.
 *
 * <p>Steps: leaves {@code k..2k-1} are the parts (those with entries in their range), internal
 * nodes {@code 1..k-1} hold the loser of their match, node 0 the winner. The current long of each
 * part is kept sign-flipped, so a signed compare gives the unsigned order. An exhausted part plays
 * as {@code Long.MAX_VALUE}, which no entry's long reaches (a common layout takes at most 63 bits,
 * {@link PackedEntries#common}), and the merge ends after as many entries as its parts' ranges
 * hold, so it never lets an exhausted part win; two live parts never hold equal longs (one RID per
 * entry). The tree is played when the merge is made, with its winner's long lowered below every
 * other so that the first {@link #next} advances it like any later one.
 *
 * <p>Why it is written without branches at its edges (the first entry, a part running out, the
 * end): the JIT compiles the merge loop from its profile, and a branch the profile never saw taken
 * becomes a trap that throws the compiled loop away when it is taken. A part running out and the
 * first call of the next group's merge were such branches: each sent the rebuild's merge loop back
 * to the interpreter and the compiler, several times over a cold rebuild. Now the first entry is
 * set up in the constructor, a part's end is a select, and a caller that knows {@link #remaining}
 * never calls {@code next} past the end.
 *
 * <p>Memory: per part its position, end and current long, one int of tree, and one entry's bytes.
 */
public final class PackedMerge implements EntrySource {
  private final PackedEntries[] parts;
  private final Recode[] recode;
  private final PackedEntries.Layout layout;
  private final int k;
  private final int[] pos;
  private final int[] end;
  private final long[] head;
  private final int[] tree;
  private final byte[] entry;
  // How fill unpacks, chosen by fillArray for batchSkip: in three stores, or null (byte by byte).
  private PackedForm.ShortKey batch;
  private int batchSkip = -1;
  // Entry positions of the layout's varying key bytes, least significant first, for shared().
  private final int[] positionOfByte;
  private long previous;
  private int shared;
  private final long total;
  private long emitted;

  /**
   * @param parts packed buffers
   * @param layout a layout {@link PackedEntries#common} made for them
   * @param from the first entry of each part to merge
   * @param to the end of each part's range
   */
  PackedMerge(List<PackedEntries> parts, PackedEntries.Layout layout, int[] from, int[] to) {
    List<Integer> live = new java.util.ArrayList<>();
    long sum = 0;
    for (int i = 0; i < parts.size(); i++) {
      if (from[i] < to[i]) {
        live.add(i);
        sum += to[i] - from[i];
      }
    }
    this.total = sum;
    this.k = live.size();
    this.layout = layout;
    this.parts = new PackedEntries[k];
    this.recode = new Recode[k];
    this.pos = new int[k];
    this.end = new int[k];
    for (int j = 0; j < k; j++) {
      int i = live.get(j);
      this.parts[j] = parts.get(i);
      if (!Recode.onlyRidMoves(this.parts[j].layout(), layout)) {
        throw new IllegalArgumentException(
            "part " + i + " varies in other key bytes than the layout: unify the buffers first");
      }
      recode[j] = new Recode(this.parts[j].layout(), layout);
      pos[j] = from[i];
      end[j] = to[i];
    }
    this.head = new long[k];
    this.tree = new int[Math.max(1, k)];
    this.entry = new byte[layout == null ? 0 : layout.entryLength()];
    int varying = layout == null ? 0 : layout.at().length;
    this.positionOfByte = new int[varying];
    for (int i = 0; i < varying; i++) {
      positionOfByte[i] = layout.at()[varying - 1 - i];
    }
    if (layout != null) {
      // The constant bytes, the same for every entry: each winner then writes only what varies.
      layout.writeTemplate(entry, 0);
    }
    if (k > 0) {
      java.util.Arrays.fill(tree, -1);
      for (int i = 0; i < k; i++) {
        load(i);
        play(i);
      }
      // The winner one step back, below every long: the first next() advances it to its first.
      int w = tree[0];
      pos[w]--;
      head[w] = Long.MIN_VALUE;
    }
  }

  /**
   * The buffers of a group, all packed, with one layout for them: what {@link #merge} reads.
   * Immutable; merges of several key ranges may run at once.
   */
  public static final class Group {
    private final List<PackedEntries> parts;
    private final PackedEntries.Layout layout;

    private Group(List<PackedEntries> parts, PackedEntries.Layout layout) {
      this.parts = List.copyOf(parts);
      this.layout = layout;
    }

    /** A group of one part, sorted ({@link GroupSort}): its merge reads it in order. */
    static Group of(PackedEntries sorted) {
      if (!sorted.keyOrdered()) {
        throw new IllegalArgumentException("a group of one part needs the part sorted");
      }
      return new Group(List.of(sorted), sorted.layout());
    }

    /**
     * For a group of one sorted part ({@link #of}): the entries that cut it into {@code parts}
     * ranges of equal counts (fewer when it holds fewer entries), strictly increasing, as {@link
     * Splitters#split} gives them for buffers and runs; exact here, no sampling.
     */
    public List<byte[]> bounds(int parts) {
      if (this.parts.size() != 1) {
        throw new IllegalStateException("bounds of a group of " + this.parts.size() + " parts");
      }
      PackedEntries p = this.parts.get(0);
      List<byte[]> out = new java.util.ArrayList<>();
      int last = 0;
      for (int i = 1; i < parts; i++) {
        int at = (int) ((long) p.size() * i / parts);
        if (at > last) {
          byte[] e = new byte[p.entryLength()];
          p.unpack(at, e, 0);
          out.add(e);
          last = at;
        }
      }
      return out;
    }

    PackedEntries.Layout layout() {
      return layout;
    }

    /** A merge of the entries in {@code [from, to)} (a null bound is open): a new reader. */
    public PackedMerge merge(byte[] from, byte[] to) {
      int[] lo = new int[parts.size()];
      int[] hi = new int[parts.size()];
      for (int i = 0; i < parts.size(); i++) {
        PackedEntries p = parts.get(i);
        lo[i] = from == null ? 0 : p.lowerBound(from);
        hi[i] = Math.max(lo[i], to == null ? p.size() : p.lowerBound(to));
      }
      return new PackedMerge(parts, layout, lo, hi);
    }
  }

  /**
   * {@code buffers} as a {@link Group} when every one is packed and one layout fits them all
   * ({@link PackedEntries#common}); null otherwise, and they merge as byte entries. Call once the
   * buffers are final (no more adds) and before anything else reads them: a buffer that varies in
   * other bytes than the common layout is rewritten into it.
   */
  public static Group unify(List<EntryBuffer> buffers) {
    List<PackedEntries> parts = new java.util.ArrayList<>();
    for (EntryBuffer b : buffers) {
      PackedEntries p = b.packed();
      if (p == null || !p.keyOrdered()) {
        return null;
      }
      parts.add(p);
    }
    PackedEntries.Layout common = commonLayout(parts);
    return common == null ? null : new Group(parts, common);
  }

  /**
   * One layout for {@code parts} ({@link PackedEntries#common}), with every part that varies in
   * other key bytes rewritten into it, so that only RIDs move as its longs are read; null if no
   * layout fits them all.
   */
  static PackedEntries.Layout commonLayout(List<PackedEntries> parts) {
    PackedEntries.Layout common = PackedEntries.common(parts);
    if (common == null) {
      return null;
    }
    // A buffer that varies in other key bytes than the common layout (usually a scan thread's small
    // last buffer, a few thousand entries) is rewritten into it here, once, and not recoded byte by
    // byte as the merge loads it: the merge loop then only ever moves RIDs. When the loop recoded
    // such a buffer, a group that met one after the loop was compiled hit a trap there that sent
    // the loop back to the interpreter and the compiler in the middle of a rebuild.
    for (PackedEntries p : parts) {
      if (!Recode.onlyRidMoves(p.layout(), common)) {
        p.recodeInto(common);
      }
    }
    return common;
  }

  @Override
  public boolean next() {
    if (emitted >= total) {
      emitted = total + 1; // past the end: no current entry
      return false;
    }
    emitted++;
    long k = advance();
    shared = sharedBytes(previous, k); // for the first entry, with 0: not reported
    previous = k;
    layout.unpackOver(k, entry, 0);
    return true;
  }

  /** Moves the winner's part to its next long, plays it, and returns the new winner's long. */
  private long advance() {
    int w = tree[0];
    pos[w]++;
    load(w);
    replay(w);
    return head[tree[0]] ^ Long.MIN_VALUE;
  }

  @Override
  public long remaining() {
    return emitted > total ? 0 : total - emitted;
  }

  /**
   * Whether {@link #fill} can leave out the first {@code skip} bytes of every entry: none of them
   * varies (a group of one index: its id is the same in every entry).
   */
  public boolean fillsWithout(int skip) {
    int[] at = layout.at();
    return at.length == 0 || at[0] >= skip;
  }

  /**
   * An array for {@link #fill} of {@code count} entries less their first {@code skip} bytes,
   * holding the layout's constant bytes in each (where fill writes only what varies); call it
   * before the fills, with the skip they use. It also chooses how fill unpacks, so that the fill
   * loop has no first-call branch: taken once per merge, such a branch was a trap in the loop
   * compiled for the group before, which recompiled it (see the class comment).
   */
  public byte[] fillArray(int count, int skip) {
    batch = PackedForm.ShortKey.of(layout, skip);
    batchSkip = skip;
    int stride = layout.entryLength() - skip;
    byte[] out = new byte[count * stride];
    byte[] template = layout.template();
    for (int j = 0; j < count; j++) {
      System.arraycopy(template, skip, out, j * stride, template.length - skip);
    }
    return out;
  }

  /**
   * The next {@code count} entries (at least that many are left, {@link #remaining}), each less its
   * first {@code skip} bytes ({@link #fillsWithout}), one after another in {@code out} (made by
   * {@link #fillArray} for this skip); {@code shared[j]} gets the bytes entry {@code j} shares with
   * the one before it, less {@code skip}. What {@code count} calls of {@link #next} give, without a
   * call, an end check and a copy per entry.
   */
  public void fill(byte[] out, int skip, int[] shared, int count) {
    int stride = layout.entryLength() - skip;
    if (skip != batchSkip) {
      throw new IllegalStateException(
          "fill leaving out " + skip + " bytes after fillArray for " + batchSkip);
    }
    // Two loops, not one branch per entry: a branch the compiled loop had not seen taken would be
    // a trap there (see the class comment).
    PackedForm.ShortKey w = batch;
    if (k == 1 && w != null) {
      fillOne(w, out, skip, shared, count, stride);
    } else if (w != null) {
      for (int j = 0; j < count; j++) {
        long k = advance();
        shared[j] = sharedBytes(previous, k) - skip;
        previous = k;
        w.unpack(k, out, j * stride - skip);
      }
    } else {
      for (int j = 0; j < count; j++) {
        long k = advance();
        shared[j] = sharedBytes(previous, k) - skip;
        previous = k;
        layout.unpackOver(k, out, j * stride - skip);
      }
    }
    emitted += count;
  }

  /**
   * {@link #fill} of a merge of one part (a group {@link GroupSort} sorted as one): the part's
   * longs in turn, its position kept in a local. Through {@link #advance}, each entry stored the
   * part's position and long into the tree's arrays and loaded them back for the next one, a chain
   * through memory from one entry to the next.
   */
  private void fillOne(
      PackedForm.ShortKey w, byte[] out, int skip, int[] shared, int count, int stride) {
    PackedEntries part = parts[0];
    Recode rc = recode[0];
    int p = pos[0];
    long prev = previous;
    if (rc.isIdentity()) { // GroupSort's part, in the merge's layout: no RID to move
      for (int j = 0; j < count; j++) {
        long key = part.packedAt(++p);
        shared[j] = sharedBytes(prev, key) - skip;
        prev = key;
        w.unpack(key, out, j * stride - skip);
      }
    } else {
      for (int j = 0; j < count; j++) {
        long key = rc.moveRid(part.packedAt(++p));
        shared[j] = sharedBytes(prev, key) - skip;
        prev = key;
        w.unpack(key, out, j * stride - skip);
      }
    }
    previous = prev;
    pos[0] = p;
    load(0);
  }

  /**
   * The length of the common prefix of the entries of longs {@code a} and {@code b}, from their
   * highest differing bit: in the key bits, the entry position of the varying byte holding it
   * (every byte before that position is constant or a more significant varying byte, equal in
   * both); in the RID bits, the key's length plus the leading bytes the two RIDs share.
   */
  private int sharedBytes(long a, long b) {
    long x = a ^ b;
    int ridBits = layout.ridBits();
    if (ridBits < 64 && x >>> ridBits != 0) {
      return positionOfByte[(63 - Long.numberOfLeadingZeros(x) - ridBits) >>> 3];
    }
    long rids = layout.rid(a) ^ layout.rid(b);
    return layout.template().length + (Long.numberOfLeadingZeros(rids) >>> 3);
  }

  /** Part {@code i}'s long at its position, or {@code Long.MAX_VALUE} past its end: a select. */
  private void load(int i) {
    int p = pos[i];
    int e = end[i];
    long v = recode[i].moveRid(parts[i].packedAt(Math.min(p, e - 1))) ^ Long.MIN_VALUE;
    long live = (long) (p - e) >> 63; // all ones while p < e
    head[i] = (v & live) | (Long.MAX_VALUE & ~live);
  }

  private void play(int s) {
    int t = (s + k) >>> 1;
    while (t > 0) {
      int other = tree[t];
      if (other < 0) {
        tree[t] = s;
        return;
      }
      if (less(other, s)) {
        tree[t] = s;
        s = other;
      }
      t >>>= 1;
    }
    tree[0] = s;
  }

  private void replay(int s) {
    for (int t = (s + k) >>> 1; t > 0; t >>>= 1) {
      int other = tree[t];
      if (less(other, s)) {
        tree[t] = s;
        s = other;
      }
    }
    tree[0] = s;
  }

  private boolean less(int a, int b) {
    return head[a] < head[b];
  }

  @Override
  public byte[] array() {
    check();
    return entry;
  }

  @Override
  public int offset() {
    check();
    return 0;
  }

  @Override
  public int length() {
    check();
    return entry.length;
  }

  @Override
  public int shared() {
    check();
    return emitted == 1 ? -1 : shared;
  }

  private void check() {
    if (emitted == 0 || emitted > total) {
      throw new IllegalStateException("no current entry: next() returned false or was not called");
    }
  }

  @Override
  public void close() {
    emitted = total + 1;
  }
}
