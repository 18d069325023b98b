package dev.idxkit.core;

/**
 * Input that does not fit: a value of the wrong type for a column, an unknown table or index, a bad
 * option. The message names what was given, where, and what was expected.
 */
public class InvalidInputException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  public InvalidInputException(String message) {
    super(message);
  }

  public InvalidInputException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public boolean isBadInput() {
    return true;
  }
}
