package dev.idxkit.core.internal.txn;

import dev.idxkit.core.internal.btree.ChangeBuffer;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.spi.TableState;

/**
 * The committed pages of one area, read-only: each page from the log's page index when a commit
 * since the last checkpoint changed it, else from the area file. Valid under the store's read lock,
 * which keeps the pages from changing while they are read.
 */
final class CommittedPages implements PageAccess {
  private final Store store;
  private final int area;

  /** The committed state {@code m} with its pages read through {@code store}. */
  static View view(Store store, MetaState m) {
    return new View() {
      @Override
      public PageAccess pages(int area) {
        return new CommittedPages(store, area);
      }

      @Override
      public TableState table(int id) {
        return m.table(id);
      }

      @Override
      public IndexState index(int id) {
        return m.index(id);
      }

      @Override
      public ChangeBuffer[] buffered(int index) {
        ChangeBuffer b = store.committedBuffers().get(index);
        return b == null ? NO_BUFFERS : new ChangeBuffer[] {b};
      }
    };
  }

  CommittedPages(Store store, int area) {
    this.store = store;
    this.area = area;
  }

  @Override
  public int pageSize() {
    return store.pageSize();
  }

  @Override
  public int areaId() {
    return area;
  }

  @Override
  public String name() {
    return store.areaFile(area).path().toString();
  }

  @Override
  public Page read(long pageNo) {
    return store.readCommitted(area, pageNo);
  }

  /** Scans hint their pages ahead: the area file asks the kernel to start reading them. */
  @Override
  public void willRead(long firstPage, long pages) {
    store.areaFile(area).willNeed(firstPage, pages);
  }

  @Override
  public Page write(long pageNo) {
    throw new UnsupportedOperationException("read-only view of " + name());
  }

  @Override
  public Page allocate(PageType type) {
    throw new UnsupportedOperationException("read-only view of " + name());
  }

  @Override
  public void free(long pageNo) {
    throw new UnsupportedOperationException("read-only view of " + name());
  }
}
