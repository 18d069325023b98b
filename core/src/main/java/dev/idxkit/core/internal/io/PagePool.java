package dev.idxkit.core.internal.io;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Reuses page buffers: allocating direct memory is slow (it is zeroed), and transactions copy a
 * page for every page they change. Keeps at most {@code maxPooled} idle buffers; the rest are left
 * to the garbage collector.
 *
 * <p>When none is idle, a slab of {@value #SLAB_PAGES} pages (fewer if the pool keeps fewer) is
 * allocated at once and sliced: one allocation, one reservation of direct memory and one cleaner
 * per slab instead of per page (the allocation of new buffers was a tenth of the CPU of random
 * inserts whose changed pages grew to 400 MB). A slab's memory goes back when none of its pages is
 * referenced any more.
 */
public final class PagePool {
  private final int pageSize;
  private final int maxPooled;
  private final ArrayDeque<PageBuffer> idle = new ArrayDeque<>();
  static final int SLAB_PAGES = 64;

  public PagePool(int pageSize, int maxPooled) {
    this.pageSize = pageSize;
    this.maxPooled = maxPooled;
  }

  public int pageSize() {
    return pageSize;
  }

  public synchronized PageBuffer acquire() {
    PageBuffer b = idle.poll();
    if (b == null) {
      // A quarter of what the pool may keep idle at most, so released buffers still find room: a
      // pool kept small keeps its slabs small.
      int pages = Math.max(1, Math.min(SLAB_PAGES, maxPooled / 4 + 1));
      ByteBuffer slab = ByteBuffer.allocateDirect(pageSize * pages);
      for (int i = 1; i < pages; i++) {
        idle.push(new PageBuffer(slab.slice(i * pageSize, pageSize)));
      }
      return new PageBuffer(slab.slice(0, pageSize));
    }
    b.fresh = false;
    b.page.recordWrites(null);
    return b;
  }

  /** Idle buffers now (tests). */
  synchronized int idle() {
    return idle.size();
  }

  public synchronized void release(PageBuffer b) {
    if (b != null && idle.size() < maxPooled) {
      idle.push(b);
    }
  }
}
