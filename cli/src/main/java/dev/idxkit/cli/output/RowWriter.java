package dev.idxkit.cli.output;

/**
 * Writes rows in one {@link RowFormat}. Call order: {@link #row} for each row (values in table
 * column order), then {@link #finish()}. The writer never closes the stream under it.
 */
public interface RowWriter {
  void row(Object[] values);

  /** Writes what is buffered and flushes. */
  void finish();
}
