package dev.idxkit.cli.commands;

import dev.idxkit.cli.InterruptGuard;
import dev.idxkit.cli.output.RowFormat;
import dev.idxkit.cli.output.RowWriter;
import dev.idxkit.cli.output.RowWriters;
import dev.idxkit.core.Index;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.schema.TableDef;
import java.io.PrintWriter;

/**
 * Prints the rows of an index range, shared by {@code get} (a key prefix) and {@code scan}: reads
 * one row past the limit to say whether more match, and ends the table format with a count line.
 */
final class IndexRows {
  private IndexRows() {}

  /** Returns the number of rows printed. */
  static long print(
      Index index,
      KeyRange range,
      boolean reverse,
      RowOutputOptions options,
      PrintWriter out,
      PrintWriter err,
      InterruptGuard guard) {
    TableDef t = index.table().def();
    int[] selected = options.selected(t);
    long limit = options.limit();
    RowFormat format = options.format();
    RowWriter w = RowWriters.create(format, t.columns(), selected, out);
    long n = 0;
    boolean more = false;
    try (RowCursor c = index.scan(range, reverse, limit < 0 ? -1 : limit + 1)) {
      while (c.hasNext()) {
        Row r = c.next();
        if (n == limit) {
          more = true;
          break;
        }
        w.row(r.values());
        n++;
        if ((n & 1023) == 0) {
          guard.check();
          DbCommand.checkWritable(out, "standard output");
        }
      }
    }
    w.finish();
    String more0 = more ? "; more match, --limit 0 prints all" : "";
    if (format == RowFormat.TABLE) {
      out.println("(" + n + (n == 1 ? " row" : " rows") + more0 + ")");
    } else if (more) {
      err.println("idxkit: stopped after " + n + " rows" + more0);
    }
    out.flush();
    DbCommand.checkWritable(out, "standard output");
    return n;
  }
}
