package dev.idxkit.core.page;

/** What a page holds; the byte at offset 4 of every page header. 0 is never a valid type. */
public enum PageType {
  AREA_HEADER(1),
  HEAP(2),
  OVERFLOW(3),
  LEAF(4),
  BRANCH(5),
  FREE(6);

  private final int code;

  PageType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The type with this code, or null when the byte is not a known type. */
  public static PageType ofCode(int code) {
    for (PageType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return null;
  }
}
