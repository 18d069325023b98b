package dev.idxkit.core;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.internal.IndexScan;
import dev.idxkit.core.internal.ViewSource;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.IndexDef;
import dev.idxkit.core.schema.Values;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.Keys;
import java.util.ArrayList;
import java.util.List;

/**
 * An index of a {@link Database}: point lookups and range scans that return rows. Key values are
 * given for the leading key columns, in index column order; a shorter key matches every entry that
 * starts with it.
 */
public final class Index {
  private final Database db;
  private final int id;

  Index(Database db, int id) {
    this.db = db;
    this.id = id;
  }

  IndexInfo info() {
    IndexInfo i = db.catalog().index(id);
    if (i == null) {
      throw new InvalidInputException("index " + id + " no longer exists");
    }
    return i;
  }

  public IndexDef def() {
    return info().def();
  }

  public String name() {
    return info().name();
  }

  public Table table() {
    return new Table(db, info().def().tableId());
  }

  /** True when the index is maintained and usable (not waiting for a rebuild). */
  public boolean isActive() {
    return db.read(v -> v.index(id) != null && v.index(id).active());
  }

  /** Rows whose leading key columns equal {@code key}, in index order. */
  public List<Row> get(Object... key) {
    List<Row> out = new ArrayList<>();
    try (RowCursor c = scan(KeyRange.prefix(key), false, -1)) {
      c.forEachRemaining(out::add);
    }
    return out;
  }

  /** Every row in index order. */
  public RowCursor scan() {
    return scan(KeyRange.ALL, false, -1);
  }

  /** Rows in {@code range}, in index order or reversed, at most {@code limit} (-1: no limit). */
  public RowCursor scan(KeyRange range, boolean reverse, long limit) {
    return scan(db.committed(), range, reverse, limit);
  }

  RowCursor scan(ViewSource source, KeyRange range, boolean reverse, long limit) {
    IndexInfo ix = info();
    boolean active =
        source.read(
            v -> {
              IndexState s = v.index(id);
              return s != null && s.active();
            });
    if (!active) {
      throw new InvalidInputException(
          "index " + ix.name() + " is inactive; rebuild it with: idxkit idxbuild DB --inactive");
    }
    byte[] lower = null;
    byte[] upper = null;
    long max = limit;
    if (range.from() != null) {
      byte[] k = encodePrefix(ix, range.from());
      lower = range.fromInclusive() ? k : Keys.successor(k);
      if (lower == null) {
        max = 0; // nothing sorts after an all-0xFF prefix
      }
    }
    if (range.to() != null) {
      byte[] k = encodePrefix(ix, range.to());
      upper = range.toInclusive() ? Keys.successor(k) : k;
    }
    return new IndexScan(
        source, db.catalog().table(ix.def().tableId()), ix, lower, upper, reverse, max);
  }

  /** Encodes leading key values, converting each to its column's type. */
  static byte[] encodePrefix(IndexInfo ix, Object[] values) {
    if (values.length > ix.columns().length) {
      throw new InvalidInputException(
          "index "
              + ix.name()
              + " has "
              + ix.columns().length
              + " key columns, "
              + values.length
              + " values given");
    }
    Object[] typed = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      ColumnDef col = ix.table().columns().get(ix.columns()[i]);
      typed[i] = values[i] == null ? null : Values.coerce(col, values[i]);
    }
    return ix.encoder().encodePrefix(typed);
  }

  @Override
  public String toString() {
    return "Index[" + name() + "]";
  }
}
