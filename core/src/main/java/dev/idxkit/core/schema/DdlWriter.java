package dev.idxkit.core.schema;

import java.util.List;

/**
 * Renders a {@link Schema} as the DDL {@link DdlParser} reads, such that applying it to {@link
 * Schema#empty()} gives an equal schema: same names, types, ids and areas.
 *
 * <p>Ids follow creation order, so the statements must come in an order that recreates them: tables
 * in id order, indexes in id order, each index after its table, and each area first named in id
 * order (DDL creates an area where it is first named). The writer merges the table and index
 * sequences greedily: the next index goes first when its table is written and its area may be named
 * now, else the next table when its area may; emitting whatever is allowed never blocks a later
 * step, so this finds an order whenever one exists, which it does for every schema built from DDL.
 *
 * <p>A table's primary key is written inline ({@code PRIMARY KEY (a, b)}) when it is the next index
 * at that point, is named {@code <table>_pk}, is unique, lives in the {@code index} area and covers
 * NOT NULL columns only, which is exactly what the inline form recreates. Every other index, UNIQUE
 * constraints included, becomes a CREATE [UNIQUE] INDEX with its own name.
 *
 * <p>Limits: an area that no table or index uses (possible through {@link Schema#withArea}) has no
 * DDL spelling and is left out, and a schema built through the API in an order DDL cannot replay
 * gets its areas renumbered; both are noted in a comment at the top of the output.
 */
final class DdlWriter {
  private final Schema schema;
  private final StringBuilder out = new StringBuilder();
  private final boolean[] areaNamed;
  private int nextNewArea;
  private int nextTable;
  private int nextIndex;
  private boolean reordered;

  private DdlWriter(Schema schema) {
    this.schema = schema;
    this.areaNamed = new boolean[schema.areas().size()];
    areaNamed[Schema.DATA_AREA] = true;
    areaNamed[Schema.INDEX_AREA] = true;
    this.nextNewArea = firstUnnamedArea();
  }

  static String write(Schema schema) {
    return new DdlWriter(schema).write();
  }

  private String write() {
    List<TableDef> tables = schema.tables();
    List<IndexDef> indexes = schema.indexes();
    while (nextTable < tables.size() || nextIndex < indexes.size()) {
      TableDef t = nextTable < tables.size() ? tables.get(nextTable) : null;
      IndexDef i = nextIndex < indexes.size() ? indexes.get(nextIndex) : null;
      boolean indexReady = i != null && i.tableId() <= nextTable;
      if (indexReady && mayName(i.areaId())) {
        index(i);
      } else if (t != null && mayName(t.areaId())) {
        table(t);
      } else {
        reordered = true;
        if (indexReady) {
          index(i);
        } else {
          table(t);
        }
      }
    }
    if (reordered || firstUnnamedArea() < areaNamed.length) {
      out.insert(
          0,
          "-- note: areas unused by any table or index, or named out of creation order, cannot be"
              + " expressed in DDL; replaying this gives them new ids\n");
    }
    return out.toString();
  }

  private void table(TableDef t) {
    if (!out.isEmpty()) {
      out.append('\n');
    }
    out.append("CREATE TABLE ").append(Names.sql(t.name())).append(" (\n");
    List<ColumnDef> columns = t.columns();
    for (int c = 0; c < columns.size(); c++) {
      ColumnDef d = columns.get(c);
      out.append("  ").append(Names.sql(d.name())).append(' ').append(d.type().sql());
      if (!d.nullable()) {
        out.append(" NOT NULL");
      }
      if (c + 1 < columns.size()) {
        out.append(",\n");
      }
    }
    nextTable++;
    IndexDef pk = nextIndex < schema.indexes().size() ? schema.indexes().get(nextIndex) : null;
    if (pk != null && isInlinePrimaryKey(t, pk)) {
      out.append(",\n  PRIMARY KEY ");
      keyColumns(t, pk);
      nextIndex++;
    }
    out.append("\n)");
    tablespace(t.areaId(), Schema.DATA_AREA);
    out.append(";\n");
  }

  private void index(IndexDef i) {
    TableDef t = schema.table(i.tableId());
    out.append("CREATE ").append(i.unique() ? "UNIQUE " : "").append("INDEX ");
    out.append(Names.sql(i.name())).append(" ON ").append(Names.sql(t.name())).append(' ');
    keyColumns(t, i);
    tablespace(i.areaId(), Schema.INDEX_AREA);
    out.append(";\n");
    nextIndex++;
  }

  private boolean isInlinePrimaryKey(TableDef t, IndexDef i) {
    return i.tableId() == t.id()
        && i.unique()
        && i.areaId() == Schema.INDEX_AREA
        && i.name().equals(t.name() + "_pk")
        && i.columns().stream().noneMatch(c -> t.columns().get(c.column()).nullable());
  }

  private void keyColumns(TableDef t, IndexDef i) {
    out.append('(');
    for (int k = 0; k < i.columns().size(); k++) {
      IndexColumn c = i.columns().get(k);
      out.append(k == 0 ? "" : ", ").append(Names.sql(t.columns().get(c.column()).name()));
      if (c.descending()) {
        out.append(" DESC");
      }
    }
    out.append(')');
  }

  private void tablespace(int areaId, int defaultArea) {
    if (areaId != defaultArea) {
      out.append(" TABLESPACE ").append(Names.sql(schema.area(areaId).name()));
    }
    if (!areaNamed[areaId]) {
      areaNamed[areaId] = true;
      nextNewArea = firstUnnamedArea();
    }
  }

  private boolean mayName(int areaId) {
    return areaNamed[areaId] || areaId == nextNewArea;
  }

  private int firstUnnamedArea() {
    int a = 0;
    while (a < areaNamed.length && areaNamed[a]) {
      a++;
    }
    return a;
  }
}
