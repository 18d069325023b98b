package dev.idxkit.cli.output;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TypeKind;
import dev.idxkit.core.schema.Values;
import dev.idxkit.loader.CsvExport;
import dev.idxkit.loader.input.CsvOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The three row formats. Values are written by {@link Values#format} (the text {@code Values.parse}
 * reads back), except where JSON has a native type:
 *
 * <pre>
 * type                        TABLE / CSV text      JSON
 * BIGINT INT SMALLINT         -42                   number
 * DECIMAL                     12.30                 number, exact digits (12.30)
 * DOUBLE                      1.5, NaN, Infinity    number; NaN and infinities as strings
 * BOOLEAN                     true                  true / false
 * VARCHAR TEXT DATE TIMESTAMP the text              string
 * VARBINARY                   \x0a0b                string "\x0a0b"
 * NULL                        NULL / empty field    null
 * </pre>
 *
 * <p>The table format shows control characters escaped ({@code \n}, {@code \t}, {@code \x1b}) so a
 * row stays on one line and a stray escape sequence cannot repaint the terminal; CSV and JSON carry
 * the text exactly.
 */
public final class RowWriters {
  /** Rows the table format reads before it fixes the column widths. */
  static final int TABLE_SAMPLE_ROWS = 200;

  private RowWriters() {}

  /**
   * @param columns the table's columns
   * @param selected positions of the columns to print, in print order
   */
  public static RowWriter create(
      RowFormat format, List<ColumnDef> columns, int[] selected, PrintWriter out) {
    switch (format) {
      case TABLE:
        return new TableWriter(columns, selected, out);
      case CSV:
        return new CsvRows(columns, selected, out, false);
      case JSON:
        return new JsonLines(columns, selected, out);
      default:
        throw new AssertionError(format);
    }
  }

  /**
   * CSV with a header row, RFC 4180 (CRLF line ends, fields quoted when needed). NULL is an empty
   * unquoted field and the empty string is {@code ""}, the convention the loader reads back.
   *
   * @param owns close {@code out} at {@link RowWriter#finish()} (a file the caller opened for it)
   */
  public static RowWriter csv(List<ColumnDef> columns, int[] selected, Writer out, boolean owns) {
    return new CsvRows(columns, selected, out, owns);
  }

  static boolean numeric(ColumnType t) {
    TypeKind k = t.kind();
    return k == TypeKind.BIGINT
        || k == TypeKind.INT
        || k == TypeKind.SMALLINT
        || k == TypeKind.DOUBLE
        || k == TypeKind.DECIMAL;
  }

  /** Buffers the first rows to size the columns, then streams with those widths. */
  private static final class TableWriter implements RowWriter {
    private final List<ColumnDef> columns;
    private final int[] selected;
    private final PrintWriter out;
    private final List<String[]> sample = new ArrayList<>();
    private final boolean[] right;
    private int[] width;

    TableWriter(List<ColumnDef> columns, int[] selected, PrintWriter out) {
      this.columns = columns;
      this.selected = selected;
      this.out = out;
      this.right = new boolean[selected.length];
      for (int i = 0; i < selected.length; i++) {
        right[i] = numeric(columns.get(selected[i]).type());
      }
    }

    @Override
    public void row(Object[] values) {
      String[] cells = new String[selected.length];
      for (int i = 0; i < selected.length; i++) {
        ColumnDef c = columns.get(selected[i]);
        Object v = values[selected[i]];
        cells[i] = v == null ? "NULL" : visible(Values.format(c.type(), v));
      }
      if (width == null) {
        sample.add(cells);
        if (sample.size() >= TABLE_SAMPLE_ROWS) {
          printSample();
        }
      } else {
        TextTable.printRow(out, "", cells, width, right);
      }
    }

    private void printSample() {
      String[] headers = new String[selected.length];
      width = new int[selected.length];
      for (int i = 0; i < selected.length; i++) {
        headers[i] = columns.get(selected[i]).name();
        width[i] = headers[i].length();
      }
      for (String[] r : sample) {
        for (int i = 0; i < r.length; i++) {
          width[i] = Math.max(width[i], r[i].length());
        }
      }
      TextTable.printRow(out, "", headers, width, right);
      String[] rule = new String[selected.length];
      for (int i = 0; i < rule.length; i++) {
        rule[i] = "-".repeat(width[i]);
      }
      TextTable.printRow(out, "", rule, width, right);
      for (String[] r : sample) {
        TextTable.printRow(out, "", r, width, right);
      }
      sample.clear();
    }

    @Override
    public void finish() {
      if (width == null) {
        printSample();
      }
      out.flush();
    }
  }

  /** A table cell stays on its line: control characters are shown escaped, as \n and \t. */
  static String visible(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < 0x20 || s.charAt(i) == 0x7f) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int j = 0; j < s.length(); j++) {
          char c = s.charAt(j);
          switch (c) {
            case '\n' -> sb.append("\\n");
            case '\r' -> sb.append("\\r");
            case '\t' -> sb.append("\\t");
            default -> {
              if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\x%02x", (int) c));
              } else {
                sb.append(c);
              }
            }
          }
        }
        return sb.toString();
      }
    }
    return s;
  }

  /** CSV rows through the loader's writer, so dump, scan and the loader agree on every rule. */
  private static final class CsvRows implements RowWriter {
    private final CsvExport.Rows rows;
    private final Writer target;
    private final boolean owns;

    CsvRows(List<ColumnDef> columns, int[] selected, Writer out, boolean owns) {
      this.rows = new CsvExport.Rows(columns, selected, out, CsvOptions.defaults());
      this.target = out;
      this.owns = owns;
    }

    @Override
    public void row(Object[] values) {
      rows.row(values);
    }

    @Override
    public void finish() {
      rows.flush();
      try {
        if (owns) {
          target.close();
        } else {
          target.flush();
        }
      } catch (IOException e) {
        throw new IdxkitIOException("cannot write CSV", e);
      }
    }
  }

  private static final class JsonLines implements RowWriter {
    private final List<ColumnDef> columns;
    private final int[] selected;
    private final PrintWriter out;

    JsonLines(List<ColumnDef> columns, int[] selected, PrintWriter out) {
      this.columns = columns;
      this.selected = selected;
      this.out = out;
    }

    @Override
    public void row(Object[] values) {
      ObjectNode o = Json.object();
      for (int s : selected) {
        ColumnDef c = columns.get(s);
        put(o, c.name(), c.type(), values[s]);
      }
      Json.printLine(out, o);
    }

    @Override
    public void finish() {
      out.flush();
    }
  }

  /** Puts one value into a JSON object with the type the table above gives it. */
  static void put(ObjectNode o, String name, ColumnType type, Object v) {
    if (v == null) {
      o.putNull(name);
      return;
    }
    switch (type.kind()) {
      case BIGINT:
        o.put(name, (Long) v);
        break;
      case INT:
        o.put(name, (Integer) v);
        break;
      case SMALLINT:
        o.put(name, (Short) v);
        break;
      case DECIMAL:
        o.put(name, (BigDecimal) v);
        break;
      case DOUBLE:
        double d = (Double) v;
        if (Double.isFinite(d)) {
          o.put(name, d);
        } else {
          o.put(name, Values.format(type, v));
        }
        break;
      case BOOLEAN:
        o.put(name, (Boolean) v);
        break;
      default:
        o.put(name, Values.format(type, v));
    }
  }
}
