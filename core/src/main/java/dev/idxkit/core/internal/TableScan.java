package dev.idxkit.core.internal;

import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Rid;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.ScanReadAhead;
import java.util.ArrayDeque;
import java.util.NoSuchElementException;

/**
 * Every row of a table in heap order (page, then slot), one heap page per read-lock batch. Resumes
 * after the last page read, so rows committed into earlier pages meanwhile are not seen and no row
 * is returned twice. Heap pages are hinted ahead of the scan ({@link ScanReadAhead}), since the
 * area's mapping is advised for random reads.
 */
public final class TableScan implements RowCursor {
  private final ViewSource source;
  private final TableInfo table;
  private final ArrayDeque<Row> batch = new ArrayDeque<>();
  private ScanReadAhead readAhead;
  private long page = -1;
  private boolean exhausted;

  public TableScan(ViewSource source, TableInfo table) {
    this.source = source;
    this.table = table;
  }

  @Override
  public boolean hasNext() {
    while (batch.isEmpty() && !exhausted) {
      fill();
    }
    return !batch.isEmpty();
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return batch.poll();
  }

  @Override
  public void close() {
    exhausted = true;
    batch.clear();
  }

  private void fill() {
    source.read(
        view -> {
          PageRuns pages = view.table(table.id()).pages();
          page = pages.next(page);
          if (page < 0) {
            exhausted = true;
            return null;
          }
          PageAccess pa = view.pages(table.area());
          if (readAhead == null) {
            readAhead = new ScanReadAhead(pa.pageSize());
          }
          readAhead.before(pa, page);
          Page p = pa.read(page);
          for (int slot = 0, n = HeapPage.slotCount(p); slot < n; slot++) {
            if (HeapPage.isLive(p, slot)) {
              long rid = Rid.of(page, slot);
              batch.add(new Row(rid, HeapOps.read(view, table, rid)));
            }
          }
          return null;
        });
  }
}
