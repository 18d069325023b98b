package dev.idxkit.core;

/** An encoded index entry is longer than a quarter page, the most a B+tree page may hold. */
public class KeyTooLongException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  private final String index;
  private final int length;
  private final int max;

  public KeyTooLongException(String index, int length, int max) {
    super("key too long for index " + index + ": " + length + " bytes (expected: <= " + max + ")");
    this.index = index;
    this.length = length;
    this.max = max;
  }

  public String index() {
    return index;
  }

  public int length() {
    return length;
  }

  public int max() {
    return max;
  }

  @Override
  public boolean isBadInput() {
    return true;
  }
}
