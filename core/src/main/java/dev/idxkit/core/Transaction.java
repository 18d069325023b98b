package dev.idxkit.core;

import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.internal.HeapOps;
import dev.idxkit.core.internal.RowOps;
import dev.idxkit.core.internal.TableScan;
import dev.idxkit.core.internal.ViewSource;
import dev.idxkit.core.internal.txn.StoreTxn;
import dev.idxkit.core.internal.txn.View;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A group of writes committed together: all visible at {@link #commit()} or none. Reads through a
 * transaction see its own writes. One transaction at a time per database: {@link Database#begin}
 * waits for the current one. A failed statement (duplicate key, bad value) changes nothing and
 * leaves the transaction usable. {@link #close()} rolls back what was not committed.
 */
public final class Transaction implements AutoCloseable {
  private final Database db;
  private final StoreTxn txn;
  private final ViewSource self;

  Transaction(Database db, StoreTxn txn) {
    this.db = db;
    this.txn = txn;
    this.self =
        new ViewSource() {
          @Override
          public <T> T read(Function<View, T> read) {
            return read.apply(txn);
          }
        };
  }

  public long insert(Table table, Object... values) {
    TableInfo t = table.info();
    return RowOps.insert(txn, t, RowOps.coerce(t, values), db.hints());
  }

  public Row get(Table table, long rid) {
    Object[] row = HeapOps.read(txn, table.info(), rid);
    return row == null ? null : new Row(rid, row);
  }

  public long update(Table table, long rid, Object... values) {
    TableInfo t = table.info();
    return RowOps.update(txn, t, rid, RowOps.coerce(t, values), db.hints());
  }

  public boolean delete(Table table, long rid) {
    return RowOps.delete(txn, table.info(), rid, db.hints());
  }

  public RowCursor scan(Table table) {
    return new TableScan(self, table.info());
  }

  public List<Row> lookup(Index index, Object... key) {
    List<Row> out = new ArrayList<>();
    try (RowCursor c = index.scan(self, KeyRange.prefix(key), false, -1)) {
      c.forEachRemaining(out::add);
    }
    return out;
  }

  public RowCursor scan(Index index, KeyRange range, boolean reverse, long limit) {
    return index.scan(self, range, reverse, limit);
  }

  /**
   * Records where a restartable job (a load) has got to, committed atomically with this
   * transaction's rows; {@link Database#resumePoint} reads it back after a crash.
   */
  public void setResumePoint(String key, byte[] value) {
    txn.setResumePoint(key, value);
  }

  public void commit() {
    txn.commit();
  }

  public void rollback() {
    txn.rollback();
  }

  @Override
  public void close() {
    txn.close();
  }
}
