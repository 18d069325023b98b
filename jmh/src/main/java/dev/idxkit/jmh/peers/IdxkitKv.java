package dev.idxkit.jmh.peers;

import dev.idxkit.core.Durability;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.BufferedCursor;
import dev.idxkit.core.internal.btree.TreeCursor;
import dev.idxkit.core.internal.txn.StoreOptions;
import dev.idxkit.core.internal.txn.StoreTxn;
import dev.idxkit.jmh.btree.TreeEntries;
import dev.idxkit.jmh.btree.TreeStore;
import java.nio.file.Path;
import java.util.concurrent.locks.Lock;

/**
 * idxkit in the {@code compare} experiment: the B+tree benchmarks' fixture ({@link TreeStore}, a
 * store with one tree of 16-byte {@link TreeEntries}: key, then the RID that is the value), read
 * the way {@code BTreeReadBench} and the {@code Index} API read it.
 *
 * <p>Build: one bulk session, a {@code TreeBuilder} writing leaves (full, or as full as {@code
 * --fill} says) sequentially through {@code BulkWrite.stream(area)}, then {@code publish()}: the
 * writes are waited for, the area file fsynced and the meta slot written and fsynced. No
 * write-ahead log on this path.
 *
 * <p>Reads: each operation takes {@code store.readLock()}, positions a fresh {@link TreeCursor} on
 * the mapped committed pages (no page cache of its own: the OS page cache through mmap), reads and
 * releases the lock.
 *
 * <p>Inserts: each batch is one transaction begun with {@link Durability#OFF} (the log is written
 * at commit, fsynced only by checkpoints and close), its entries put in the tree's change buffer
 * ({@code StoreTxn.buffer}: logged as ~25-byte edits, held sorted in memory), then commit; a commit
 * that takes the buffers past the store's {@code changeBufferBytes} merges them into the tree in
 * key order, and one that takes the log or the dirty pages past the checkpoint thresholds merges
 * them all and runs the checkpoint too, inside the timing. {@link #persistInserts} makes them
 * durable with a checkpoint that keeps the buffer, {@link #mergeInserts} merges what is left and
 * checkpoints (each timed, reported beside the rounds). Reads lay the buffer over the tree ({@code
 * BufferedCursor}).
 */
final class IdxkitKv implements KvStore {
  private final Path dir;
  private TreeStore store;
  private BTree tree;
  private final byte[] probe = new byte[TreeEntries.KEY_BYTES];
  private final byte[] scratchEntry = new byte[TreeEntries.ENTRY_BYTES];

  private final int fill;

  IdxkitKv(Path dir, int fill) {
    this.dir = dir;
    this.fill = fill;
  }

  @Override
  public String name() {
    return "idxkit";
  }

  @Override
  public String settings() {
    return "TreeStore: 8 KiB pages in node format 2 (page prefix, 8-byte slots with 4-byte heads),"
        + " leaves "
        + fill
        + " % full, bulk build through BulkWrite (no WAL), one"
        + " fsync of the area file and one of the meta at publish; reads through mmap (OS page"
        + " cache, no own cache), store.readLock() and a new cursor per operation (the change"
        + " buffer laid over the tree); inserts: one transaction per batch, Durability.OFF (log"
        + " written at commit, no fsync), entries into the tree's change buffer ("
        + (StoreOptions.DEFAULT_CHANGE_BUFFER_BYTES >> 20)
        + " MiB here, merged into the tree in key order past that), checkpoint beside the"
        + " commits when the log segment or the dirty pages pass half the store's bounds ("
        + (StoreOptions.DEFAULT_CHECKPOINT_BYTES >> 20)
        + " MiB of log, "
        + (StoreOptions.DEFAULT_DIRTY_PAGE_BYTES >> 20)
        + " MiB of dirty pages here)";
  }

  @Override
  public void build(long n) {
    store = TreeStore.create(dir);
    store.build(n, fill);
    Lock l = store.store().readLock();
    l.lock();
    try {
      tree = new BTree(store.store().committedPages(TreeStore.AREA), store.root(), "compare");
    } finally {
      l.unlock();
    }
  }

  @Override
  public void insertBatch(long[] keys, long[] values, int from, int to) {
    try (StoreTxn txn = store.store().begin(Durability.OFF)) {
      for (int i = from; i < to; i++) {
        // The entry goes to the tree's change buffer (its own array: the buffer keeps it); the
        // keys are new, and the RID (the value) makes each entry unique, as in a non-unique index.
        byte[] entry = new byte[TreeEntries.ENTRY_BYTES];
        TreeEntries.entry(keys[i], values[i], entry);
        txn.buffer(TreeStore.INDEX_ID, TreeStore.AREA, TreeStore.INDEX_NAME, entry, true);
      }
      txn.commit();
    }
    refresh();
  }

  /**
   * A checkpoint that keeps the change buffer: the log fsynced with the buffer's snapshot at the
   * head of its new segment, the dirty pages home; the merge stays for later.
   */
  @Override
  public void persistInserts() {
    // No merge: the tree's root stays where it is.
    store.store().checkpointKeepingBuffers();
  }

  /** Merges what the change buffer holds into the tree, and a checkpoint writes it home. */
  @Override
  public void mergeInserts() {
    store.store().mergeAllBuffers();
    store.store().checkpoint();
    // The step's time is only worth comparing with RocksDB's compaction if nothing is left.
    long left = bufferedChanges();
    if (left > 0) {
      throw new IllegalStateException("idxkit's merge step left " + left + " changes buffered");
    }
    refresh();
  }

  /** Changes the committed buffers hold, read under the store's read lock as its contract asks. */
  private long bufferedChanges() {
    Lock l = store.store().readLock();
    l.lock();
    try {
      return store.store().bufferedChanges();
    } finally {
      l.unlock();
    }
  }

  /** The committed tree, whose root a merge of the buffer (at a commit) may have moved. */
  private void refresh() {
    Lock l = store.store().readLock();
    l.lock();
    try {
      long root = store.store().meta().index(TreeStore.INDEX_ID).root();
      tree = new BTree(store.store().committedPages(TreeStore.AREA), root, "compare");
    } finally {
      l.unlock();
    }
  }

  @Override
  public long get(long key) {
    TreeEntries.key(key, probe);
    Lock l = store.store().readLock();
    l.lock();
    try {
      if (!store.store().hasBufferedChanges()) {
        // Nothing buffered (the lookup rounds run before the inserts): the tree alone.
        TreeCursor t = tree.cursor();
        return t.seek(probe) && t.startsWith(probe) ? t.rid() : -1;
      }
      BufferedCursor c = cursor();
      return c.seek(probe) && c.startsWith(probe) ? c.rid() : -1;
    } finally {
      l.unlock();
    }
  }

  @Override
  public int scan(long from, long[] values) {
    TreeEntries.key(from, probe);
    Lock l = store.store().readLock();
    l.lock();
    try {
      int n = 0;
      if (!store.store().hasBufferedChanges()) {
        TreeCursor t = tree.cursor();
        for (boolean on = t.seek(probe); on && n < values.length; on = t.next()) {
          values[n++] = t.rid();
        }
        return n;
      }
      BufferedCursor c = cursor();
      for (boolean on = c.seek(probe); on && n < values.length; on = c.next()) {
        values[n++] = c.rid();
      }
      return n;
    } finally {
      l.unlock();
    }
  }

  /** The tree with the committed change buffer over it; under the read lock. */
  private BufferedCursor cursor() {
    return new BufferedCursor(
        tree, store.store().committedView().buffered(TreeStore.INDEX_ID), false);
  }

  @Override
  public void close() {
    if (store != null) {
      store.close();
      store = null;
      tree = null;
    }
  }
}
