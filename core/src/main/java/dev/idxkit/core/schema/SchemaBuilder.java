package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The one place where catalog entries are checked and given ids. {@link Schema}'s {@code with...}
 * methods, the DDL parser and the codec all add through it, so a schema that exists is a schema
 * that passed these checks, however it was made.
 *
 * <p>Ids are dense and follow the order of addition: areas from 0 (0 = {@code data}, 1 = {@code
 * index} exist from the start), tables and indexes from 1. Adding is amortized O(1), so a script or
 * an encoded catalog with many entries builds in linear time; {@link #build()} copies once.
 */
final class SchemaBuilder {
  final List<AreaDef> areas = new ArrayList<>();
  final List<TableDef> tables = new ArrayList<>();
  final List<IndexDef> indexes = new ArrayList<>();
  final Map<String, Integer> areaIds = new HashMap<>();
  final Map<String, Integer> tableIds = new HashMap<>();
  final Map<String, Integer> indexIds = new HashMap<>();

  /** A builder holding only the two default areas. */
  SchemaBuilder() {
    addArea(AreaDef.DATA);
    addArea(AreaDef.INDEX);
  }

  /** A builder that continues from {@code schema}. */
  SchemaBuilder(Schema schema) {
    for (AreaDef a : schema.areas()) {
      areas.add(a);
      areaIds.put(a.name(), a.id());
    }
    for (TableDef t : schema.tables()) {
      tables.add(t);
      tableIds.put(t.name(), t.id());
    }
    for (IndexDef i : schema.indexes()) {
      indexes.add(i);
      indexIds.put(i.name(), i.id());
    }
  }

  AreaDef area(String name) {
    Integer id = areaIds.get(name.toLowerCase(Locale.ROOT));
    return id == null ? null : areas.get(id);
  }

  TableDef table(String name) {
    Integer id = tableIds.get(name.toLowerCase(Locale.ROOT));
    return id == null ? null : tables.get(id - 1);
  }

  IndexDef index(String name) {
    Integer id = indexIds.get(name.toLowerCase(Locale.ROOT));
    return id == null ? null : indexes.get(id - 1);
  }

  AreaDef addArea(String name) {
    String n = Names.normalizeArea(name);
    if (areaIds.containsKey(n)) {
      throw new InvalidInputException("area " + n + " already exists");
    }
    if (areas.size() >= AreaDef.MAX_AREAS) {
      throw new InvalidInputException(
          "cannot add area " + n + ": the database has " + AreaDef.MAX_AREAS + " areas, the limit");
    }
    AreaDef a = new AreaDef(areas.size(), n);
    areas.add(a);
    areaIds.put(n, a.id());
    return a;
  }

  TableDef addTable(String name, List<ColumnDef> columns, int areaId) {
    String n = Names.normalize("table", name);
    if (tableIds.containsKey(n)) {
      throw new InvalidInputException("table " + n + " already exists");
    }
    if (tables.size() >= Schema.MAX_TABLES) {
      throw new InvalidInputException(
          "cannot add table "
              + n
              + ": the database has "
              + Schema.MAX_TABLES
              + " tables, the limit");
    }
    if (columns == null || columns.isEmpty() || columns.size() > Schema.MAX_COLUMNS) {
      throw new InvalidInputException(
          "table "
              + n
              + " has "
              + (columns == null ? 0 : columns.size())
              + " columns (expected: 1.."
              + Schema.MAX_COLUMNS
              + ")");
    }
    checkArea("table " + n, areaId);
    List<ColumnDef> cols = new ArrayList<>(columns.size());
    Set<String> seen = new HashSet<>();
    for (ColumnDef c : columns) {
      if (c == null || c.type() == null) {
        throw new InvalidInputException("table " + n + ": column " + cols.size() + " is missing");
      }
      String cn = Names.normalize("column", c.name());
      if (!seen.add(cn)) {
        throw new InvalidInputException("table " + n + " has two columns named " + cn);
      }
      int length = c.type().length();
      boolean sized = c.type().kind() == TypeKind.VARCHAR || c.type().kind() == TypeKind.VARBINARY;
      if (!sized && length != 0) {
        throw new InvalidInputException(
            "column "
                + n
                + "."
                + cn
                + ": "
                + c.type().kind()
                + " takes no length (got "
                + length
                + ")");
      }
      if (length > Schema.MAX_LENGTH) {
        throw new InvalidInputException(
            "column "
                + n
                + "."
                + cn
                + ": length "
                + length
                + " (expected: 1.."
                + Schema.MAX_LENGTH
                + ")");
      }
      cols.add(new ColumnDef(cn, c.type(), c.nullable()));
    }
    TableDef t = new TableDef(tables.size() + 1, n, cols, areaId);
    tables.add(t);
    tableIds.put(n, t.id());
    return t;
  }

  IndexDef addIndex(
      String name, int tableId, List<IndexColumn> columns, boolean unique, int areaId) {
    String n = Names.normalize("index", name);
    if (indexIds.containsKey(n)) {
      throw new InvalidInputException("index " + n + " already exists");
    }
    if (indexes.size() >= Schema.MAX_INDEXES) {
      throw new InvalidInputException(
          "cannot add index "
              + n
              + ": the database has "
              + Schema.MAX_INDEXES
              + " indexes, the limit");
    }
    if (tableId < 1 || tableId > tables.size()) {
      throw new InvalidInputException(
          "index " + n + ": table id " + tableId + " (expected: 1.." + tables.size() + ")");
    }
    TableDef table = tables.get(tableId - 1);
    if (columns == null || columns.isEmpty() || columns.size() > Schema.MAX_KEY_COLUMNS) {
      throw new InvalidInputException(
          "index "
              + n
              + " has "
              + (columns == null ? 0 : columns.size())
              + " key columns (expected: 1.."
              + Schema.MAX_KEY_COLUMNS
              + ")");
    }
    Set<Integer> seen = new HashSet<>();
    for (IndexColumn c : columns) {
      if (c == null) {
        throw new InvalidInputException("index " + n + ": a key column is missing");
      }
      if (c.column() < 0 || c.column() >= table.columns().size()) {
        throw new InvalidInputException(
            "index "
                + n
                + ": column position "
                + c.column()
                + " (expected: 0.."
                + (table.columns().size() - 1)
                + " in table "
                + table.name()
                + ")");
      }
      if (!seen.add(c.column())) {
        throw new InvalidInputException(
            "index " + n + " names column " + table.columns().get(c.column()).name() + " twice");
      }
    }
    checkArea("index " + n, areaId);
    IndexDef i = new IndexDef(indexes.size() + 1, n, tableId, columns, unique, areaId);
    indexes.add(i);
    indexIds.put(n, i.id());
    return i;
  }

  Schema build() {
    return new Schema(this);
  }

  private void checkArea(String owner, int areaId) {
    if (areaId < 0 || areaId >= areas.size()) {
      throw new InvalidInputException(
          owner + ": area id " + areaId + " (expected: 0.." + (areas.size() - 1) + ")");
    }
  }
}
