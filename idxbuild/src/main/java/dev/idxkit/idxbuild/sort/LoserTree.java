package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.spi.Keys;
import java.util.Arrays;
import java.util.List;

/**
 * K-way merge of sorted {@link EntrySource}s with a tournament tree of losers (Knuth vol. 3,
 * 5.4.1): producing each entry costs about log2(k) comparisons, each on two cached 8-byte prefixes
 * (bytes 0..7 and 8..15, zero padded) first and on the full bytes only when both are equal. Two,
 * because an index entry's first 8 bytes are mostly the index id and the high bytes every key
 * shares: one prefix alone would send nearly every match of a merge to the byte compare.
 *
 * <p>Call order: {@code new LoserTree(sources)} (it owns them from then on); {@link #next()} until
 * false; {@link #close()}, which closes every source. Any mix of sources works: in-memory {@link
 * EntryBuffer#source()}s, {@link RunReader}s, other trees. k = 0 is an empty merge; k = 1 passes
 * the single source through.
 *
 * <p>Steps: the leaves are the sources, {@code k..2k-1} in an implicit binary tree whose internal
 * nodes {@code 1..k-1} each hold the loser of the match played there; node 0 holds the overall
 * winner. On the first {@code next} every source is advanced once and the matches are played
 * bottom-up (a node keeps the first player to arrive and plays the second). Each later {@code next}
 * advances the previous winner's source and replays its path to the root only. An exhausted source
 * loses every match and is closed at once, releasing its buffers and files early. Equal entries
 * come out in source order, so the merge is stable.
 *
 * <p>Memory: per source two cached prefixes, array reference, offset and length (about 48 bytes)
 * plus one int of tree. The current entry is the winning source's own buffer: nothing is copied.
 */
public final class LoserTree implements EntrySource {
  private final EntrySource[] sources;
  private final int k;
  private final int[] tree;
  private final long[] prefix;
  private final long[] prefix2;
  private final byte[][] arrays;
  private final int[] offsets;
  private final int[] lengths;
  private final boolean[] done;
  private boolean started;
  private boolean closed;
  private int winner = -1;

  public LoserTree(List<? extends EntrySource> sources) {
    this.sources = sources.toArray(new EntrySource[0]);
    this.k = this.sources.length;
    this.tree = new int[Math.max(1, k)];
    this.prefix = new long[k];
    this.prefix2 = new long[k];
    this.arrays = new byte[k][];
    this.offsets = new int[k];
    this.lengths = new int[k];
    this.done = new boolean[k];
  }

  @Override
  public boolean next() {
    if (closed || k == 0) {
      winner = -1;
      return false;
    }
    if (!started) {
      started = true;
      Arrays.fill(tree, -1);
      for (int i = 0; i < k; i++) {
        load(i);
        play(i);
      }
    } else {
      int w = tree[0];
      if (done[w]) {
        return false;
      }
      load(w);
      replay(w);
    }
    winner = tree[0];
    if (done[winner]) {
      winner = -1;
      return false;
    }
    return true;
  }

  @Override
  public byte[] array() {
    checkEntry();
    return arrays[winner];
  }

  @Override
  public int offset() {
    checkEntry();
    return offsets[winner];
  }

  @Override
  public int length() {
    checkEntry();
    return lengths[winner];
  }

  /** Number of sources merged. */
  public int fanIn() {
    return k;
  }

  /** Closes every source (all are attempted; the first failure is thrown). Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    winner = -1;
    RuntimeException failure = null;
    for (EntrySource s : sources) {
      try {
        s.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void load(int i) {
    EntrySource s = sources[i];
    if (s.next()) {
      byte[] a = s.array();
      int o = s.offset();
      int n = s.length();
      arrays[i] = a;
      offsets[i] = o;
      lengths[i] = n;
      // Sign-flipped so that a signed compare gives the unsigned order.
      prefix[i] = Keys.prefix8(a, o, n) ^ Long.MIN_VALUE;
      prefix2[i] = n > 8 ? Keys.prefix8(a, o + 8, n - 8) ^ Long.MIN_VALUE : Long.MIN_VALUE;
    } else {
      done[i] = true;
      arrays[i] = null;
      s.close();
    }
  }

  /** First pass: a node keeps the first player to arrive; the second plays it. */
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

  /** Later passes: the new entry of source {@code s} plays the losers on its path. */
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

  /** True when source {@code a}'s entry comes before source {@code b}'s. */
  private boolean less(int a, int b) {
    if (done[a]) {
      return false;
    }
    if (done[b]) {
      return true;
    }
    long pa = prefix[a];
    long pb = prefix[b];
    if (pa != pb) {
      return pa < pb;
    }
    // Zero padding cannot mislead: where padded bytes first differ, the shorter entry is either
    // below in a real byte or a prefix of the other, below too.
    pa = prefix2[a];
    pb = prefix2[b];
    if (pa != pb) {
      return pa < pb;
    }
    int c = Keys.compare(arrays[a], offsets[a], lengths[a], arrays[b], offsets[b], lengths[b]);
    return c != 0 ? c < 0 : a < b;
  }

  private void checkEntry() {
    if (winner < 0) {
      throw new IllegalStateException("no current entry: next() returned false or was not called");
    }
  }
}
