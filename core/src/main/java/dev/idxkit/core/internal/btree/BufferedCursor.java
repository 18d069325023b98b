package dev.idxkit.core.internal.btree;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;

/**
 * The entries of an index as its readers must see them: the tree's, with the buffered changes of
 * {@link ChangeBuffer}s laid over them, walked in one direction.
 *
 * <p>A merge of two sorted streams: the tree's entries from a {@link TreeCursor}, and the buffered
 * changes from the given buffers (the committed one, then a transaction's own: where both hold a
 * change of the same entry, the later one is what counts). At each step the lower entry (the higher
 * one walking in reverse) comes out; a buffered insert is an entry of its own, a buffered delete
 * hides the tree's equal entry (or, with nothing equal in the tree, hides nothing: a delete of an
 * entry a transaction inserted into the committed buffer). With nothing buffered it is the tree
 * cursor with one comparison per entry more.
 *
 * <p>Valid while the tree and the buffers stay as they are: under the read lock for the committed
 * state, inside the transaction for its own.
 */
public final class BufferedCursor {
  private final TreeCursor tree;
  private final ChangeBuffer[] layers;
  private final boolean reverse;
  private final Iterator<Map.Entry<byte[], Boolean>>[] its;
  private final Map.Entry<byte[], Boolean>[] heads;
  private boolean treeOn;
  private byte[] current;

  /**
   * @param layers the buffers over the tree, lowest first (empty buffers may be left out)
   * @param reverse walk from high entries to low: {@link #first} is then the last entry, and {@link
   *     #seek} goes to the last entry below its key
   */
  @SuppressWarnings("unchecked")
  public BufferedCursor(BTree tree, ChangeBuffer[] layers, boolean reverse) {
    this.tree = tree.cursor();
    this.layers = layers;
    this.reverse = reverse;
    this.its = new Iterator[layers.length];
    this.heads = new Map.Entry[layers.length];
  }

  /** To the first entry in the walk's direction. */
  public boolean first() {
    treeOn = reverse ? tree.last() : tree.first();
    for (int i = 0; i < layers.length; i++) {
      NavigableMap<byte[], Boolean> m = layers[i].map();
      start(i, (reverse ? m.descendingMap() : m).entrySet().iterator());
    }
    return advance();
  }

  /** Forward: to the first entry {@code >= key}; in reverse: to the last entry {@code < key}. */
  public boolean seek(byte[] key) {
    treeOn = reverse ? tree.seekBefore(key) : tree.seek(key);
    for (int i = 0; i < layers.length; i++) {
      NavigableMap<byte[], Boolean> m = layers[i].map();
      NavigableMap<byte[], Boolean> from =
          reverse ? m.headMap(key, false).descendingMap() : m.tailMap(key, true);
      start(i, from.entrySet().iterator());
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

  private void start(int layer, Iterator<Map.Entry<byte[], Boolean>> it) {
    its[layer] = it;
    heads[layer] = it.hasNext() ? it.next() : null;
  }

  /** Takes the next entry of the merged streams into {@code current}; false at the end. */
  private boolean advance() {
    while (true) {
      // The lowest (highest in reverse) buffered change across the layers; of equal entries in
      // several layers, the last layer's change counts.
      byte[] change = null;
      boolean insert = false;
      for (Map.Entry<byte[], Boolean> h : heads) {
        if (h != null && (change == null || order(h.getKey(), change) <= 0)) {
          change = h.getKey();
          insert = h.getValue();
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
      for (int i = 0; i < heads.length; i++) {
        if (heads[i] != null && Arrays.equals(heads[i].getKey(), change)) {
          heads[i] = its[i].hasNext() ? its[i].next() : null;
        }
      }
      if (c == 0) {
        treeOn = reverse ? tree.prev() : tree.next(); // the tree's entry, changed by the buffer
      }
      if (insert) {
        current = change;
        return true;
      }
      // A delete: it hid the tree's equal entry, or (nothing equal) an entry a lower layer
      // inserted.
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
