package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;
import net.sf.jsqlparser.statement.create.index.CreateIndex;

/**
 * Applies one parsed {@code CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (a, b DESC, ...)
 * [TABLESPACE area]} to the script's schema: checks the name is new, the table and columns exist
 * and the key has 1..{@value Schema#MAX_KEY_COLUMNS} plain columns, then adds the index in its area
 * (created if new; default {@code index}). With IF NOT EXISTS and an existing index the statement
 * is skipped unchecked, as in PostgreSQL.
 */
final class CreateIndexTranslator {
  private final DdlScript script;
  private final StatementTokens st;
  private final CreateIndex ci;

  CreateIndexTranslator(DdlScript script, StatementTokens st, CreateIndex ci) {
    this.script = script;
    this.st = st;
    this.ci = ci;
  }

  void apply() {
    boolean unique = st.is(1, "UNIQUE");
    int p = unique ? 3 : 2;
    boolean ifNotExists = st.is(p, "IF") && st.is(p + 1, "NOT") && st.is(p + 2, "EXISTS");
    int nameAt = ifNotExists ? p + 3 : p;
    if (st.is(nameAt + 1, ".")) {
      throw st.error(nameAt, "schema-qualified index names are not supported");
    }
    int onAt = nameAt + 1;
    int tableAt = onAt + 1;
    if (!st.is(onAt, "ON")) {
      throw st.error(onAt, "expected ON after the index name");
    }
    if (st.is(tableAt + 1, ".")) {
      throw st.error(tableAt, "schema-qualified table names are not supported");
    }
    int open = tableAt + 1;
    if (ci.getIndex().getUsing() != null || st.is(open, "USING")) {
      throw st.error(open, "USING is not supported: every idxkit index is a B+tree");
    }
    if (!st.is(open, "(")) {
      throw st.error(open, "expected \"(\" and the key columns after the table name");
    }
    String name = name(nameAt, "index", ci.getIndex().getName());
    String conflict = script.indexConflict(name);
    if (conflict != null) {
      if (ifNotExists) {
        return;
      }
      throw st.error(nameAt, conflict);
    }
    String tableName = name(tableAt, "table", ci.getTable().getName());
    TableDef table = script.schema.table(tableName);
    if (table == null) {
      throw st.error(
          tableAt,
          "unknown table "
              + tableName
              + " ("
              + DdlScript.listed("tables", script.schema.tables, TableDef::name)
              + ")");
    }
    int areaAt = st.tablespace(st.closeOf(open) + 1, "key columns");
    var key =
        KeyColumns.resolve(st, open, ci.getIndex().getColumns(), table.name(), table.columns());
    int areaId = script.area(st, areaAt, AreaDef.INDEX);
    try {
      script.schema.addIndex(name, table.id(), key, unique, areaId);
    } catch (InvalidInputException e) {
      throw st.error(nameAt, e.getMessage());
    }
    script.indexCreated(name, st.get(nameAt));
  }

  /** The name JSqlParser read, checked; errors point at token {@code at}. */
  private String name(int at, String what, String parsed) {
    try {
      return Names.normalize(what, Names.fromSql(parsed == null ? st.get(at).image() : parsed));
    } catch (InvalidInputException e) {
      throw st.error(at, e.getMessage());
    }
  }
}
