package dev.idxkit.core.internal.btree;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Changes to one index's entries held in memory, sorted, instead of in its tree (issue 18's change
 * buffer): an insert of an entry the tree does not hold, or a delete of one it does. A random
 * insert into a big tree costs a cold descent and an 8 KiB page copy per key; buffered, it costs a
 * sorted-map insert, and {@link #mergeInto} later applies thousands of them in key order, touching
 * each leaf once for all the keys that land in it.
 *
 * <p>Composition: a change applied over the opposite change of the same entry cancels it (an insert
 * of an entry whose delete is buffered means the tree's entry stays, so nothing is left to do), so
 * the buffer holds at most one change per entry, and the entries a reader sees are the tree's,
 * minus the buffered deletes, plus the buffered inserts ({@link BufferedCursor}). The same rule
 * composes a transaction's own buffer onto the committed one at commit, and replays a logged
 * sequence of changes at recovery: applying the changes one by one in log order gives the same
 * buffer as the live store had.
 *
 * <p>Entries are compared as unsigned bytes, as the tree compares them. Not thread-safe: the
 * committed buffers are changed by the writer under the store's write lock and read under its read
 * lock.
 */
public final class ChangeBuffer {
  /** Estimated heap bytes per buffered change besides the entry's own: a map node, an array. */
  public static final int OVERHEAD = 64;

  private final NavigableMap<byte[], Boolean> changes = new TreeMap<>(Arrays::compareUnsigned);
  private long bytes;

  /**
   * Applies an insert ({@code insert}) or a delete of {@code entry} (kept, not copied).
   *
   * @throws IllegalStateException when the same change is already buffered: an entry inserted or
   *     deleted twice, which callers rule out (an insert checks the entry is absent, a delete that
   *     it is present)
   */
  public void apply(byte[] entry, boolean insert) {
    Boolean prev = changes.get(entry);
    if (prev == null) {
      changes.put(entry, insert);
      bytes += cost(entry);
    } else if (prev != insert) {
      changes.remove(entry);
      bytes -= cost(entry);
    } else {
      throw new IllegalStateException(
          "entry "
              + (insert ? "inserted" : "deleted")
              + " twice: "
              + Keys.hex(entry, 0, entry.length));
    }
  }

  /** The buffered change of {@code entry}: TRUE an insert, FALSE a delete, null none. */
  public Boolean change(byte[] entry) {
    return changes.get(entry);
  }

  public boolean isEmpty() {
    return changes.isEmpty();
  }

  public int size() {
    return changes.size();
  }

  /** Estimated heap bytes held. */
  public long bytes() {
    return bytes;
  }

  /** Every buffered change in key order; a view, valid until the buffer next changes. */
  public Iterable<Map.Entry<byte[], Boolean>> changes() {
    return changes.entrySet();
  }

  /**
   * Applies up to {@code max} changes, the lowest entries first, to {@code tree}; returns the last
   * entry applied, or null when the buffer is empty. The buffer itself is left as it is: the caller
   * drops the applied changes with {@link #dropThrough} when the tree's pages become visible, so
   * that readers never see an entry twice or not at all.
   *
   * @throws IllegalStateException when a buffered delete finds no entry in the tree, or an insert
   *     finds it already there: the buffer and the tree disagree
   */
  public byte[] mergeInto(BTree tree, int max) {
    byte[] last = null;
    Iterator<Map.Entry<byte[], Boolean>> it = changes.entrySet().iterator();
    for (int n = 0; n < max && it.hasNext(); n++) {
      Map.Entry<byte[], Boolean> c = it.next();
      last = c.getKey();
      if (c.getValue()) {
        tree.insert(last);
      } else if (!tree.delete(last)) {
        throw new IllegalStateException(
            "buffered delete of an entry index "
                + tree.indexName()
                + " does not hold: "
                + Keys.hex(last, 0, last.length));
      }
    }
    return last;
  }

  /** Drops every change of an entry up to {@code last}, inclusive. */
  public void dropThrough(byte[] last) {
    NavigableMap<byte[], Boolean> head = changes.headMap(last, true);
    for (byte[] e : head.keySet()) {
      bytes -= cost(e);
    }
    head.clear();
  }

  public void clear() {
    changes.clear();
    bytes = 0;
  }

  /** The sorted changes, for {@link BufferedCursor}. */
  NavigableMap<byte[], Boolean> map() {
    return changes;
  }

  private static long cost(byte[] entry) {
    return OVERHEAD + entry.length;
  }
}
