package dev.idxkit.idxbuild.sort;

import java.util.List;

/**
 * K-way merge of packed buffers in one {@link PackedEntries.Layout}: the {@link LoserTree} of Knuth
 * (vol. 3, 5.4.1) played on the buffers' longs, each {@link PackedEntries.Recode recoded} into the
 * common layout as it is loaded, whose unsigned order is then the entries' order, so a match is one
 * compare of two longs instead of two cached prefixes and, on a tie, the bytes. Only the winner is
 * unpacked, into this source's own array, which holds the layout's constant bytes from the start:
 * only a winner's varying bytes and RID are written (callers read the array, never write it).
 *
 * <p>Call order: as any {@link EntrySource}: {@link #next()} until false, then {@link #close()}
 * (nothing to release). Each part merges its index range {@code [from[i], to[i])}, so a group cut
 * into key ranges merges each range on its own thread over the same buffers.
 *
 * <p>Steps: leaves {@code k..2k-1} are the parts, internal nodes {@code 1..k-1} hold the loser of
 * their match, node 0 the winner. The current long of each part is kept sign-flipped, so a signed
 * compare gives the unsigned order; an exhausted part plays as {@code Long.MAX_VALUE} and loses
 * ties, and the merge ends when the winner is exhausted. Two parts never hold equal longs (one RID
 * per entry), so the order of ties does not matter; it is by part, for determinism.
 *
 * <p>Memory: per part its position, end and current long, one int of tree, and one entry's bytes.
 */
public final class PackedMerge implements EntrySource {
  private final PackedEntries[] parts;
  private final PackedEntries.Recode[] recode;
  private final PackedEntries.Layout layout;
  private final int k;
  private final int[] pos;
  private final int[] end;
  private final long[] head;
  private final boolean[] done;
  private final int[] tree;
  private final byte[] entry;
  // Entry positions of the layout's varying key bytes, least significant first, for shared().
  private final int[] positionOfByte;
  private long previous;
  private int shared = -1;
  private boolean started;
  private boolean finished;

  /**
   * @param parts packed buffers
   * @param layout a layout {@link PackedEntries#common} made for them
   * @param from the first entry of each part to merge
   * @param to the end of each part's range
   */
  PackedMerge(List<PackedEntries> parts, PackedEntries.Layout layout, int[] from, int[] to) {
    this.parts = parts.toArray(new PackedEntries[0]);
    this.k = this.parts.length;
    this.layout = layout;
    this.recode = new PackedEntries.Recode[k];
    for (int i = 0; i < k; i++) {
      recode[i] = new PackedEntries.Recode(this.parts[i].layout(), layout);
    }
    this.pos = from.clone();
    this.end = to.clone();
    this.head = new long[k];
    this.done = new boolean[k];
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
  }

  /**
   * The buffers of a group, all packed, with one layout for them: what {@link #merge} reads.
   * Immutable; merges of several key ranges may run at once.
   */
  public static final class Group {
    private final List<EntryBuffer> buffers;
    private final PackedEntries.Layout layout;

    private Group(List<EntryBuffer> buffers, PackedEntries.Layout layout) {
      this.buffers = List.copyOf(buffers);
      this.layout = layout;
    }

    /** A merge of the entries in {@code [from, to)} (a null bound is open): a new reader. */
    public PackedMerge merge(byte[] from, byte[] to) {
      List<PackedEntries> parts = new java.util.ArrayList<>();
      int[] lo = new int[buffers.size()];
      int[] hi = new int[buffers.size()];
      for (int i = 0; i < buffers.size(); i++) {
        PackedEntries p = buffers.get(i).packed();
        parts.add(p);
        lo[i] = from == null ? 0 : p.lowerBound(from);
        hi[i] = Math.max(lo[i], to == null ? p.size() : p.lowerBound(to));
      }
      return new PackedMerge(parts, layout, lo, hi);
    }
  }

  /**
   * {@code buffers} as a {@link Group} when every one is packed and one layout fits them all
   * ({@link PackedEntries#common}); null otherwise, and they merge as byte entries. Call once the
   * buffers are final (no more adds).
   */
  public static Group unify(List<EntryBuffer> buffers) {
    List<PackedEntries> parts = new java.util.ArrayList<>();
    for (EntryBuffer b : buffers) {
      PackedEntries p = b.packed();
      if (p == null) {
        return null;
      }
      parts.add(p);
    }
    PackedEntries.Layout common = PackedEntries.common(parts);
    return common == null ? null : new Group(buffers, common);
  }

  @Override
  public boolean next() {
    if (finished || k == 0) {
      finished = true;
      return false;
    }
    boolean first = !started;
    if (first) {
      started = true;
      java.util.Arrays.fill(tree, -1);
      for (int i = 0; i < k; i++) {
        load(i);
        play(i);
      }
    } else {
      int w = tree[0];
      pos[w]++;
      load(w);
      replay(w);
    }
    int w = tree[0];
    if (done[w]) {
      finished = true;
      return false;
    }
    long k = head[w] ^ Long.MIN_VALUE;
    shared = first ? -1 : sharedBytes(previous, k);
    previous = k;
    layout.unpackOver(k, entry, 0);
    return true;
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

  private void load(int i) {
    if (pos[i] < end[i]) {
      head[i] = recode[i].apply(parts[i].packedAt(pos[i])) ^ Long.MIN_VALUE;
    } else {
      done[i] = true;
      head[i] = Long.MAX_VALUE;
    }
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
    long x = head[a];
    long y = head[b];
    if (x != y) {
      return x < y;
    }
    return done[b] && !done[a] || (done[a] == done[b] && a < b);
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
    return shared;
  }

  private void check() {
    if (!started || finished) {
      throw new IllegalStateException("no current entry: next() returned false or was not called");
    }
  }

  @Override
  public void close() {
    finished = true;
  }
}
