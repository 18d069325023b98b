package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The catalog: areas, tables and indexes, immutable. Changes make a new schema ({@link #withArea},
 * {@link #withTable}, {@link #withIndex}, or {@link DdlParser#apply} for SQL); the meta slot stores
 * it with {@link SchemaCodec}, and {@link #toDdl()} prints it back as SQL.
 *
 * <p>Ids are dense, in order of creation, and never reused (there is no DROP): areas from 0, where
 * {@link #empty()} already holds 0 = {@code data} (default for tables) and 1 = {@code index}
 * (default for indexes); tables and indexes from 1. An id is therefore also a position: {@code
 * tables().get(id - 1)}.
 *
 * <p>Names are case-insensitive and stored in lower case, quoted or not; tables, indexes and areas
 * have separate name spaces (see {@link Names} for the exact rules). Limits: {@value
 * AreaDef#MAX_AREAS} areas (an area id fits in a page header byte), {@value #MAX_TABLES} tables,
 * {@value #MAX_INDEXES} indexes, {@value #MAX_COLUMNS} columns per table, {@value #MAX_KEY_COLUMNS}
 * key columns per index (as SQL Server; a key may be at most a quarter page anyway),
 * VARCHAR/VARBINARY length {@value #MAX_LENGTH} (as PostgreSQL; 0 = unbounded).
 */
public final class Schema {
  public static final int MAX_TABLES = 65_535;
  public static final int MAX_INDEXES = 65_535;
  public static final int MAX_COLUMNS = 1_000;
  public static final int MAX_KEY_COLUMNS = 16;
  public static final int MAX_LENGTH = 10_485_760;

  /** Area ids that exist in every schema. */
  public static final int DATA_AREA = 0;

  public static final int INDEX_AREA = 1;

  private static final Schema EMPTY = new SchemaBuilder().build();
  private static final int MAX_LISTED_NAMES = 12;

  private final List<AreaDef> areas;
  private final List<TableDef> tables;
  private final List<IndexDef> indexes;
  private final Map<String, Integer> areaIds;
  private final Map<String, Integer> tableIds;
  private final Map<String, Integer> indexIds;
  private final List<List<IndexDef>> indexesByTable;

  Schema(SchemaBuilder b) {
    this.areas = List.copyOf(b.areas);
    this.tables = List.copyOf(b.tables);
    this.indexes = List.copyOf(b.indexes);
    this.areaIds = Map.copyOf(b.areaIds);
    this.tableIds = Map.copyOf(b.tableIds);
    this.indexIds = Map.copyOf(b.indexIds);
    List<List<IndexDef>> byTable = new ArrayList<>(tables.size());
    for (int i = 0; i < tables.size(); i++) {
      byTable.add(new ArrayList<>());
    }
    for (IndexDef i : indexes) {
      byTable.get(i.tableId() - 1).add(i);
    }
    byTable.replaceAll(Collections::unmodifiableList);
    this.indexesByTable = byTable;
  }

  /** A schema with the areas {@code data} (0) and {@code index} (1) and nothing else. */
  public static Schema empty() {
    return EMPTY;
  }

  public List<AreaDef> areas() {
    return areas;
  }

  /** Tables in id order. */
  public List<TableDef> tables() {
    return tables;
  }

  /** Indexes in id order. */
  public List<IndexDef> indexes() {
    return indexes;
  }

  public AreaDef area(int id) {
    if (id < 0 || id >= areas.size()) {
      throw new InvalidInputException(
          "unknown area id " + id + " (expected: 0.." + (areas.size() - 1) + ")");
    }
    return areas.get(id);
  }

  public TableDef table(int id) {
    if (id < 1 || id > tables.size()) {
      throw new InvalidInputException("unknown table id " + id + " (expected: " + range(tables));
    }
    return tables.get(id - 1);
  }

  public IndexDef index(int id) {
    if (id < 1 || id > indexes.size()) {
      throw new InvalidInputException("unknown index id " + id + " (expected: " + range(indexes));
    }
    return indexes.get(id - 1);
  }

  public Optional<AreaDef> findArea(String name) {
    Integer id = name == null ? null : areaIds.get(name.toLowerCase(Locale.ROOT));
    return id == null ? Optional.empty() : Optional.of(areas.get(id));
  }

  public Optional<TableDef> findTable(String name) {
    Integer id = name == null ? null : tableIds.get(name.toLowerCase(Locale.ROOT));
    return id == null ? Optional.empty() : Optional.of(tables.get(id - 1));
  }

  public Optional<IndexDef> findIndex(String name) {
    Integer id = name == null ? null : indexIds.get(name.toLowerCase(Locale.ROOT));
    return id == null ? Optional.empty() : Optional.of(indexes.get(id - 1));
  }

  /** The named area; an {@link InvalidInputException} lists the known areas if it is absent. */
  public AreaDef requireArea(String name) {
    return findArea(name).orElseThrow(() -> unknown("area", name, areas, AreaDef::name));
  }

  /** The named table; an {@link InvalidInputException} lists the known tables if it is absent. */
  public TableDef requireTable(String name) {
    return findTable(name).orElseThrow(() -> unknown("table", name, tables, TableDef::name));
  }

  /** The named index; an {@link InvalidInputException} lists the known indexes if it is absent. */
  public IndexDef requireIndex(String name) {
    return findIndex(name).orElseThrow(() -> unknown("index", name, indexes, IndexDef::name));
  }

  /** The indexes of a table, in id order. */
  public List<IndexDef> indexesOf(int tableId) {
    table(tableId);
    return indexesByTable.get(tableId - 1);
  }

  /** This schema plus a new area with the next id. */
  public Schema withArea(String name) {
    SchemaBuilder b = new SchemaBuilder(this);
    b.addArea(name);
    return b.build();
  }

  /**
   * This schema plus a new table with the next id; names are stored in lower case, columns keep
   * their order.
   */
  public Schema withTable(String name, List<ColumnDef> columns, int areaId) {
    SchemaBuilder b = new SchemaBuilder(this);
    b.addTable(name, columns, areaId);
    return b.build();
  }

  /** This schema plus a new index with the next id, on the columns at the given positions. */
  public Schema withIndex(
      String name, int tableId, List<IndexColumn> columns, boolean unique, int areaId) {
    SchemaBuilder b = new SchemaBuilder(this);
    b.addIndex(name, tableId, columns, unique, areaId);
    return b.build();
  }

  /**
   * The schema as SQL that {@link DdlParser#apply} turns back into an equal schema (see {@link
   * DdlWriter} for the cases where that cannot hold).
   */
  public String toDdl() {
    return DdlWriter.write(this);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Schema s
        && areas.equals(s.areas)
        && tables.equals(s.tables)
        && indexes.equals(s.indexes);
  }

  @Override
  public int hashCode() {
    return (areas.hashCode() * 31 + tables.hashCode()) * 31 + indexes.hashCode();
  }

  @Override
  public String toString() {
    return "Schema[areas=" + areas + ", tables=" + tables + ", indexes=" + indexes + "]";
  }

  private static String range(List<?> list) {
    return list.isEmpty() ? "none exist)" : "1.." + list.size() + ")";
  }

  private static <T> InvalidInputException unknown(
      String what, String name, List<T> known, Function<T, String> nameOf) {
    StringBuilder m = new StringBuilder("unknown ").append(what).append(' ').append(name);
    if (known.isEmpty()) {
      m.append(" (there are no ").append(what).append(what.endsWith("x") ? "es)" : "s)");
    } else if (known.size() <= MAX_LISTED_NAMES) {
      m.append(" (known: ");
      m.append(String.join(", ", known.stream().map(nameOf).sorted().toList()));
      m.append(')');
    } else {
      m.append(" (").append(known.size()).append(' ').append(what);
      m.append(what.endsWith("x") ? "es" : "s").append(" exist)");
    }
    return new InvalidInputException(m.toString());
  }
}
