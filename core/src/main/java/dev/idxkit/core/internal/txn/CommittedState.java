package dev.idxkit.core.internal.txn;

import dev.idxkit.core.internal.io.PageBuffer;
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
 * and the committed pages still in the log ({@link PageIndex}).
 *
 * <p>Readers hold {@link #readLock()} for one operation. The writer changes the state only under
 * the write lock, in one step per event: a commit ({@link #install}), a checkpoint ({@link
 * #checkpointed}: the pages are home, the index is emptied), a bulk publish ({@link #published}),
 * recovery ({@link #recovered}). So a reader sees all of a commit or none of it, and never a page
 * that a checkpoint has taken out of the index before it was home.
 *
 * <p>The free lists are changed in place by the writer (who holds the store's writer semaphore);
 * readers use only the per-area counts taken at each event.
 */
final class CommittedState {
  private final ReentrantReadWriteLock visibility = new ReentrantReadWriteLock();
  private final PageIndex index;
  private final int pageSize;
  private volatile MetaState meta;
  private List<FreeList> free;
  private volatile long[] freeCounts = new long[0];
  private boolean metaDirty;

  CommittedState(MetaState meta, List<FreeList> free, PageIndex index, int pageSize) {
    this.meta = meta;
    this.free = free;
    this.index = index;
    this.pageSize = pageSize;
    countFree();
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

  PageIndex index() {
    return index;
  }

  /** The newest committed image of a page still in the log, or null. */
  Page inLog(int area, long pageNo) {
    return index.get(area, pageNo);
  }

  /** Makes the next checkpoint write a meta slot and reset the log even with no page to write. */
  void markMetaDirty() {
    metaDirty = true;
  }

  /** Whether anything committed since the last meta write still waits for a checkpoint. */
  boolean changedSinceMetaWrite() {
    return metaDirty || !index.isEmpty();
  }

  long imageBytes() {
    Lock r = visibility.readLock();
    r.lock();
    try {
      return (long) index.size() * pageSize;
    } finally {
      r.unlock();
    }
  }

  long freePages(int area) {
    long[] c = freeCounts;
    return area < c.length ? c[area] : 0;
  }

  /** A commit: its pages become the newest images, its frees and meta take effect. */
  void install(List<PageBuffer> pages, Consumer<List<FreeList>> frees, MetaState next) {
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
