package dev.idxkit.loader.input;

import dev.idxkit.core.schema.TableDef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Whole lines cut from a JSON Lines file; parses them with a {@link JsonRowParser}. */
final class JsonLinesChunk implements Chunk {
  private final long index;
  private final byte[] data;
  private final int length;
  private final long startOffset;
  private final long startLine;
  private final TableDef table;
  private final JsonLinesOptions options;
  private final Path file;

  JsonLinesChunk(
      long index,
      byte[] data,
      int length,
      long startOffset,
      long startLine,
      TableDef table,
      JsonLinesOptions options,
      Path file) {
    this.index = index;
    this.data = data;
    this.length = length;
    this.startOffset = startOffset;
    this.startLine = startLine;
    this.table = table;
    this.options = options;
    this.file = file;
  }

  @Override
  public long index() {
    return index;
  }

  @Override
  public ResumePoint start() {
    return new ResumePoint(startOffset, startLine);
  }

  @Override
  public Batch parse() {
    JsonRowParser parser = new JsonRowParser(table, options);
    List<InputRecord> out = new ArrayList<>();
    int rows = 0;
    long line = startLine;
    int p = 0;
    while (p < length) {
      int lf = p;
      while (lf < length && data[lf] != '\n') {
        lf++;
      }
      int next = lf < length ? lf + 1 : length;
      long nextLine = lf < length ? line + 1 : line;
      if (lf - p > options.maxLineBytes()) {
        // Checked here too, not only when a window cannot hold the line: the limit must not
        // depend on the chunk size.
        String raw = Utf8.displayPrefix(data, p, lf, tooLongShown(options));
        out.add(new RejectedRow(line, null, raw, tooLong(options), startOffset + next, nextLine));
      } else if (!isBlank(p, lf)) {
        InputRecord r =
            parser.parse(data, p, lf, line, startOffset + p, startOffset + next, nextLine);
        out.add(r);
        if (r instanceof InputRow) {
          rows++;
        }
      }
      line = nextLine;
      p = next;
    }
    return new Batch(index, out, rows, new ResumePoint(startOffset + length, line));
  }

  /** Bytes shown of a line too long to keep, the same however it was found. */
  static int tooLongShown(JsonLinesOptions options) {
    return Math.min(options.maxLineBytes(), RejectedRow.MAX_RAW_CHARS);
  }

  /** The reason for a line longer than maxLineBytes, however it was found. */
  static String tooLong(JsonLinesOptions options) {
    return "line longer than " + options.maxLineBytes() + " bytes (maxLineBytes)";
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

  @Override
  public String toString() {
    return file + " chunk " + index + " at line " + startLine;
  }
}
