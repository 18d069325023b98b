package dev.idxkit.loader;

import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.Values;
import dev.idxkit.loader.input.CsvOptions;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
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
 * UTF-8 without a byte order mark, LF line ends, a header row of the column names (if the options
 * ask for one), then every row in heap order, values in their canonical text ({@link
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
    ColumnType[] types = columns.stream().map(ColumnDef::type).toArray(ColumnType[]::new);
    StringBuilder line = new StringBuilder(256);
    long rows = 0;
    try {
      if (options.header()) {
        for (int i = 0; i < columns.size(); i++) {
          if (i > 0) {
            line.append(options.delimiter());
          }
          field(columns.get(i).name(), options, line);
        }
        out.append(line).append('\n');
      }
      try (RowCursor c = t.scan()) {
        while (c.hasNext()) {
          Row r = c.next();
          line.setLength(0);
          Object[] v = r.values();
          for (int i = 0; i < v.length; i++) {
            if (i > 0) {
              line.append(options.delimiter());
            }
            if (v[i] == null) {
              if (options.nullMarker() != null) {
                line.append(options.nullMarker());
              }
            } else {
              field(Values.format(types[i], v[i]), options, line);
            }
          }
          if (options.trailingDelimiter()) {
            line.append(options.delimiter());
          }
          out.append(line).append('\n');
          rows++;
        }
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot write table " + t.name() + " as CSV", e);
    }
    return rows;
  }

  /** Appends a non-null value, quoted if it must be. */
  static void field(String s, CsvOptions options, StringBuilder out) {
    if (!needsQuotes(s, options)) {
      out.append(s);
      return;
    }
    char q = options.quote();
    out.append(q);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == q) {
        out.append(q);
      }
      out.append(c);
    }
    out.append(q);
  }

  private static boolean needsQuotes(String s, CsvOptions options) {
    if (s.isEmpty()) {
      return true; // "" is the empty string; an empty unquoted field is NULL
    }
    if (s.equals(options.nullMarker())) {
      return true;
    }
    // A leading U+FEFF would pass for a byte order mark at the start of a header-less file.
    if (s.charAt(0) == ' ' || s.charAt(0) == '\uFEFF' || s.charAt(s.length() - 1) == ' ') {
      return true;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == options.delimiter() || c == options.quote() || c == '\n' || c == '\r') {
        return true;
      }
    }
    return false;
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // The failure being reported matters more than the leftover temp file.
    }
  }
}
