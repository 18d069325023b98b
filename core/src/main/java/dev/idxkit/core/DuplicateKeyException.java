package dev.idxkit.core;

/** An insert or update would give a unique index a second entry with the same key. */
public class DuplicateKeyException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  private final String index;
  private final String key;

  public DuplicateKeyException(String index, String key) {
    super("duplicate key " + key + " in unique index " + index);
    this.index = index;
    this.key = key;
  }

  public String index() {
    return index;
  }

  public String key() {
    return key;
  }

  @Override
  public boolean isBadInput() {
    return true;
  }
}
