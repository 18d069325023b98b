package dev.idxkit.loader.input;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.TableDef;
import java.nio.file.Path;

/**
 * A JSON Lines file (one JSON object per line, UTF-8) as a {@link RowSource}.
 *
 * <p>Cutting is simpler than for CSV: JSON strings cannot hold a raw line break, so every LF ends a
 * record and a chunk is a window cut after its last LF. Each chunk then counts its LFs so that the
 * next one knows its first line. {@link JsonLinesReader} turns each line into a row: object fields
 * map to columns by name (exact, else ignoring case), absent fields are NULL, JSON values convert
 * through {@link dev.idxkit.core.schema.Values}. A line that is not valid UTF-8 or not valid JSON,
 * or whose values do not fit, is rejected alone; blank lines are skipped.
 *
 * <p>Line numbers are 1-based physical lines; a resume point is the offset and line after a line's
 * LF.
 */
public final class JsonLinesSource implements RowSource {
  private final Path file;
  private final TableDef table;
  private final JsonLinesOptions options;
  private final FileWindow window;
  private final int maxWindow;
  private long line;
  private long chunks;
  private boolean closed;

  private JsonLinesSource(Path file, TableDef table, JsonLinesOptions options, ResumePoint start) {
    this.file = file;
    this.table = table;
    this.options = options;
    this.window = new FileWindow(file, start.offset(), options.chunkBytes());
    this.maxWindow =
        (int)
            Math.min(Integer.MAX_VALUE - 16, (long) options.maxLineBytes() + options.chunkBytes());
    this.line = start.line();
  }

  public static JsonLinesSource open(Path file, TableDef table, JsonLinesOptions options) {
    return open(file, table, options, null);
  }

  /**
   * Opens {@code file} at {@code from} (a resume point this source handed out), or at its start.
   *
   * @throws InvalidInputException if the file starts with a UTF-16/32 byte order mark, or {@code
   *     from} lies outside the file
   */
  public static JsonLinesSource open(
      Path file, TableDef table, JsonLinesOptions options, ResumePoint from) {
    ResumePoint start;
    try (FileWindow probe = new FileWindow(file, 0, 4)) {
      probe.fill();
      int bom = Utf8.bomLength(file, probe.buf(), probe.length());
      start = new ResumePoint(bom, 1);
      if (from != null) {
        long size = probe.fileSize();
        if (from.offset() < bom || from.offset() > size) {
          throw new InvalidInputException(
              file
                  + ": resume point at byte offset "
                  + from.offset()
                  + " (expected: "
                  + bom
                  + ".."
                  + size
                  + ")");
        }
        start = from;
      }
    }
    return new JsonLinesSource(file, table, options, start);
  }

  @Override
  public TableDef table() {
    return table;
  }

  @Override
  public String inputName() {
    return file.toString();
  }

  @Override
  public Chunk nextChunk() {
    if (closed) {
      throw new IllegalStateException(file + " is closed");
    }
    while (true) {
      window.fill();
      int length = window.length();
      if (length == 0) {
        return null;
      }
      byte[] b = window.buf();
      int cut = length;
      if (!window.eof()) {
        cut = lastLf(b, length) + 1; // 0 if the window holds no LF
      }
      if (cut > 0) {
        long offset = window.offset();
        int lines = countLf(b, cut);
        JsonLinesChunk chunk =
            new JsonLinesChunk(chunks++, window.take(cut), cut, offset, line, table, options, file);
        line += lines;
        return chunk;
      }
      if (window.capacity() < maxWindow) {
        window.grow((int) Math.min(maxWindow, 2L * window.capacity()));
        continue;
      }
      return skipTooLong();
    }
  }

  private static int lastLf(byte[] b, int length) {
    for (int i = length - 1; i >= 0; i--) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static int countLf(byte[] b, int length) {
    int n = 0;
    for (int i = 0; i < length; i++) {
      if (b[i] == '\n') {
        n++;
      }
    }
    return n;
  }

  /** A line longer than maxLineBytes: reject it and go on after its LF. */
  private Chunk skipTooLong() {
    long offset = window.offset();
    String raw =
        Utf8.displayPrefix(window.buf(), 0, window.length(), JsonLinesReader.tooLongShown(options));
    boolean lf = window.dropThroughLineBreak(false); // only LF ends a JSON line
    long start = line;
    line += lf ? 1 : 0;
    RejectedRow reject =
        new RejectedRow(start, null, raw, JsonLinesReader.tooLong(options), window.offset(), line);
    return new RejectChunk(chunks++, new ResumePoint(offset, start), reject);
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      window.close();
    }
  }
}
