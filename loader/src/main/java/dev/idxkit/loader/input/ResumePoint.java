package dev.idxkit.loader.input;

/**
 * Where a {@link RowSource} restarts so that a resumed load neither loses nor repeats a row.
 *
 * <p>Every delivered {@link InputRecord} carries the resume point just after it; the loader stores
 * the one after the last record it made durable (in its checkpoint) and passes it back to the
 * source's {@code open} after a crash.
 *
 * @param offset for text inputs, the byte offset in the file where the next record starts; for the
 *     TPC-H generator, the number of rows already delivered
 * @param line the input position of the next record: its 1-based physical line for text inputs (so
 *     line numbers after a resume match the file), its 1-based row number for the generator
 */
public record ResumePoint(long offset, long line) {
  public ResumePoint {
    if (offset < 0) {
      throw new IllegalArgumentException("offset : " + offset + " (expected: >= 0)");
    }
    if (line < 1) {
      throw new IllegalArgumentException("line : " + line + " (expected: >= 1)");
    }
  }

  /** The very beginning of an input; text sources move past a BOM and a header themselves. */
  public static final ResumePoint START = new ResumePoint(0, 1);
}
