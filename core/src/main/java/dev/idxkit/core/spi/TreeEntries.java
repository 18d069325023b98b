package dev.idxkit.core.spi;

import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.TreeCursor;

/**
 * A published tree's entries in order, read along the leaf chain: for bulk tools that merge trees
 * without sorting them again ({@code merge-shards} reads each shard's indexes this way).
 *
 * <p>Call order: {@link #open}, then {@link #next} until false, copying each entry with {@link
 * #copyEntry}. Valid under the database's read lock ({@link Engine#readLock()}) like the pages it
 * reads; holds one leaf. The tree must not change while it is read.
 */
public final class TreeEntries {
  private final TreeCursor cursor;
  private boolean started;
  private boolean done;

  private TreeEntries(TreeCursor cursor) {
    this.cursor = cursor;
  }

  /** The entries of the tree rooted at {@code root} in {@code pages} (the index's area). */
  public static TreeEntries open(PageAccess pages, long root, String indexName) {
    return new TreeEntries(new BTree(pages, root, indexName).cursor());
  }

  /** Moves to the next entry (the first on the first call); false at the end. */
  public boolean next() {
    if (done) {
      return false;
    }
    boolean on = started ? cursor.next() : cursor.first();
    started = true;
    done = !on;
    return on;
  }

  /** Copies the current entry ({@code key || rid}) to {@code dst[off..]}; returns its length. */
  public int copyEntry(byte[] dst, int off) {
    return cursor.copyEntry(dst, off);
  }
}
