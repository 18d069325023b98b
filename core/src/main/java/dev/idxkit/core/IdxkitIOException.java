package dev.idxkit.core;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * An I/O call failed; the message names the file and the operation, then what went wrong in words
 * ({@link ProblemText}): {@code cannot open /data/wal: no such file or directory: /data/wal}. The
 * {@link IOException} stays the cause, for a stack trace.
 */
public class IdxkitIOException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  public IdxkitIOException(String message, IOException cause) {
    super(message + ": " + ProblemText.of(cause), cause);
  }

  public static IdxkitIOException of(String message, UncheckedIOException e) {
    return new IdxkitIOException(message, e.getCause());
  }
}
