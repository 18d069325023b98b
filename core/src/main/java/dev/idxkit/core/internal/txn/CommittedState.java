package dev.idxkit.core.internal.txn;

import dev.idxkit.core.internal.io.PageBuffer;
import dev.idxkit.core.internal.io.PagePool;
import dev.idxkit.core.internal.log.PageIndex;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * What readers see, and the one lock that makes it consistent: the committed meta, the free lists,
 * and the committed pages not yet home, in two page indexes: the active one, where commits install
 * their pages, and the frozen one, which a checkpoint running beside the commits is writing home. A
 * page is looked up in the active index, then the frozen one, then its area file.
 *
 * <p>Readers hold {@link #readLock()} for one operation. The writer changes the state only under
 * the write lock, in one step per event: a commit ({@link #install}), a checkpoint that held the
 * writer ({@link #checkpointed}: the pages are home, the index is emptied), the start of one beside
 * the commits ({@link #freeze}: the active index becomes the frozen one) and its end ({@link
 * #frozenHome}, or {@link #thaw} when it failed), a bulk publish ({@link #published}), recovery
 * ({@link #recovered}). So a reader sees all of a commit or none of it, and never a page that a
 * checkpoint has taken out of an index before it was home. The checkpoint thread itself only reads
 * the frozen index's images; it is the writer that drops them, once told they are home, so that no
 * image the writer may be copying goes back to the pool under it.
 *
 * <p>The free lists are changed in place by the writer (who holds the store's writer semaphore);
 * readers use only the per-area counts taken at each event.
 */
final class CommittedState {
  private final ReentrantReadWriteLock visibility = new ReentrantReadWriteLock();
  private PageIndex index;
  private PageIndex frozen;
  private PageIndex spare;
  private final int pageSize;
  private volatile MetaState meta;
  private List<FreeList> free;
  private volatile long[] freeCounts = new long[0];
  private boolean metaDirty;
  // The committed change buffers: changed by the writer under the write lock (at install, and by
  // recovery before any reader), read under the read lock.
  private final ChangeBuffers buffers = new ChangeBuffers();

  CommittedState(MetaState meta, List<FreeList> free, PageIndex index, int pageSize) {
    this.meta = meta;
    this.free = free;
    this.index = index;
    this.pageSize = pageSize;
    countFree();
  }

  ChangeBuffers buffers() {
    return buffers;
  }

  /** Drops an index's buffer whose changes compose to nothing, under the write lock. */
  void discardBuffer(int index) {
    Lock w = visibility.writeLock();
    w.lock();
    try {
      buffers.discard(index);
    } finally {
      w.unlock();
    }
  }

  /**
   * Makes each committed change buffer one run, under the write lock ({@link
   * ChangeBuffers#compact}).
   */
  void compactBuffers() {
    Lock w = visibility.writeLock();
    w.lock();
    try {
      buffers.compact();
    } finally {
      w.unlock();
    }
  }

  Lock readLock() {
    return visibility.readLock();
  }

  MetaState meta() {
    return meta;
  }

  /** The free lists, one per area; the writer's to change. */
  List<FreeList> free() {
    return free;
  }

  /** Copies of the free lists, for a check that must not see them change. */
  List<FreeList> freeListCopies() {
    List<FreeList> copies = new ArrayList<>();
    for (FreeList f : free) {
      copies.add(f == null ? new FreeList() : f.copy());
    }
    return copies;
  }

  /** The active index: pages committed since the last checkpoint started. */
  PageIndex index() {
    return index;
  }

  /** The index a checkpoint beside the commits is writing home, or null. */
  PageIndex frozen() {
    return frozen;
  }

  /** The newest committed image of a page not yet home, or null. */
  Page inLog(int area, long pageNo) {
    Page p = index.get(area, pageNo);
    if (p == null) {
      PageIndex f = frozen;
      if (f != null) {
        p = f.get(area, pageNo);
      }
    }
    return p;
  }

  /** Makes the next checkpoint write a meta slot and reset the log even with no page to write. */
  void markMetaDirty() {
    metaDirty = true;
  }

  /** Whether anything committed since the last meta write still waits for a checkpoint. */
  boolean changedSinceMetaWrite() {
    return metaDirty || !index.isEmpty() || frozen != null;
  }

  /** Bytes of committed images in memory, both indexes. */
  long imageBytes() {
    Lock r = visibility.readLock();
    r.lock();
    try {
      return (long) (index.size() + (frozen == null ? 0 : frozen.size())) * pageSize;
    } finally {
      r.unlock();
    }
  }

  /** Bytes of images in the active index (the writer's to ask). */
  long activeBytes() {
    return (long) index.size() * pageSize;
  }

  /**
   * A checkpoint beside the commits starts: the active index becomes the frozen one it writes, and
   * commits go on into an empty one. Returns the frozen index.
   */
  PageIndex freeze(PagePool pool) {
    if (frozen != null) {
      throw new IllegalStateException("a checkpoint is already running");
    }
    PageIndex next = spare != null ? spare : new PageIndex(pool);
    spare = null;
    Lock w = visibility.writeLock();
    w.lock();
    try {
      frozen = index;
      index = next;
      metaDirty = false;
    } finally {
      w.unlock();
    }
    return frozen;
  }

  /**
   * The checkpoint beside the commits wrote its pages home and {@code written}, the meta as of its
   * LSN: the frozen images go (readers now find those pages home), and the current meta takes the
   * generation and checkpoint LSN written.
   */
  void frozenHome(MetaState written) {
    Lock w = visibility.writeLock();
    w.lock();
    try {
      meta =
          meta.toBuilder()
              .generation(written.generation())
              .checkpointLsn(written.checkpointLsn())
              .build();
      frozen.clear();
      spare = frozen;
      frozen = null;
    } finally {
      w.unlock();
    }
  }

  /**
   * The checkpoint beside the commits failed: its pages are not home, so they go back into the
   * active index (where a page committed since has a newer image, that one stays), for the next
   * checkpoint to write.
   */
  void thaw() {
    Lock w = visibility.writeLock();
    w.lock();
    try {
      index.absorbOlder(frozen);
      spare = frozen;
      frozen = null;
      metaDirty = true;
    } finally {
      w.unlock();
    }
  }

  long freePages(int area) {
    long[] c = freeCounts;
    return area < c.length ? c[area] : 0;
  }

  /** A commit: its pages become the newest images, its frees and meta take effect. */
  void install(List<PageBuffer> pages, Consumer<List<FreeList>> frees, MetaState next) {
    MetaState m = meta;
    if (next.generation() != m.generation() || next.checkpointLsn() != m.checkpointLsn()) {
      // A checkpoint beside the commits wrote a meta slot since the transaction copied the meta:
      // the generation and checkpoint LSN are the last slot's, not the transaction's copy's.
      next = next.toBuilder().generation(m.generation()).checkpointLsn(m.checkpointLsn()).build();
    }
    Lock w = visibility.writeLock();
    w.lock();
    try {
      pages.forEach(index::install);
      frees.accept(free);
      meta = next;
      metaDirty = true;
      countFree();
    } finally {
      w.unlock();
    }
  }

  /** A checkpoint wrote every image home and published {@code next}. */
  void checkpointed(MetaState next) {
    Lock w = visibility.writeLock();
    w.lock();
    try {
      meta = next;
      index.clear();
      metaDirty = false;
    } finally {
      w.unlock();
    }
  }

  /** A bulk session published {@code next} with its free lists. */
  void published(MetaState next, List<FreeList> nextFree) {
    Lock w = visibility.writeLock();
    w.lock();
    try {
      meta = next;
      free = nextFree;
      countFree();
    } finally {
      w.unlock();
    }
  }

  /** Recovery replayed {@code transactions} transactions into the index and free lists. */
  void recovered(MetaState recovered, int transactions) {
    meta = recovered;
    metaDirty = transactions > 0;
    countFree();
  }

  private void countFree() {
    long[] c = new long[free.size()];
    for (int a = 0; a < c.length; a++) {
      c[a] = free.get(a).pageCount();
    }
    freeCounts = c;
  }
}
