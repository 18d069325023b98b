package dev.idxkit.loader;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.QuoteStrategy;
import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.Values;
import dev.idxkit.loader.input.CsvOptions;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Writes a table as CSV that {@link dev.idxkit.loader.input.CsvSource} reads back to the same rows:
 * the export behind {@code idxkit dump DB --table T --csv FILE}.
 *
 * <h2>What is written</h2>
 *
 * UTF-8 without a byte order mark, CRLF line ends (RFC 4180), a header row of the column names (if
 * the options ask for one), then every row in heap order, values in their canonical text ({@link
 * dev.idxkit.core.schema.Values#format}: {@code 12.30}, {@code 2024-02-29}, {@code 2024-02-29
 * 13:05:00.25}, {@code \x0a0b}, {@code true}). A field is quoted when it holds the delimiter, the
 * quote, CR or LF, or starts or ends with a space (so that no reader trims it) or starts with
 * U+FEFF (a byte order mark to a reader, at the start of a file); quotes inside are doubled. NULL
 * follows the options' convention ({@link CsvOptions}): with no NULL marker it is an empty unquoted
 * field and the empty string is {@code ""}; with a marker it is the marker, unquoted, and a string
 * equal to the marker is quoted.
 *
 * <p>One case has no text without a marker: a one-column table's NULL would be an empty line, which
 * the reader skips. Such a table is refused with a message that asks for a NULL marker.
 */
public final class CsvExport {
  private CsvExport() {}

  /** Writes {@code table} to {@code file} (replaced when complete); returns the rows written. */
  public static long write(Database db, String table, Path file, CsvOptions options) {
    Path tmp = file.resolveSibling(file.getFileName() + ".partial");
    try {
      long rows;
      try (Writer w =
          new BufferedWriter(
              new OutputStreamWriter(Files.newOutputStream(tmp), StandardCharsets.UTF_8),
              1 << 16)) {
        rows = write(db, table, w, options);
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return rows;
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new IdxkitIOException("cannot write " + file, e);
    } catch (RuntimeException e) {
      deleteQuietly(tmp);
      throw e;
    }
  }

  /** Writes {@code table} to {@code out} (not closed); returns the rows written. */
  public static long write(Database db, String table, Writer out, CsvOptions options) {
    Table t = db.table(table);
    List<ColumnDef> columns = t.def().columns();
    if (columns.size() == 1 && options.nullMarker() == null && columns.get(0).nullable()) {
      throw new InvalidInputException(
          "table "
              + t.name()
              + " has one nullable column: its NULL would be an empty line, which CSV readers"
              + " skip; export it with a NULL marker (e.g. \\N)");
    }
    int[] all = java.util.stream.IntStream.range(0, columns.size()).toArray();
    Rows rows = new Rows(columns, all, out, options);
    long n = 0;
    try (RowCursor c = t.scan()) {
      while (c.hasNext()) {
        rows.row(c.next().values());
        n++;
      }
    }
    rows.flush();
    return n;
  }

  /**
   * One row as one CSV record in {@code options} (its delimiter, quote, NULL marker and trailing
   * delimiter; never a header), without the line end: text that {@link
   * dev.idxkit.loader.input.CsvSource} with the same options reads back as the same row. For a
   * reject file, where a row the load already stored must be written as the input would have held
   * it.
   */
  public static String record(List<ColumnDef> columns, Object[] values, CsvOptions options) {
    StringWriter out = new StringWriter();
    int[] all = java.util.stream.IntStream.range(0, columns.size()).toArray();
    Rows rows = new Rows(columns, all, out, options.withHeader(false));
    rows.row(values);
    rows.flush();
    StringBuffer b = out.getBuffer();
    int end = b.length();
    while (end > 0 && (b.charAt(end - 1) == '\n' || b.charAt(end - 1) == '\r')) {
      end--; // the record's line end; a line break inside a value is quoted, so never last
    }
    return b.substring(0, end);
  }

  /**
   * Rows of a table (or some of its columns) as CSV, one {@link #row} at a time, with the header
   * written first when the options ask for one: what {@code idxkit dump} and {@code idxkit scan
   * --format csv} write, through fastcsv's writer with the quoting rules above.
   */
  public static final class Rows {
    private final List<ColumnDef> columns;
    private final int[] selected;
    private final CsvWriter csv;
    private final String[] fields;
    private final boolean[] isNull;
    private final String marker;

    /**
     * @param columns the table's columns
     * @param selected positions of the columns to write, in order
     */
    public Rows(List<ColumnDef> columns, int[] selected, Writer out, CsvOptions options) {
      this.columns = columns;
      this.selected = selected;
      this.marker = options.nullMarker();
      int n = selected.length + (options.trailingDelimiter() ? 1 : 0);
      this.fields = new String[n];
      this.isNull = new boolean[n];
      this.csv =
          CsvWriter.builder()
              .fieldSeparator(options.delimiter())
              .quoteCharacter(options.quote())
              .quoteStrategy(new Quoting(options, isNull, selected.length))
              .build(out);
      if (options.header()) {
        for (int i = 0; i < selected.length; i++) {
          fields[i] = columns.get(selected[i]).name();
        }
        if (options.trailingDelimiter()) {
          fields[selected.length] = "";
          isNull[selected.length] = true;
        }
        csv.writeRecord(fields);
      }
    }

    /** Writes one row (values in table column order). */
    public void row(Object[] values) {
      for (int i = 0; i < selected.length; i++) {
        Object v = values[selected[i]];
        isNull[i] = v == null;
        fields[i] = v == null ? marker : Values.format(columns.get(selected[i]).type(), v);
      }
      if (fields.length > selected.length) {
        fields[selected.length] = "";
        isNull[selected.length] = true;
      }
      csv.writeRecord(fields);
    }

    /** Writes what is buffered to the underlying writer and flushes it. */
    public void flush() {
      try {
        csv.flush();
      } catch (IOException e) {
        throw new IdxkitIOException("cannot write CSV", e);
      }
    }
  }

  /**
   * When a field must be quoted: an empty string (an empty unquoted field is NULL), a string equal
   * to the NULL marker, a string with a space at either end (so no reader trims it) or starting
   * with U+FEFF (a byte order mark to a reader); fastcsv itself quotes fields holding the
   * delimiter, the quote, CR or LF. A NULL (the marker, or nothing) and the trailing field of
   * {@code trailingDelimiter} are never quoted.
   */
  private static final class Quoting implements QuoteStrategy {
    private final CsvOptions options;
    private final boolean[] isNull;
    private final int columns;

    Quoting(CsvOptions options, boolean[] isNull, int columns) {
      this.options = options;
      this.isNull = isNull;
      this.columns = columns;
    }

    @Override
    public boolean quoteEmpty(int line, int field) {
      return field < columns && !isNull[field];
    }

    @Override
    public boolean quoteValue(int line, int field, String s) {
      if (field >= columns || isNull[field]) {
        return false;
      }
      return s.equals(options.nullMarker())
          || s.charAt(0) == ' '
          || s.charAt(0) == '\uFEFF'
          || s.charAt(s.length() - 1) == ' ';
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // The failure being reported matters more than the leftover temp file.
    }
  }
}
