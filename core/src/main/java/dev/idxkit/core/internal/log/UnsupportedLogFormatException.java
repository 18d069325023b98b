package dev.idxkit.core.internal.log;

import dev.idxkit.core.CorruptDatabaseException;
import java.nio.file.Path;

/**
 * A write-ahead log whose intact header names a format version this version of idxkit does not read
 * (one written by a newer version): refused at open, never replayed as something else.
 */
public final class UnsupportedLogFormatException extends CorruptDatabaseException {
  private static final long serialVersionUID = 1L;

  public UnsupportedLogFormatException(Path file, int version) {
    super(
        file,
        "write-ahead log format version "
            + version
            + " (expected: "
            + WalFormat.FORMAT_VERSION
            + ", or "
            + WalFormat.FORMAT_VERSION_NO_BUFFERS
            + ", "
            + WalFormat.FORMAT_VERSION_FULL_FIRST
            + ", "
            + WalFormat.FORMAT_VERSION_SEALED
            + " or "
            + WalFormat.FORMAT_VERSION_IMAGES
            + " from an older version, replayed then checkpointed)");
  }
}
