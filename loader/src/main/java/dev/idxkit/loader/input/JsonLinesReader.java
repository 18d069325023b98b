package dev.idxkit.loader.input;

import dev.idxkit.core.schema.TableDef;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The JSON Lines rows of bytes already in memory: a chunk cut from a file by {@link
 * JsonLinesSource}, or a whole request body (the server's {@code POST /v1/tables/{t}/rows}). Both
 * read rows through this one class, so a row posted and a row loaded from a file convert, and are
 * refused, alike.
 *
 * <p>Steps, line by line: every LF ends a line (JSON strings cannot hold a raw line break); a line
 * of only spaces, tabs and CR is skipped; a line longer than {@link
 * JsonLinesOptions#maxLineBytes()} is rejected unparsed; any other line goes to {@link
 * JsonRowParser}, which gives an {@link InputRow} or a {@link RejectedRow} naming the line, the
 * column where it has one, and the reason ({@link RejectedRow#describe()}). Lines are parsed one at
 * a time as {@link #next()} is called: no memory beyond the parser's and the record returned.
 *
 * <pre>
 * {"id": 1, "price": "12.50"}\n      line 1: InputRow [1, 12.50]      resume (offset 28, line 2)
 * \r\n                               line 2: blank, skipped
 * {"id": "x"}                        line 3: RejectedRow, column id   resume (offset 41, line 3)
 * </pre>
 *
 * Not thread-safe: one reader per body or chunk.
 */
public final class JsonLinesReader implements Iterator<InputRecord> {
  private final JsonRowParser parser;
  private final JsonLinesOptions options;
  private final byte[] data;
  private final int length;
  private final long startOffset;
  private int pos;
  private long line;
  private InputRecord next;

  /**
   * Reads all of {@code body} as a JSON Lines input of its own: the first line is line 1, offsets
   * count from {@code body[0]}.
   */
  public JsonLinesReader(TableDef table, JsonLinesOptions options, byte[] body) {
    this(table, options, body, body.length, 0, 1);
  }

  /**
   * Reads {@code data[0, length)}, whose first byte is at input offset {@code startOffset} on line
   * {@code startLine}.
   */
  JsonLinesReader(
      TableDef table,
      JsonLinesOptions options,
      byte[] data,
      int length,
      long startOffset,
      long startLine) {
    this.parser = new JsonRowParser(table, options);
    this.options = options;
    this.data = data;
    this.length = length;
    this.startOffset = startOffset;
    this.line = startLine;
  }

  @Override
  public boolean hasNext() {
    while (next == null && pos < length) {
      int lf = pos;
      while (lf < length && data[lf] != '\n') {
        lf++;
      }
      int after = lf < length ? lf + 1 : length;
      long lineAfter = lf < length ? line + 1 : line;
      if (lf - pos > options.maxLineBytes()) {
        // Checked here too, not only when a window cannot hold the line: the limit must not
        // depend on the chunk size.
        String raw = Utf8.displayPrefix(data, pos, lf, tooLongShown(options));
        next = new RejectedRow(line, null, raw, tooLong(options), startOffset + after, lineAfter);
      } else if (!isBlank(pos, lf)) {
        next = parser.parse(data, pos, lf, line, startOffset + pos, startOffset + after, lineAfter);
      }
      line = lineAfter;
      pos = after;
    }
    return next != null;
  }

  /** The next row or rejected line, in input order. */
  @Override
  public InputRecord next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    InputRecord r = next;
    next = null;
    return r;
  }

  /**
   * The line the reader has reached: once {@link #hasNext()} is false, the line after the last LF,
   * where the input continues.
   */
  long line() {
    return line;
  }

  /** Bytes shown of a line too long to keep, the same however it was found. */
  static int tooLongShown(JsonLinesOptions options) {
    return TextChunk.tooLongShown(options.maxLineBytes());
  }

  /** The reason for a line longer than maxLineBytes, however it was found. */
  static String tooLong(JsonLinesOptions options) {
    return TextChunk.tooLong("line", options.maxLineBytes(), "maxLineBytes");
  }

  private boolean isBlank(int from, int to) {
    for (int i = from; i < to; i++) {
      byte b = data[i];
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }
}
