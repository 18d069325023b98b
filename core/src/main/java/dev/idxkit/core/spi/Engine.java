package dev.idxkit.core.spi;

import dev.idxkit.core.Database;
import dev.idxkit.core.internal.Internals;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.txn.Store;
import java.util.concurrent.locks.Lock;

/**
 * The door from an open {@link Database} to the engine SPI: what the bulk paths (the loader, the
 * rebuilder, Spark shard writers) need beyond the API, and nothing more.
 *
 * <p>Call order of a bulk tool: take {@link #readLock()} while reading {@link #meta()} and {@link
 * #committedPages(int)} (the published state), then {@link #beginBulk()} to write pages past the
 * high-water mark or pages free in the published meta, and {@link BulkWrite#publish} to switch to
 * them in one meta write. Until then nothing references the new pages, so a crash leaves the
 * database as it was at the last publish. See the package documentation for the whole contract.
 */
public final class Engine {
  private final Store store;

  private Engine(Store store) {
    this.store = store;
  }

  /** The engine of {@code db}; cheap, holds no resource of its own. */
  public static Engine of(Database db) {
    return new Engine(Internals.store(db));
  }

  public int pageSize() {
    return store.pageSize();
  }

  /** The published meta (generation, high-water marks, table and index states, resume points). */
  public MetaState meta() {
    return store.meta();
  }

  /** Held while reading committed pages: commits and checkpoints wait for it. */
  public Lock readLock() {
    return store.readLock();
  }

  /** A read-only view of an area's committed pages; valid under {@link #readLock()}. */
  public PageAccess committedPages(int area) {
    return store.committedPages(area);
  }

  /**
   * Index entry changes held in change buffers, not yet in their trees (0 after a checkpoint, so
   * after every open that may write); what a tree read through {@link #committedPages} misses.
   */
  public long bufferedChanges() {
    Lock l = store.readLock();
    l.lock();
    try {
      return store.bufferedChanges();
    } finally {
      l.unlock();
    }
  }

  /** Starts a bulk session; it holds the writer until closed. */
  public BulkWrite beginBulk() {
    return store.beginBulk();
  }

  /** How the database opens its files (the rebuilder opens its sort files the same way). */
  public FileIo fileIo() {
    return store.options().fileIo();
  }

  /** The longest entry (key, plus RID for a non-unique index) a tree of this page size holds. */
  public static int maxEntryLength(int pageSize) {
    return BTree.maxEntryLength(pageSize);
  }
}
