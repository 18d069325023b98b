package dev.idxkit.loader.input;

/**
 * A row ready for the table: {@code values} in the table's column order, each already of the Java
 * class its column type fixes ({@link dev.idxkit.core.schema.Values}), {@code null} for NULL.
 *
 * <p>The resume point is kept as two longs rather than a {@link ResumePoint} because a load makes
 * millions of these a second.
 */
public record InputRow(Object[] values, long line, long resumeOffset, long resumeLine)
    implements InputRecord {
  @Override
  public ResumePoint resumePoint() {
    return new ResumePoint(resumeOffset, resumeLine);
  }
}
