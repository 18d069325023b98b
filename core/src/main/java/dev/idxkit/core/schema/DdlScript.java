package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the statements of one script share while it is applied: the schema being built, and where in
 * the script each new table and index was created, so that a duplicate can say "already created at
 * line 3" rather than only "already exists".
 */
final class DdlScript {
  final SchemaBuilder schema;
  private final Map<String, SqlToken> tablesCreatedAt = new HashMap<>();
  private final Map<String, SqlToken> indexesCreatedAt = new HashMap<>();

  DdlScript(Schema current) {
    this.schema = new SchemaBuilder(current);
  }

  /** Why a table named {@code name} cannot be created, or null if it can. */
  String tableConflict(String name) {
    return conflict("table", name, schema.table(name) != null, tablesCreatedAt);
  }

  /** Why an index named {@code name} cannot be created, or null if it can. */
  String indexConflict(String name) {
    return conflict("index", name, schema.index(name) != null, indexesCreatedAt);
  }

  void tableCreated(String name, SqlToken at) {
    tablesCreatedAt.put(name, at);
  }

  void indexCreated(String name, SqlToken at) {
    indexesCreatedAt.put(name, at);
  }

  /**
   * The id of the area named by the token at {@code i} (creating the area if it is new), or of
   * {@code defaultArea} when {@code i} is negative.
   */
  int area(StatementTokens st, int i, String defaultArea) {
    String name = i < 0 ? defaultArea : Names.fromSql(st.get(i).image());
    AreaDef existing = schema.area(name);
    if (existing != null) {
      return existing.id();
    }
    try {
      return schema.addArea(name).id();
    } catch (InvalidInputException e) {
      throw st.error(i, e.getMessage());
    }
  }

  /** "unknown column x in table t (columns: a, b)" with the list cut short for wide tables. */
  static String unknownColumn(String column, String table, List<ColumnDef> columns) {
    return "unknown column "
        + column
        + " in table "
        + table
        + " ("
        + listed("columns", columns, ColumnDef::name)
        + ")";
  }

  static <T> String listed(String what, List<T> items, Function<T, String> name) {
    if (items.isEmpty()) {
      return "there are no " + what;
    }
    if (items.size() > 12) {
      return items.size() + " " + what;
    }
    return what + ": " + String.join(", ", items.stream().map(name).toList());
  }

  private static String conflict(
      String what, String name, boolean exists, Map<String, SqlToken> createdAt) {
    if (!exists) {
      return null;
    }
    SqlToken at = createdAt.get(name);
    return at == null
        ? what + " " + name + " already exists"
        : what + " " + name + " is already created at line " + at.line() + ":" + at.column();
  }
}
