package dev.idxkit.core.internal.key;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.IndexColumn;
import dev.idxkit.core.schema.IndexDef;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.spi.KeyEncoder;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns of an index key in key order: each one's type and whether it sorts descending. The
 * byte format the layout implies is described on {@link KeyEncoder}. Immutable.
 */
public final class KeyLayout {
  /** One key column. */
  public record Column(ColumnType type, boolean descending) {
    public Column {
      if (type == null) {
        throw new NullPointerException("type");
      }
    }
  }

  private final List<Column> columns;

  private KeyLayout(List<Column> columns) {
    if (columns.isEmpty()) {
      throw new InvalidInputException("key columns : 0 (expected: at least 1)");
    }
    this.columns = List.copyOf(columns);
  }

  public static KeyLayout of(List<Column> columns) {
    return new KeyLayout(columns);
  }

  /** A layout of ascending columns of these types. */
  public static KeyLayout ascending(ColumnType... types) {
    List<Column> cols = new ArrayList<>();
    for (ColumnType t : types) {
      cols.add(new Column(t, false));
    }
    return new KeyLayout(cols);
  }

  /** The key layout of {@code index}, whose columns name positions in {@code table}. */
  public static KeyLayout of(TableDef table, IndexDef index) {
    if (index.tableId() != table.id()) {
      throw new InvalidInputException(
          "index "
              + index.name()
              + " : table id "
              + index.tableId()
              + " (expected: "
              + table.id()
              + ", table "
              + table.name()
              + ")");
    }
    List<Column> cols = new ArrayList<>();
    for (IndexColumn ic : index.columns()) {
      int c = ic.column();
      if (c < 0 || c >= table.columns().size()) {
        throw new InvalidInputException(
            "index "
                + index.name()
                + " column : "
                + c
                + " (expected: 0.."
                + (table.columns().size() - 1)
                + ", the columns of table "
                + table.name()
                + ")");
      }
      cols.add(new Column(table.columns().get(c).type(), ic.descending()));
    }
    return new KeyLayout(cols);
  }

  public int size() {
    return columns.size();
  }

  public List<Column> columns() {
    return columns;
  }

  public ColumnType type(int i) {
    return columns.get(i).type();
  }

  public boolean descending(int i) {
    return columns.get(i).descending();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyLayout k && k.columns.equals(columns);
  }

  @Override
  public int hashCode() {
    return columns.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < columns.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(columns.get(i).type().sql());
      if (columns.get(i).descending()) {
        sb.append(" DESC");
      }
    }
    return sb.append(')').toString();
  }
}
