package dev.idxkit.core.schema;

import java.util.List;

/** An index: id, lower-case name, the table it covers, its key columns, uniqueness and area. */
public record IndexDef(
    int id, String name, int tableId, List<IndexColumn> columns, boolean unique, int areaId) {
  public IndexDef {
    columns = List.copyOf(columns);
  }
}
