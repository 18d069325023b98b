package dev.idxkit.loader.input;

import dev.idxkit.core.schema.TableDef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Whole lines cut from a JSON Lines file; parses them with a {@link JsonLinesReader}. */
final class JsonLinesChunk extends TextChunk {
  private final int length;
  private final TableDef table;
  private final JsonLinesOptions options;

  /**
   * @param data holds the chunk's whole lines in {@code [0, length)}
   */
  JsonLinesChunk(
      long index,
      byte[] data,
      int length,
      long startOffset,
      long startLine,
      TableDef table,
      JsonLinesOptions options,
      Path file) {
    super(file.toString(), index, data, startOffset, startLine);
    this.length = length;
    this.table = table;
    this.options = options;
  }

  @Override
  public Batch parse() {
    JsonLinesReader lines =
        new JsonLinesReader(table, options, data, length, startOffset, startLine);
    List<InputRecord> out = new ArrayList<>();
    lines.forEachRemaining(out::add);
    return batch(out, new ResumePoint(startOffset + length, lines.line()));
  }
}
