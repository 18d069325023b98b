package dev.idxkit.loader.input;

import dev.idxkit.core.schema.TableDef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Whole lines cut from a JSON Lines file; parses them with a {@link JsonLinesReader}. */
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
    JsonLinesReader lines =
        new JsonLinesReader(table, options, data, length, startOffset, startLine);
    List<InputRecord> out = new ArrayList<>();
    int rows = 0;
    while (lines.hasNext()) {
      InputRecord r = lines.next();
      out.add(r);
      if (r instanceof InputRow) {
        rows++;
      }
    }
    return new Batch(index, out, rows, new ResumePoint(startOffset + length, lines.line()));
  }

  @Override
  public String toString() {
    return file + " chunk " + index + " at line " + startLine;
  }
}
