package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;
import java.util.List;

/** A table: id, lower-case name, columns in order, and the area its heap pages live in. */
public record TableDef(int id, String name, List<ColumnDef> columns, int areaId) {
  public TableDef {
    columns = List.copyOf(columns);
  }

  /** Position of the named column (case-insensitive), or -1. */
  public int columnIndex(String column) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equalsIgnoreCase(column)) {
        return i;
      }
    }
    return -1;
  }

  /** Position of the named column; an {@link InvalidInputException} names the table if absent. */
  public int requireColumn(String column) {
    int i = columnIndex(column);
    if (i < 0) {
      throw new InvalidInputException("unknown column " + column + " in table " + name);
    }
    return i;
  }

  public List<ColumnType> columnTypes() {
    return columns.stream().map(ColumnDef::type).toList();
  }
}
