package dev.idxkit.loader.input;

import dev.idxkit.core.InvalidInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * UTF-8 validation on raw bytes, per the Unicode standard's table of well-formed byte sequences
 * (Unicode 15, table 3-7): no overlong forms, no surrogates (U+D800..U+DFFF), nothing above
 * U+10FFFF. The CSV scanner checks every non-ASCII byte with it, so text decoded afterwards can
 * never have silently turned into U+FFFD.
 */
final class Utf8 {
  private Utf8() {}

  /**
   * Length of the well-formed sequence starting at {@code b[p]}, 0 if the bytes there are not
   * UTF-8, -1 if they are a valid beginning cut off by {@code limit}.
   */
  static int sequenceLength(byte[] b, int p, int limit) {
    int b0 = b[p] & 0xFF;
    if (b0 < 0x80) {
      return 1;
    }
    int n;
    int lo = 0x80;
    int hi = 0xBF;
    if (b0 < 0xC2) {
      return 0; // a continuation byte, or the lead of an overlong 2-byte form
    } else if (b0 < 0xE0) {
      n = 2;
    } else if (b0 < 0xF0) {
      n = 3;
      if (b0 == 0xE0) {
        lo = 0xA0; // overlong
      } else if (b0 == 0xED) {
        hi = 0x9F; // surrogates
      }
    } else if (b0 < 0xF5) {
      n = 4;
      if (b0 == 0xF0) {
        lo = 0x90; // overlong
      } else if (b0 == 0xF4) {
        hi = 0x8F; // above U+10FFFF
      }
    } else {
      return 0;
    }
    for (int k = 1; k < n; k++) {
      if (p + k >= limit) {
        return -1;
      }
      int c = b[p + k] & 0xFF;
      if (c < lo || c > hi) {
        return 0;
      }
      lo = 0x80;
      hi = 0xBF;
    }
    return n;
  }

  /** Index of the first byte in {@code b[from, to)} that is not well-formed UTF-8, or -1. */
  static int firstInvalid(byte[] b, int from, int to) {
    int p = from;
    while (p < to) {
      if (b[p] >= 0) {
        p++;
      } else {
        int n = sequenceLength(b, p, to);
        if (n <= 0) {
          return p;
        }
        p += n;
      }
    }
    return -1;
  }

  /**
   * At most the first {@code maxBytes} of {@code b[from, to)} as text, cut before a UTF-8 sequence
   * rather than through it, for showing the start of a record too long to show whole.
   */
  static String displayPrefix(byte[] b, int from, int to, int maxBytes) {
    int end = Math.min(to, from + maxBytes);
    while (end > from && end < to && (b[end] & 0xC0) == 0x80) {
      end--;
    }
    return display(b, from, end);
  }

  /** {@code b[from, to)} as text for a message, bytes that are not UTF-8 written as \xNN. */
  static String display(byte[] b, int from, int to) {
    int bad = firstInvalid(b, from, to);
    if (bad < 0) {
      return new String(b, from, to - from, StandardCharsets.UTF_8);
    }
    StringBuilder sb = new StringBuilder(to - from + 8);
    int p = from;
    while (p < to) {
      int n = b[p] >= 0 ? 1 : sequenceLength(b, p, to);
      if (n > 0) {
        sb.append(new String(b, p, n, StandardCharsets.UTF_8));
        p += n;
      } else {
        sb.append(String.format("\\x%02x", b[p] & 0xFF));
        p++;
      }
    }
    return sb.toString();
  }

  /**
   * Length of the UTF-8 byte order mark at the start of {@code b[0, n)} (3 or 0).
   *
   * @throws InvalidInputException if a UTF-16 or UTF-32 byte order mark is there instead
   */
  static int bomLength(Path file, byte[] b, int n) {
    if (n >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF) {
      return 3;
    }
    boolean utf16or32 =
        n >= 2
            && (((b[0] & 0xFF) == 0xFE && (b[1] & 0xFF) == 0xFF)
                || ((b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE)
                || (n >= 4 && b[0] == 0 && b[1] == 0 && (b[2] & 0xFF) == 0xFE));
    if (utf16or32) {
      throw new InvalidInputException(
          file + ": starts with a UTF-16 or UTF-32 byte order mark (expected: UTF-8 text)");
    }
    return 0;
  }
}
