package dev.idxkit.core;

import java.nio.file.Path;

/** A database file other than a single page is damaged: meta slots, area headers, WAL header. */
public class CorruptDatabaseException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  public CorruptDatabaseException(Path file, String detail) {
    super("corrupt database file " + file + ": " + detail);
  }
}
