package dev.idxkit.core.schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.statement.create.table.Index;

/**
 * The key columns of an index or a PRIMARY KEY / UNIQUE constraint: {@code (a, b DESC, ...)}, each
 * a column of the table with an optional ASC or DESC. Expressions, prefix lengths and NULLS
 * FIRST/LAST are refused; at most {@value Schema#MAX_KEY_COLUMNS} columns.
 */
final class KeyColumns {
  private KeyColumns() {}

  /**
   * Resolves the list in the parentheses opened at token {@code open}. {@code params} is
   * JSqlParser's reading of the same list, used for the ASC/DESC words; the tokens locate errors.
   */
  static List<IndexColumn> resolve(
      StatementTokens st,
      int open,
      List<Index.ColumnParams> params,
      String table,
      List<ColumnDef> columns) {
    List<int[]> elements = st.elements(open);
    if (elements.isEmpty()) {
      throw st.error(open + 1, "empty key column list (expected at least one column)");
    }
    if (params == null || params.size() != elements.size()) {
      throw st.error(open, "cannot read the key column list");
    }
    List<IndexColumn> out = new ArrayList<>(elements.size());
    Set<Integer> seen = new HashSet<>();
    for (int k = 0; k < elements.size(); k++) {
      int[] e = elements.get(k);
      if (k == Schema.MAX_KEY_COLUMNS) {
        throw st.error(
            e[0],
            "too many key columns: "
                + elements.size()
                + " (expected: 1.."
                + Schema.MAX_KEY_COLUMNS
                + ")");
      }
      boolean descending = direction(st, e, params.get(k));
      String name = Names.fromSql(st.get(e[0]).image());
      int position = position(columns, name);
      if (position < 0) {
        throw st.error(e[0], DdlScript.unknownColumn(name, table, columns));
      }
      if (!seen.add(position)) {
        throw st.error(e[0], "column " + name + " appears twice in the key");
      }
      out.add(new IndexColumn(position, descending));
    }
    return out;
  }

  /** ASC (or nothing) or DESC after the column name; anything else is refused at its token. */
  private static boolean direction(StatementTokens st, int[] e, Index.ColumnParams p) {
    int length = e[1] - e[0];
    boolean directionWord = length == 2 && (st.is(e[0] + 1, "ASC") || st.is(e[0] + 1, "DESC"));
    if (length > 2 || (length == 2 && !directionWord)) {
      throw st.error(
          e[0] + 1,
          "unexpected "
              + st.get(e[0] + 1).quoted()
              + " in a key column; expected a column name, optionally followed by ASC or DESC"
              + " (expressions and prefix lengths are not supported)");
    }
    List<String> words = p.getParams() == null ? List.of() : p.getParams();
    return words.size() == 1 && words.get(0).toUpperCase(Locale.ROOT).equals("DESC");
  }

  private static int position(List<ColumnDef> columns, String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
