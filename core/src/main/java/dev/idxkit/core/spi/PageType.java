package dev.idxkit.core.spi;

/** What a page holds; the byte at offset 4 of every page header. 0 is never a valid type. */
public enum PageType {
  AREA_HEADER(1),
  HEAP(2),
  OVERFLOW(3),
  LEAF(4),
  BRANCH(5),
  FREE(6);

  private static final PageType[] BY_CODE = new PageType[8];

  static {
    for (PageType t : values()) {
      BY_CODE[t.code] = t;
    }
  }

  private final int code;

  PageType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The type with this code, or null when the byte is not a known type. */
  public static PageType ofCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
