package dev.idxkit.core.internal.io;

import java.util.ArrayDeque;

/**
 * Reuses page buffers: allocating direct memory is slow (it is zeroed), and transactions copy a
 * page for every page they change. Keeps at most {@code maxPooled} idle buffers; the rest are left
 * to the garbage collector.
 */
public final class PagePool {
  private final int pageSize;
  private final int maxPooled;
  private final ArrayDeque<PageBuffer> idle = new ArrayDeque<>();

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
      return new PageBuffer(pageSize);
    }
    b.fresh = false;
    b.page.recordWrites(null);
    return b;
  }

  public synchronized void release(PageBuffer b) {
    if (b != null && idle.size() < maxPooled) {
      idle.push(b);
    }
  }
}
