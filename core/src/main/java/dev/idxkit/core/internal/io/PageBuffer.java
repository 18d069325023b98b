package dev.idxkit.core.internal.io;

import dev.idxkit.core.spi.Page;
import java.nio.ByteBuffer;
import net.openhft.chronicle.bytes.BytesStore;

/** One page of direct memory: a transaction's private copy or a committed image awaiting home. */
public final class PageBuffer {
  public final ByteBuffer buffer;
  public final Page page;

  /**
   * In a transaction: set by the transaction that formatted this page (a new page, or one from the
   * free list), so that its change is logged against a zeroed page, never against a home copy. In a
   * page index: the page's first redo record since the index began is a FRESH one (kept by each
   * newer image of the page), so recovery rebuilds the page from zeros without reading its home
   * copy, and a checkpoint need not put it in its double write. Cleared by the pool.
   */
  public boolean fresh;

  public PageBuffer(int pageSize) {
    this(ByteBuffer.allocateDirect(pageSize));
  }

  /** A page over {@code memory}, a direct buffer of exactly one page (a slice of a slab). */
  PageBuffer(ByteBuffer memory) {
    this.buffer = memory;
    this.page = new Page(BytesStore.wrap(memory), 0, memory.capacity()).trackChanges();
  }
}
