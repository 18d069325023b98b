package dev.idxkit.core;

import java.nio.file.Path;

/** Another process (or another open in this one) holds the database's read-write lock. */
public class DatabaseLockedException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  public DatabaseLockedException(Path dir, String holder) {
    super("database " + dir + " is locked by " + holder);
  }
}
