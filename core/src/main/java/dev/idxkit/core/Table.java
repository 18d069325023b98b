package dev.idxkit.core;

import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.internal.HeapOps;
import dev.idxkit.core.internal.TableScan;
import dev.idxkit.core.schema.TableDef;

/**
 * A table of a {@link Database}. Each write here is its own auto-committed transaction; use {@link
 * Transaction} to group writes. Values are given in column order, as the Java classes of {@link
 * dev.idxkit.core.schema.TypeKind} (numbers of other classes are converted when exact).
 */
public final class Table {
  private final Database db;
  private final int id;

  Table(Database db, int id) {
    this.db = db;
    this.id = id;
  }

  TableInfo info() {
    TableInfo t = db.catalog().table(id);
    if (t == null) {
      throw new InvalidInputException("table " + id + " no longer exists");
    }
    return t;
  }

  public TableDef def() {
    return info().def();
  }

  public String name() {
    return info().name();
  }

  /** Rows as of the last commit. */
  public long rowCount() {
    return db.read(v -> v.table(id).rows());
  }

  /** Inserts a row and returns its RID. */
  public long insert(Object... values) {
    return db.autocommit(t -> t.insert(this, values));
  }

  /** The row at {@code rid}, or null. */
  public Row get(long rid) {
    TableInfo t = info();
    Object[] row = db.read(v -> HeapOps.read(v, t, rid));
    return row == null ? null : new Row(rid, row);
  }

  /** Replaces the row at {@code rid}; returns its RID afterwards (it may move), or -1 if absent. */
  public long update(long rid, Object... values) {
    return db.autocommit(t -> t.update(this, rid, values));
  }

  /** Deletes the row at {@code rid}; false if there was none. */
  public boolean delete(long rid) {
    return db.autocommit(t -> t.delete(this, rid));
  }

  /** Every row in heap order; rows committed while the scan runs may or may not be seen. */
  public RowCursor scan() {
    return new TableScan(db.committed(), info());
  }

  @Override
  public String toString() {
    return "Table[" + name() + "]";
  }
}
