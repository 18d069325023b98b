package dev.idxkit.core;

/**
 * Root of every exception idxkit throws on purpose. Callers catch the specific subtype ({@link
 * CorruptPageException}, {@link DuplicateKeyException}, ...) rather than parse messages.
 *
 * <p>{@link #isBadInput()} tells a command line whether the failure was the user's input (exit code
 * 2) or an operation that failed (exit code 1).
 */
public class IdxkitException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public IdxkitException(String message) {
    super(message);
  }

  public IdxkitException(String message, Throwable cause) {
    super(message, cause);
  }

  /** True when the input (DDL, CSV, options, keys) was wrong rather than the operation failing. */
  public boolean isBadInput() {
    return false;
  }
}
