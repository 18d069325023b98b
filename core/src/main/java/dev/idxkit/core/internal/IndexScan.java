package dev.idxkit.core.internal;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.BufferedCursor;
import dev.idxkit.core.spi.IndexState;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.NoSuchElementException;

/**
 * Rows of an index range, in index order or reverse. Bounds are encoded key bytes: {@code lower}
 * inclusive, {@code upper} exclusive (either null for open).
 *
 * <p>Rows come in batches of {@value #BATCH}; each batch is read under one read lock, and the next
 * batch re-seeks just after the last entry returned. So a scan never holds a lock while the caller
 * works, every row it returns was committed, and commits between batches are seen from where the
 * scan has got to (read committed).
 */
public final class IndexScan implements RowCursor {
  static final int BATCH = 256;

  private final ViewSource source;
  private final TableInfo table;
  private final IndexInfo index;
  private final byte[] lower;
  private final byte[] upper;
  private final boolean reverse;
  private long remaining;
  private final ArrayDeque<Row> batch = new ArrayDeque<>();
  private byte[] last;
  private boolean exhausted;

  public IndexScan(
      ViewSource source,
      TableInfo table,
      IndexInfo index,
      byte[] lower,
      byte[] upper,
      boolean reverse,
      long limit) {
    this.source = source;
    this.table = table;
    this.index = index;
    this.lower = lower;
    this.upper = upper;
    this.reverse = reverse;
    this.remaining = limit < 0 ? Long.MAX_VALUE : limit;
  }

  @Override
  public boolean hasNext() {
    if (batch.isEmpty() && !exhausted && remaining > 0) {
      fill();
    }
    return !batch.isEmpty();
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    remaining--;
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
          IndexState s = view.index(index.id());
          BTree tree = new BTree(view.pages(index.area()), s.root(), index.name());
          BufferedCursor c = new BufferedCursor(tree, view.buffered(index.id()), reverse);
          boolean on = position(c);
          int n = 0;
          while (on && n < Math.min(BATCH, remaining)) {
            if (!reverse && upper != null && c.compareTo(upper) >= 0
                || reverse && lower != null && c.compareTo(lower) < 0) {
              on = false;
              break;
            }
            last = c.entry();
            long rid = c.rid();
            Object[] row = HeapOps.read(view, table, rid);
            if (row == null) {
              throw new CorruptDatabaseException(
                  Path.of(view.pages(index.area()).name()),
                  "index " + index.name() + " points at missing row " + Rid.toString(rid));
            }
            batch.add(new Row(rid, row));
            n++;
            on = c.next();
          }
          if (!on) {
            exhausted = true;
          }
          return null;
        });
  }

  private boolean position(BufferedCursor c) {
    if (last == null) {
      byte[] from = reverse ? upper : lower;
      return from == null ? c.first() : c.seek(from);
    }
    if (reverse) {
      return c.seek(last); // the last entry below it
    }
    // Entries are unique: the first entry >= last is last itself (unless it was deleted).
    boolean on = c.seek(last);
    if (on && c.compareTo(last) == 0) {
      on = c.next();
    }
    return on;
  }
}
