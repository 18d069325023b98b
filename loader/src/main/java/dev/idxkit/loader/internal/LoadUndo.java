package dev.idxkit.loader.internal;

import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.Overflow;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.spi.TableState;

/**
 * Takes an interrupted bulk load's rows back out of its table, for {@link
 * dev.idxkit.loader.StartMode#RESTART}.
 *
 * <p>Why it is exact: a bulk load appends to pages no published state referenced (a {@link
 * BulkWrite} never rewrites a published page), so the pages it added are the table's pages now
 * minus the pages recorded before it began ({@link ResumeState#pagesBefore()}), and they hold its
 * rows and nothing else - provided nothing else wrote to the table since, which the row count
 * recorded at the last checkpoint vouches for.
 *
 * <p>Steps, inside the caller's bulk session (nothing is visible before its publish): check the row
 * count and that every page from before is still the table's; for each added page, free the
 * overflow chains its records point to, then the page; set the table back to its old pages and row
 * count. Memory: none beyond the page runs; each added page is read once.
 */
public final class LoadUndo {
  private LoadUndo() {}

  /**
   * Undoes the load {@code prior} describes.
   *
   * @return heap pages freed
   * @throws InvalidInputException if the table changed since the load's last checkpoint
   */
  public static long undo(BulkWrite bulk, TableInfo table, ResumeState prior) {
    TableState now = bulk.meta().table(table.id());
    PageRuns before = prior.pagesBefore();
    if (now.rows() != prior.tableRowsNow()) {
      throw changed(
          table,
          prior,
          "it has " + now.rows() + " rows, the checkpoint recorded " + prior.tableRowsNow());
    }
    for (long p = before.next(-1); p >= 0; p = before.next(p)) {
      if (!now.pages().contains(p)) {
        throw changed(table, prior, "page " + p + ", the table's before the load, is no longer");
      }
    }
    PageAccess published = bulk.publishedPages(table.area());
    PageAccess freeing = new Freeing(bulk, published);
    long freed = 0;
    for (long p = now.pages().next(-1); p >= 0; p = now.pages().next(p)) {
      if (before.contains(p)) {
        continue;
      }
      Page page = published.read(p);
      for (int slot = 0; slot < HeapPage.slotCount(page); slot++) {
        if (HeapPage.isLive(page, slot) && HeapPage.isOverflow(page, slot)) {
          Overflow.free(freeing, Overflow.stubFirstPage(page, slot));
        }
      }
      bulk.freePage(table.area(), p);
      freed++;
    }
    bulk.meta().table(table.id(), new TableState(before, prior.tableRowsBefore()));
    return freed;
  }

  private static InvalidInputException changed(TableInfo table, ResumeState prior, String what) {
    return new InvalidInputException(
        "cannot restart the load into table "
            + table.name()
            + ": the table changed since the interrupted load's last checkpoint ("
            + what
            + "), so its rows can no longer be told apart; continue it with --resume instead");
  }

  /** Reads published pages; frees them in the bulk session (they go at its next publish). */
  private record Freeing(BulkWrite bulk, PageAccess published) implements PageAccess {
    @Override
    public int pageSize() {
      return published.pageSize();
    }

    @Override
    public int areaId() {
      return published.areaId();
    }

    @Override
    public String name() {
      return published.name();
    }

    @Override
    public Page read(long no) {
      return published.read(no);
    }

    @Override
    public Page write(long no) {
      throw new UnsupportedOperationException("undo only frees pages");
    }

    @Override
    public Page allocate(PageType type) {
      throw new UnsupportedOperationException("undo only frees pages");
    }

    @Override
    public void free(long no) {
      bulk.freePage(published.areaId(), no);
    }
  }
}
