package dev.idxkit.core.internal.key;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.ProblemText;
import dev.idxkit.core.schema.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The conversions between API values and the integers and bytes that both encodings (records and
 * keys) store, with the checks that reject a value the column cannot hold exactly. Records and keys
 * share them so that a value accepted by one is accepted, with the same meaning, by the other.
 *
 * <p>Each check names the value's place the way the caller does ({@code role} "key column" or
 * "column", and a position) and builds its message only when it fails, so the checks cost nothing
 * on the hot path.
 *
 * <ul>
 *   <li>DATE: epoch day as an {@code int} (years about -5.8 to +5.8 million).
 *   <li>TIMESTAMP: microseconds since 1970-01-01T00:00 (UTC) as a {@code long}; nanoseconds that
 *       are not whole microseconds are refused rather than silently truncated.
 *   <li>DECIMAL(p,s): the unscaled value at scale {@code s}; a value that needs rounding to reach
 *       scale {@code s}, or has more than {@code p} digits there, is refused.
 *   <li>VARCHAR/TEXT: standard UTF-8; a string with an unpaired surrogate has no UTF-8 form and is
 *       refused (Java would silently write '?').
 * </ul>
 */
public final class ColumnValues {
  public static final LocalDate MIN_DATE = LocalDate.ofEpochDay(Integer.MIN_VALUE);
  public static final LocalDate MAX_DATE = LocalDate.ofEpochDay(Integer.MAX_VALUE);
  public static final LocalDateTime MIN_TIMESTAMP = timestamp(Long.MIN_VALUE);
  public static final LocalDateTime MAX_TIMESTAMP = timestamp(Long.MAX_VALUE);

  private static final BigInteger LOW_64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private ColumnValues() {}

  /** Refuses a non-null value whose class is not exactly the type's {@code javaClass()}. */
  public static void checkClass(Object value, ColumnType type, String role, int position) {
    if (value.getClass() != type.kind().javaClass()) {
      throw new InvalidInputException(
          place(type, role, position)
              + ": "
              + ProblemText.javaType(value)
              + " where "
              + ProblemText.withArticle(type.sql())
              + " is expected (Java type "
              + ProblemText.javaType(type.kind().javaClass())
              + ")");
    }
  }

  // ---- DATE ----

  public static int epochDay(LocalDate d, ColumnType type, String role, int position) {
    long day = d.toEpochDay();
    if (day < Integer.MIN_VALUE || day > Integer.MAX_VALUE) {
      throw new InvalidInputException(
          place(type, role, position)
              + ": "
              + d
              + " (expected: "
              + MIN_DATE
              + ".."
              + MAX_DATE
              + ")");
    }
    return (int) day;
  }

  public static LocalDate date(int epochDay) {
    return LocalDate.ofEpochDay(epochDay);
  }

  // ---- TIMESTAMP ----

  public static long epochMicros(LocalDateTime t, ColumnType type, String role, int position) {
    int nano = t.getNano();
    if (nano % 1000 != 0) {
      throw new InvalidInputException(
          place(type, role, position)
              + ": "
              + t
              + " (expected: whole microseconds, got "
              + nano
              + " ns)");
    }
    long seconds = t.toEpochSecond(ZoneOffset.UTC);
    long micros = nano / 1000;
    if (seconds < 0 && micros > 0) {
      // Borrow a second so that values just above Long.MIN_VALUE micros do not overflow the
      // intermediate seconds * 1e6.
      seconds += 1;
      micros -= 1_000_000L;
    }
    try {
      micros = Math.addExact(Math.multiplyExact(seconds, 1_000_000L), micros);
    } catch (ArithmeticException e) {
      throw new InvalidInputException(
          place(type, role, position)
              + ": "
              + t
              + " (expected: "
              + MIN_TIMESTAMP
              + ".."
              + MAX_TIMESTAMP
              + ")");
    }
    return micros;
  }

  public static LocalDateTime timestamp(long epochMicros) {
    long seconds = Math.floorDiv(epochMicros, 1_000_000L);
    int micros = (int) Math.floorMod(epochMicros, 1_000_000L);
    return LocalDateTime.ofEpochSecond(seconds, micros * 1000, ZoneOffset.UTC);
  }

  // ---- DECIMAL ----

  /**
   * The unscaled value of {@code v} at the column's scale, checked to fit its precision. For
   * precision up to 18 the result fits a {@code long}; up to 38 it fits 128 bits.
   */
  public static BigInteger unscaled(BigDecimal v, ColumnType type, String role, int position) {
    BigDecimal atScale;
    try {
      atScale = v.setScale(type.scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new InvalidInputException(
          place(type, role, position)
              + ": "
              + v.toPlainString()
              + " (expected: at most "
              + type.scale()
              + " digits after the point)");
    }
    if (atScale.precision() > type.precision()) {
      throw new InvalidInputException(
          place(type, role, position)
              + ": "
              + v.toPlainString()
              + " (expected: at most "
              + (type.precision() - type.scale())
              + " digits before the point)");
    }
    return atScale.unscaledValue();
  }

  public static BigDecimal decimal(long unscaled, ColumnType type) {
    return BigDecimal.valueOf(unscaled, type.scale());
  }

  /** The 128-bit two's complement value {@code hi:lo} at the column's scale. */
  public static BigDecimal decimal(long hi, long lo, ColumnType type) {
    BigInteger v;
    if (hi == (lo >> 63)) {
      v = BigInteger.valueOf(lo); // fits a long: the common case, no shifting
    } else {
      v = BigInteger.valueOf(hi).shiftLeft(64).or(BigInteger.valueOf(lo).and(LOW_64));
    }
    return new BigDecimal(v, type.scale());
  }

  // ---- strings ----

  /** Bytes of the UTF-8 form of {@code s}; refuses unpaired surrogates. */
  public static int utf8Length(String s, ColumnType type, String role, int position) {
    int n = s.length();
    int len = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        len += 1;
      } else if (!Character.isSurrogate(c)) {
        len += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        len += 2; // two chars become four bytes
        i++;
      } else {
        throw new InvalidInputException(
            place(type, role, position)
                + ": unpaired surrogate U+"
                + Integer.toHexString(c).toUpperCase()
                + " at index "
                + i
                + " (expected: a valid UTF-16 string)");
      }
    }
    return len;
  }

  /**
   * Writes the UTF-8 form of {@code s} at {@code dst[off]}; returns the offset after it. The string
   * must have passed {@link #utf8Length}.
   */
  public static int writeUtf8(String s, byte[] dst, int off) {
    int n = s.length();
    int p = off;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        dst[p++] = (byte) c;
      } else if (c < 0x800) {
        dst[p++] = (byte) (0xC0 | (c >> 6));
        dst[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (!Character.isSurrogate(c)) {
        dst[p++] = (byte) (0xE0 | (c >> 12));
        dst[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        dst[p++] = (byte) (0x80 | (c & 0x3F));
      } else {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        dst[p++] = (byte) (0xF0 | (cp >> 18));
        dst[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        dst[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        dst[p++] = (byte) (0x80 | (cp & 0x3F));
      }
    }
    return p;
  }

  public static String readUtf8(byte[] src, int off, int len) {
    return new String(src, off, len, StandardCharsets.UTF_8);
  }

  private static String place(ColumnType type, String role, int position) {
    return role + " " + position + " (" + type.sql() + ")";
  }
}
