package dev.idxkit.cli.server;

import dev.idxkit.cli.commands.KeyText;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.Index;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.schema.TableDef;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * {@code GET /v1/tables/{t}/indexes/{i}}: a lookup ({@code key}) or a range scan ({@code from},
 * {@code to}), answered as JSON Lines, one object per row by column name.
 *
 * <pre>
 * parameter  meaning                                               example
 * key        rows whose leading key columns equal these values     key=5,2  key=l_orderkey=5
 * from, to   inclusive bounds, compared by prefix; either may go   from=5&amp;to=7
 * limit      at most this many rows; 0 or absent: all              limit=100
 * reverse    descending index order (true/false, 1/0, or bare)     reverse
 * columns    only these columns, in this order                     columns=l_orderkey,l_tax
 * </pre>
 *
 * Keys use the syntax of {@code idxkit get --key} and {@code idxkit scan --from} ({@link KeyText}):
 * values in key order separated by commas, or {@code column=value} pairs, typed as the columns are
 * ({@code 1995-03-15} for a DATE). In a URL, escape {@code +} as {@code %2B} and {@code ,} inside a
 * value by quoting it ({@code "a,b"}); a query string decodes {@code +} as a blank.
 */
final class IndexReads {
  private IndexReads() {}

  /** Opens the cursor and starts the stream; errors before the first row become 4xx answers. */
  static void answer(
      Exchange ex, Database db, Route route, Executor readers, ServerMetrics metrics) {
    TableInfo t = SchemaJson.table(db, route.table());
    IndexInfo ix = SchemaJson.index(db, t, route.index());
    Map<String, String> q = route.query();
    KeyRange range;
    if (q.containsKey("key")) {
      if (q.containsKey("from") || q.containsKey("to")) {
        throw new HttpError(
            HttpResponseStatus.BAD_REQUEST,
            "key given with from/to (expected: key for a lookup, or from/to for a range)");
      }
      range = KeyRange.prefix(KeyText.fromList(ix, q.get("key"), "key"));
    } else {
      Object[] lo = q.containsKey("from") ? KeyText.fromList(ix, q.get("from"), "from") : null;
      Object[] hi = q.containsKey("to") ? KeyText.fromList(ix, q.get("to"), "to") : null;
      range = KeyRange.closed(lo, hi);
    }
    long limit = limit(q.get("limit"));
    boolean reverse = flag("reverse", q.get("reverse"));
    int[] selected = columns(t.def(), q.get("columns"));
    Index index = db.index(ix.name());
    if (!index.isActive()) {
      throw new HttpError(
          HttpResponseStatus.CONFLICT,
          "index "
              + ix.name()
              + " is inactive (expected: an active index; rebuild it with: idxkit idxbuild DB"
              + " --inactive)");
    }
    RowCursor cursor = index.scan(range, reverse, limit == 0 ? -1 : limit);
    new RowStream(ex, cursor, t.def().columns(), selected, readers, metrics).start();
  }

  static long limit(String text) {
    if (text == null) {
      return 0;
    }
    try {
      long n = Long.parseLong(text.strip());
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below with the expected form
    }
    throw new InvalidInputException(
        "limit : " + text + " (expected: a whole number >= 0; 0 = all)");
  }

  static boolean flag(String name, String text) {
    if (text == null) {
      return false;
    }
    switch (text.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "", "true", "1", "yes":
        return true;
      case "false", "0", "no":
        return false;
      default:
        throw new InvalidInputException(
            name + " : " + text + " (expected: true or false, 1 or 0, or the bare name)");
    }
  }

  /** Positions of the named columns, or all columns when {@code text} is null. */
  static int[] columns(TableDef t, String text) {
    if (text == null) {
      int[] all = new int[t.columns().size()];
      for (int i = 0; i < all.length; i++) {
        all[i] = i;
      }
      return all;
    }
    String[] names = text.split(",", -1);
    int[] out = new int[names.length];
    for (int i = 0; i < names.length; i++) {
      String n = names[i].strip();
      int c = t.columnIndex(n);
      if (c < 0) {
        throw new InvalidInputException(
            "columns : no column '"
                + n
                + "' in table "
                + t.name()
                + " (expected: names from "
                + String.join(", ", t.columns().stream().map(x -> x.name()).toList())
                + ")");
      }
      out[i] = c;
    }
    return out;
  }
}
