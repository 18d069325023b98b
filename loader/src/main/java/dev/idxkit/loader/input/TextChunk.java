package dev.idxkit.loader.input;

import java.util.List;

/**
 * What the chunks of a text file share ({@link CsvChunk}, {@link JsonLinesChunk}): whole records
 * cut from the file, with the file offset and line of the first byte fixed at the cut, so each
 * chunk parses on its own, on any thread, and still numbers its records and resume points exactly.
 *
 * <p>Also the one rule for a record too long to hold: its reason names the limit and the option
 * that sets it, and it shows the same number of bytes, whether a chunk finds it or the source skips
 * it while cutting (rejects must not depend on the chunk size).
 */
abstract class TextChunk implements Chunk {
  private final String file;
  private final long index;

  /** The chunk's bytes, from index 0. */
  final byte[] data;

  /** File offset of {@code data[0]}. */
  final long startOffset;

  /** Line number (1-based) of the first record. */
  final long startLine;

  TextChunk(String file, long index, byte[] data, long startOffset, long startLine) {
    this.file = file;
    this.index = index;
    this.data = data;
    this.startOffset = startOffset;
    this.startLine = startLine;
  }

  @Override
  public final long index() {
    return index;
  }

  @Override
  public final ResumePoint start() {
    return new ResumePoint(startOffset, startLine);
  }

  /** This chunk's batch: {@code records} in input order, then {@code end}. */
  final Batch batch(List<InputRecord> records, ResumePoint end) {
    int rows = 0;
    for (InputRecord r : records) {
      if (r instanceof InputRow) {
        rows++;
      }
    }
    return new Batch(index, records, rows, end);
  }

  /** Bytes shown of a record too long to keep ({@code maxBytes} is the limit it broke). */
  static int tooLongShown(int maxBytes) {
    return Math.min(maxBytes, RejectedRow.MAX_RAW_CHARS);
  }

  /**
   * The reason for a record too long to keep, e.g. {@code line longer than 16777216 bytes
   * (maxLineBytes)}.
   *
   * @param record what the format calls a record ("record", "line")
   * @param option the name of the option that sets the limit
   */
  static String tooLong(String record, int maxBytes, String option) {
    return record + " longer than " + maxBytes + " bytes (" + option + ")";
  }

  @Override
  public String toString() {
    return file + " chunk " + index + " at line " + startLine;
  }
}
