package dev.idxkit.core;

import java.nio.file.Path;

/**
 * A page failed its checksum or its header does not match where it was read from. Never a wrong
 * answer: every read of a damaged page ends here, naming the file, page and what was expected.
 */
public class CorruptPageException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long page;

  public CorruptPageException(Path file, long page, String detail) {
    super("corrupt page " + page + " in " + file + ": " + detail);
    this.file = file;
    this.page = page;
  }

  public static CorruptPageException checksum(Path file, long page, int expected, int actual) {
    return new CorruptPageException(
        file,
        page,
        String.format("checksum mismatch (expected: 0x%08x, actual: 0x%08x)", expected, actual));
  }

  public Path file() {
    return file;
  }

  public long page() {
    return page;
  }
}
