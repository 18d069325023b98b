package dev.idxkit.core;

/**
 * Bytes read as a record do not hold together: unknown format version, a length shorter than the
 * fixed part, variable-width data outside the record. The record layer does not know the page;
 * callers that do (heap scans, {@code check}) wrap it in a {@link
 * dev.idxkit.core.CorruptPageException}.
 */
public class CorruptRecordException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  public CorruptRecordException(int length, String detail) {
    super("corrupt record (" + length + " bytes): " + detail);
  }
}
