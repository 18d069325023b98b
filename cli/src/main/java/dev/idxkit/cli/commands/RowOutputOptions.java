package dev.idxkit.cli.commands;

import dev.idxkit.cli.output.RowFormat;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.TableDef;
import java.util.List;
import picocli.CommandLine.Option;

/** How {@code get} and {@code scan} print rows (a picocli mixin). */
public final class RowOutputOptions {
  /** Rows printed when {@code --limit} is not given: enough to see, not enough to flood. */
  static final long DEFAULT_LIMIT = 100;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description =
          "table (aligned columns, NULL shown as NULL; the default), csv (RFC 4180 with a header"
              + " row; NULL an empty field, the empty string \"\") or json (JSON Lines, one object"
              + " per row).")
  RowFormat format = RowFormat.TABLE;

  @Option(names = "--json", description = "Same as --format json.")
  boolean json;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "100",
      description = "Print at most N rows (default: ${DEFAULT-VALUE}); 0 prints all.")
  long limit = DEFAULT_LIMIT;

  @Option(
      names = "--columns",
      paramLabel = "COL",
      split = ",",
      description = "Print only these columns, in this order (default: all), e.g. a,b,c.")
  List<String> columns;

  RowFormat format() {
    return json ? RowFormat.JSON : format;
  }

  /** The limit to print, or -1 for none. */
  long limit() {
    if (limit < 0) {
      throw new InvalidInputException("--limit : " + limit + " (expected: >= 0, 0 for all rows)");
    }
    return limit == 0 ? -1 : limit;
  }

  /** Positions of the columns to print. */
  int[] selected(TableDef t) {
    if (columns == null || columns.isEmpty()) {
      int[] all = new int[t.columns().size()];
      for (int i = 0; i < all.length; i++) {
        all[i] = i;
      }
      return all;
    }
    int[] sel = new int[columns.size()];
    for (int i = 0; i < sel.length; i++) {
      int c = t.columnIndex(columns.get(i).strip());
      if (c < 0) {
        throw new InvalidInputException(
            "--columns : "
                + columns.get(i)
                + " is not a column of table "
                + t.name()
                + " (columns: "
                + String.join(", ", t.columns().stream().map(x -> x.name()).toList())
                + ")");
      }
      sel[i] = c;
    }
    return sel;
  }
}
