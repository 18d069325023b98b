package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import net.sf.jsqlparser.statement.create.table.CheckConstraint;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.ForeignKeyIndex;
import net.sf.jsqlparser.statement.create.table.Index;

/**
 * Applies one parsed {@code CREATE TABLE} to the script's schema.
 *
 * <p>Accepted: {@code CREATE TABLE [IF NOT EXISTS] t (col TYPE [NOT NULL | NULL] [PRIMARY KEY]
 * [UNIQUE], ... [, [CONSTRAINT c] PRIMARY KEY (a, b)] [, [CONSTRAINT c] UNIQUE (c)]) [TABLESPACE
 * area]}. Steps:
 *
 * <ol>
 *   <li>Match the comma-separated elements of the column list (tokens) to JSqlParser's column
 *       definitions and constraints, in order, so every error can point at its token.
 *   <li>Resolve column types ({@link SqlTypes}) and column options.
 *   <li>Resolve constraint key columns ({@link KeyColumns}); PRIMARY KEY columns become NOT NULL.
 *   <li>Add the area (created if new; default {@code data}), the table, then its constraint indexes
 *       in the {@code index} area: the primary key first ({@code <table>_pk}), then the UNIQUE
 *       constraints in source order ({@code <table>_<col>[_<col>...]_key}); a {@code CONSTRAINT
 *       name} names the index instead.
 * </ol>
 *
 * With IF NOT EXISTS and an existing table the statement is skipped unchecked, as in PostgreSQL.
 */
final class CreateTableTranslator {
  /** Unquoted words that start a table constraint and cannot be a column name. */
  private static final Set<String> CONSTRAINT_WORDS =
      Set.of("PRIMARY", "UNIQUE", "CONSTRAINT", "FOREIGN", "CHECK", "EXCLUDE");

  private final DdlScript script;
  private final StatementTokens st;
  private final CreateTable ct;

  private String table;
  private final List<ColumnDef> columns = new ArrayList<>();
  private final Map<String, Integer> columnAt = new HashMap<>();
  private Key primaryKey;
  private final List<Key> uniques = new ArrayList<>();

  /** A constraint's index before the table exists: where it was declared, its name and key. */
  private record Key(int at, String name, List<IndexColumn> columns) {}

  CreateTableTranslator(DdlScript script, StatementTokens st, CreateTable ct) {
    this.script = script;
    this.st = st;
    this.ct = ct;
  }

  void apply() {
    boolean ifNotExists = st.is(2, "IF") && st.is(3, "NOT") && st.is(4, "EXISTS");
    int nameAt = ifNotExists ? 5 : 2;
    if (st.is(nameAt + 1, ".")) {
      throw st.error(nameAt, "schema-qualified table names are not supported");
    }
    if (ct.getSelect() != null || ct.getLikeTable() != null) {
      int at = Math.max(st.find("AS", nameAt, st.size()), st.find("LIKE", nameAt, st.size()));
      throw st.error(at, "CREATE TABLE ... AS / LIKE is not supported; list the columns");
    }
    table = name(nameAt, "table");
    String conflict = script.tableConflict(table);
    if (conflict != null) {
      if (ifNotExists) {
        return;
      }
      throw st.error(nameAt, conflict);
    }
    int open = nameAt + 1;
    if (!st.is(open, "(")) {
      throw st.error(open, "expected \"(\" and the column list after the table name");
    }
    int close = st.closeOf(open);
    int areaAt = st.tablespace(close + 1, "column list");
    List<ColumnDefinition> defs = orEmpty(ct.getColumnDefinitions());
    if (defs.isEmpty()) {
      throw st.error(open + 1, "table " + table + " has no columns (expected at least one)");
    }
    List<int[]> columnElements = new ArrayList<>();
    List<int[]> constraintElements = new ArrayList<>();
    classify(st.elements(open), defs, columnElements, constraintElements);
    List<Index> constraints = orEmpty(ct.getIndexes());
    if (columnElements.size() != defs.size() || constraintElements.size() != constraints.size()) {
      throw st.error(open, "cannot read the column list of table " + table);
    }
    for (int k = 0; k < defs.size(); k++) {
      column(columnElements.get(k), defs.get(k));
    }
    for (int k = 0; k < constraints.size(); k++) {
      constraint(constraintElements.get(k), constraints.get(k));
    }
    add(nameAt, areaAt);
  }

  /**
   * Splits the elements into column definitions and constraints. An element is a column when its
   * first token is the name of the next column JSqlParser read and not an unquoted constraint
   * keyword (KEY and INDEX are names unless JSqlParser read them as MySQL constraints).
   */
  private void classify(
      List<int[]> elements, List<ColumnDefinition> defs, List<int[]> cols, List<int[]> others) {
    for (int[] e : elements) {
      SqlToken first = st.get(e[0]);
      boolean keyword = !Names.isQuoted(first.image()) && CONSTRAINT_WORDS.contains(first.upper());
      boolean next =
          cols.size() < defs.size()
              && Names.fromSql(first.image())
                  .equals(Names.fromSql(defs.get(cols.size()).getColumnName()));
      (next && !keyword ? cols : others).add(e);
    }
  }

  private void column(int[] e, ColumnDefinition def) {
    if (columns.size() == Schema.MAX_COLUMNS) {
      throw st.error(e[0], "table " + table + " has more than " + Schema.MAX_COLUMNS + " columns");
    }
    String name = name(e[0], "column");
    if (columnAt.containsKey(name)) {
      throw st.error(e[0], "duplicate column " + name + " in table " + table);
    }
    SqlTypes.Resolved type = SqlTypes.resolve(def.getColDataType(), st, e[0] + 1, e[1]);
    boolean nullable = options(name, def, type.next(), e[1]);
    columnAt.put(name, columns.size());
    columns.add(new ColumnDef(name, type.type(), nullable));
  }

  /**
   * Reads NOT NULL, NULL, PRIMARY KEY and UNIQUE after a column's type, records the keys, and
   * returns whether the column accepts NULL. JSqlParser hands the options over as words; each word
   * is found among the tokens from {@code from} on, so a refused option is reported at its token.
   */
  private boolean options(String name, ColumnDefinition def, int from, int end) {
    List<String> words = orEmpty(def.getColumnSpecs());
    int cursor = from;
    boolean notNull = false;
    int nullAt = -1;
    int primaryAt = -1;
    int uniqueAt = -1;
    for (int w = 0; w < words.size(); w++) {
      String word = words.get(w).toUpperCase(Locale.ROOT);
      int at = locate(word, cursor, end);
      cursor = at + 1;
      String following = w + 1 < words.size() ? words.get(w + 1).toUpperCase(Locale.ROOT) : "";
      if (word.equals("NOT") && following.equals("NULL")) {
        notNull = true;
        w++;
        cursor++;
      } else if (word.equals("NULL")) {
        nullAt = at;
      } else if (word.equals("PRIMARY") && following.equals("KEY")) {
        if (primaryAt >= 0) {
          throw st.error(at, "PRIMARY KEY is given twice for column " + name);
        }
        primaryAt = at;
        w++;
        cursor++;
      } else if (word.equals("UNIQUE")) {
        if (uniqueAt >= 0) {
          throw st.error(at, "UNIQUE is given twice for column " + name);
        }
        uniqueAt = at;
      } else {
        throw st.error(
            at,
            "unsupported column option "
                + st.get(at).quoted()
                + "; supported: NOT NULL, NULL, PRIMARY KEY, UNIQUE");
      }
    }
    if (nullAt >= 0 && (notNull || primaryAt >= 0)) {
      throw st.error(
          nullAt,
          "column "
              + name
              + " is declared NULL but also "
              + (notNull ? "NOT NULL" : "PRIMARY KEY, which is NOT NULL"));
    }
    List<IndexColumn> key = List.of(new IndexColumn(columns.size(), false));
    if (primaryAt >= 0) {
      primaryKey(new Key(primaryAt, null, key));
    }
    if (uniqueAt >= 0) {
      uniques.add(new Key(uniqueAt, null, key));
    }
    return !notNull && primaryAt < 0;
  }

  /** The token in {@code [from, end)} where the option word starts; {@code from} if not found. */
  private int locate(String word, int from, int end) {
    String first = word.startsWith("(") ? "(" : word.split("\\s+")[0];
    int at = st.find(first, from, end);
    return at < 0 ? Math.min(from, end - 1) : at;
  }

  private void constraint(int[] e, Index ix) {
    int p = e[0];
    String name = null;
    if (st.is(p, "CONSTRAINT")) {
      name = name(p + 1, "constraint");
      p += 2;
    }
    if (ix instanceof CheckConstraint) {
      throw st.error(e[0], "CHECK constraints are not supported");
    }
    if (ix instanceof ForeignKeyIndex) {
      throw st.error(e[0], "FOREIGN KEY constraints are not supported");
    }
    boolean primary = st.is(p, "PRIMARY") && st.is(p + 1, "KEY");
    if (!primary && !st.is(p, "UNIQUE")) {
      throw st.error(
          p,
          "unsupported table constraint starting with "
              + st.get(p).quoted()
              + "; supported: PRIMARY KEY (columns), UNIQUE (columns)");
    }
    int open = p + (primary ? 2 : 1);
    if (!st.is(open, "(")) {
      throw st.error(open, "expected \"(\" and the key columns");
    }
    int close = st.closeOf(open);
    if (close + 1 < e[1]) {
      throw st.error(
          close + 1, "unexpected " + st.get(close + 1).quoted() + " after the key columns");
    }
    List<IndexColumn> key = KeyColumns.resolve(st, open, ix.getColumns(), table, columns);
    if (primary) {
      primaryKey(new Key(e[0], name, key));
    } else {
      uniques.add(new Key(e[0], name, key));
    }
  }

  private void primaryKey(Key key) {
    if (primaryKey != null) {
      SqlToken first = st.get(primaryKey.at());
      throw st.error(
          key.at(),
          "table "
              + table
              + " already has a PRIMARY KEY (at line "
              + first.line()
              + ":"
              + first.column()
              + ")");
    }
    primaryKey = key;
  }

  private void add(int nameAt, int areaAt) {
    int areaId = script.area(st, areaAt, AreaDef.DATA);
    if (primaryKey != null) {
      for (IndexColumn c : primaryKey.columns()) {
        ColumnDef d = columns.get(c.column());
        columns.set(c.column(), new ColumnDef(d.name(), d.type(), false));
      }
    }
    TableDef t;
    try {
      t = script.schema.addTable(table, columns, areaId);
    } catch (InvalidInputException e) {
      throw st.error(nameAt, e.getMessage());
    }
    script.tableCreated(table, st.get(nameAt));
    if (primaryKey != null) {
      addIndex(t, primaryKey, table + "_pk");
    }
    uniques.sort(Comparator.comparingInt(Key::at));
    for (Key u : uniques) {
      String generated =
          u.columns().stream()
              .map(c -> columns.get(c.column()).name())
              .collect(Collectors.joining("_", table + "_", "_key"));
      addIndex(t, u, generated);
    }
  }

  private void addIndex(TableDef t, Key key, String generatedName) {
    String name = key.name() != null ? key.name() : generatedName;
    String conflict = script.indexConflict(name);
    if (conflict != null) {
      throw st.error(key.at(), conflict + " (the index of this constraint is named " + name + ")");
    }
    int areaId = script.area(st, -1, AreaDef.INDEX);
    try {
      script.schema.addIndex(name, t.id(), key.columns(), true, areaId);
    } catch (InvalidInputException e) {
      throw st.error(key.at(), e.getMessage());
    }
    script.indexCreated(name, st.get(key.at()));
  }

  private String name(int at, String what) {
    try {
      return Names.normalize(what, Names.fromSql(st.get(at).image()));
    } catch (InvalidInputException e) {
      throw st.error(at, e.getMessage());
    }
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
