package dev.idxkit.core.internal.btree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The entries of an index as its readers must see them: the tree's, with the buffered changes of
 * {@link ChangeBuffer}s laid over them, walked in one direction.
 *
 * <p>A merge of sorted streams: the tree's entries from a {@link TreeCursor}, and the buffered
 * changes of the given buffers (the committed one, then a transaction's own), each buffer a few
 * sorted sources, oldest first. Where several sources hold a change of the same entry, the newest
 * counts. At each step the lowest entry (the highest walking in reverse) comes out: a buffered
 * insert is an entry of its own, a buffered delete hides the tree's equal entry (or, with nothing
 * equal in the tree, an older source's insert). With nothing buffered it is the tree cursor with
 * one comparison per entry more.
 *
 * <p>Valid while the tree and the buffers stay as they are: under the read lock for the committed
 * state, inside the transaction for its own.
 */
public final class BufferedCursor {
  private final TreeCursor tree;
  private final boolean reverse;
  private final ChangeBuffer.Source[] sources;
  private boolean treeOn;
  private byte[] current;

  /**
   * @param layers the buffers over the tree, oldest first (empty buffers may be left out)
   * @param reverse walk from high entries to low: {@link #first} is then the last entry, and {@link
   *     #seek} goes to the last entry below its key
   */
  public BufferedCursor(BTree tree, ChangeBuffer[] layers, boolean reverse) {
    this.tree = tree.cursor();
    this.reverse = reverse;
    List<ChangeBuffer.Source> all = new ArrayList<>();
    for (ChangeBuffer b : layers) {
      b.sources(all);
    }
    this.sources = all.toArray(new ChangeBuffer.Source[0]);
  }

  /** To the first entry in the walk's direction. */
  public boolean first() {
    treeOn = reverse ? tree.last() : tree.first();
    for (ChangeBuffer.Source s : sources) {
      s.seek(null, reverse);
    }
    return advance();
  }

  /** Forward: to the first entry {@code >= key}; in reverse: to the last entry {@code < key}. */
  public boolean seek(byte[] key) {
    treeOn = reverse ? tree.seekBefore(key) : tree.seek(key);
    for (ChangeBuffer.Source s : sources) {
      s.seek(key, reverse);
    }
    return advance();
  }

  /** To the next entry in the walk's direction. */
  public boolean next() {
    return current != null && advance();
  }

  public boolean valid() {
    return current != null;
  }

  /** The current entry (not to be changed). */
  public byte[] entry() {
    check();
    return current;
  }

  /** The RID in the entry's last 8 bytes, big-endian. */
  public long rid() {
    check();
    long rid = 0;
    for (int k = current.length - 8; k < current.length; k++) {
      rid = (rid << 8) | (current[k] & 0xFF);
    }
    return rid;
  }

  /** Unsigned comparison of the current entry with {@code key}. */
  public int compareTo(byte[] key) {
    check();
    return Arrays.compareUnsigned(current, key);
  }

  public boolean startsWith(byte[] prefix) {
    check();
    return current.length >= prefix.length
        && Arrays.equals(current, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** Takes the next entry of the merged streams into {@code current}; false at the end. */
  private boolean advance() {
    while (true) {
      // The lowest (highest in reverse) buffered change across the sources; of equal entries in
      // several sources, the newest source's change counts.
      byte[] change = null;
      boolean insert = false;
      for (ChangeBuffer.Source s : sources) {
        if (s.valid() && (change == null || order(s.key(), change) <= 0)) {
          change = s.key();
          insert = s.insert();
        }
      }
      if (change == null && !treeOn) {
        current = null;
        return false;
      }
      int c;
      if (!treeOn) {
        c = 1;
      } else if (change == null) {
        c = -1;
      } else {
        c = reverse ? -tree.compareTo(change) : tree.compareTo(change);
      }
      if (c < 0) {
        current = tree.entry();
        treeOn = reverse ? tree.prev() : tree.next();
        return true;
      }
      for (ChangeBuffer.Source s : sources) {
        if (s.valid() && Arrays.equals(s.key(), change)) {
          s.step();
        }
      }
      if (c == 0) {
        treeOn = reverse ? tree.prev() : tree.next(); // the tree's entry, changed by the buffer
      }
      if (insert) {
        current = change;
        return true;
      }
      // A delete: it hid the tree's equal entry, or (nothing equal) an entry an older one inserted.
    }
  }

  private int order(byte[] a, byte[] b) {
    int c = Arrays.compareUnsigned(a, b);
    return reverse ? -c : c;
  }

  private void check() {
    if (current == null) {
      throw new IllegalStateException("cursor is not on an entry");
    }
  }
}
