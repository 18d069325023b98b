package dev.idxkit.loader.input;

import dev.idxkit.core.InvalidInputException;

/**
 * How to read a CSV file.
 *
 * <h2>NULL and the empty string</h2>
 *
 * Without a NULL marker (the default) an empty unquoted field is NULL and a quoted empty field
 * ({@code ""}) is the empty string: {@code 1,,x} has a NULL second column, {@code 1,"",x} an empty
 * one. With a marker, say {@code \N}, only an unquoted field equal to the marker is NULL; an empty
 * field, quoted or not, is the empty string, and {@code "\N"} (quoted) is the two characters. This
 * is PostgreSQL's {@code COPY ... CSV} rule. The empty string is text: for a number, date or
 * boolean column it is a bad value and rejects the row. An empty line is no row at all (it is
 * skipped), so a one-column table's NULL needs a marker.
 *
 * @param header true if the first record names the columns (matched to the table's columns by name,
 *     ignoring case and surrounding blanks; every column must appear exactly once); false if fields
 *     map to columns by position
 * @param delimiter the field separator, one ASCII character, e.g. {@code ','}, {@code '|'}, {@code
 *     ';'}, {@code '\t'}
 * @param quote the quote character, one ASCII character; inside a quoted field it is doubled
 * @param nullMarker the text of an unquoted field that means NULL, or {@code null} for "empty
 *     unquoted field" (see above)
 * @param trailingDelimiter true if every record ends with a delimiter, as in TPC-H's dbgen {@code
 *     .tbl} files ({@code 1|abc|}): the empty last field is then dropped
 * @param chunkBytes bytes per chunk, the unit of parallel parsing (default 1 MiB)
 * @param maxRecordBytes the longest record accepted; a longer one (usually an unclosed quote) is
 *     rejected and reading resumes at the line after its start (default 16 MiB)
 */
public record CsvOptions(
    boolean header,
    char delimiter,
    char quote,
    String nullMarker,
    boolean trailingDelimiter,
    int chunkBytes,
    int maxRecordBytes) {
  public static final int DEFAULT_CHUNK_BYTES = 1 << 20;
  public static final int DEFAULT_MAX_RECORD_BYTES = 16 << 20;

  public CsvOptions {
    checkControl("delimiter", delimiter);
    checkControl("quote", quote);
    if (delimiter == quote) {
      throw new InvalidInputException(
          "delimiter and quote : both '" + delimiter + "' (expected: different characters)");
    }
    if (nullMarker != null
        && (nullMarker.indexOf(delimiter) >= 0
            || nullMarker.indexOf(quote) >= 0
            || nullMarker.indexOf('\n') >= 0
            || nullMarker.indexOf('\r') >= 0)) {
      throw new InvalidInputException(
          "nullMarker : \""
              + nullMarker
              + "\" (expected: no delimiter, quote or line break, as it appears unquoted)");
    }
    if (chunkBytes < 16 || chunkBytes > (1 << 30)) {
      throw new InvalidInputException("chunkBytes : " + chunkBytes + " (expected: 16..2^30)");
    }
    if (maxRecordBytes < 16 || maxRecordBytes > (1 << 30)) {
      throw new InvalidInputException(
          "maxRecordBytes : " + maxRecordBytes + " (expected: 16..2^30)");
    }
  }

  private static void checkControl(String name, char c) {
    if (c == 0 || c > 127 || c == '\n' || c == '\r') {
      throw new InvalidInputException(
          name
              + " : U+"
              + String.format("%04X", (int) c)
              + " (expected: one ASCII character other than NUL, CR and LF)");
    }
  }

  /** Header, comma, double quote, empty unquoted field = NULL, 1 MiB chunks, 16 MiB records. */
  public static CsvOptions defaults() {
    return new CsvOptions(
        true, ',', '"', null, false, DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES);
  }

  public CsvOptions withHeader(boolean header) {
    return new CsvOptions(
        header, delimiter, quote, nullMarker, trailingDelimiter, chunkBytes, maxRecordBytes);
  }

  public CsvOptions withDelimiter(char delimiter) {
    return new CsvOptions(
        header, delimiter, quote, nullMarker, trailingDelimiter, chunkBytes, maxRecordBytes);
  }

  public CsvOptions withQuote(char quote) {
    return new CsvOptions(
        header, delimiter, quote, nullMarker, trailingDelimiter, chunkBytes, maxRecordBytes);
  }

  public CsvOptions withNullMarker(String nullMarker) {
    return new CsvOptions(
        header, delimiter, quote, nullMarker, trailingDelimiter, chunkBytes, maxRecordBytes);
  }

  public CsvOptions withTrailingDelimiter(boolean trailingDelimiter) {
    return new CsvOptions(
        header, delimiter, quote, nullMarker, trailingDelimiter, chunkBytes, maxRecordBytes);
  }

  public CsvOptions withChunkBytes(int chunkBytes) {
    return new CsvOptions(
        header, delimiter, quote, nullMarker, trailingDelimiter, chunkBytes, maxRecordBytes);
  }

  public CsvOptions withMaxRecordBytes(int maxRecordBytes) {
    return new CsvOptions(
        header, delimiter, quote, nullMarker, trailingDelimiter, chunkBytes, maxRecordBytes);
  }
}
