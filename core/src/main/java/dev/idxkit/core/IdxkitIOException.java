package dev.idxkit.core;

import java.io.IOException;
import java.io.UncheckedIOException;

/** An I/O call failed; the message names the file and the operation. */
public class IdxkitIOException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  public IdxkitIOException(String message, IOException cause) {
    super(message + ": " + cause, cause);
  }

  public static IdxkitIOException of(String message, UncheckedIOException e) {
    return new IdxkitIOException(message, e.getCause());
  }
}
