package dev.idxkit.core.schema;

import static dev.idxkit.core.schema.ValueFormat.show;

import dev.idxkit.core.ProblemText;
import dev.idxkit.core.schema.Values.InvalidValueException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Coercion of API values: a Java object an application passes (through {@code Row}, a key, a JSON
 * number) becomes exactly the class {@link TypeKind} fixes for its column, or is refused.
 *
 * <p>It widens and narrows only where no information is lost: {@code 17} (an Integer) becomes
 * {@code 17L} for a BIGINT, but {@code 12.345} does not fit DECIMAL(10,2) and is refused rather
 * than rounded. The range checks the store imposes (DATE as a 32-bit epoch day, TIMESTAMP as 64-bit
 * microseconds, strings storable as UTF-8, lengths in code points) live here too, and {@link
 * ValueParser} calls them for parsed text, so a value is checked the same way whichever door it
 * came in by. Entry point: {@link Values#coerce}.
 */
final class ValueCoercion {
  private ValueCoercion() {}

  /**
   * Returns {@code v} as the Java class of the column's type (see {@link TypeKind}).
   *
   * <p>Integral columns take Byte, Short, Integer, Long, BigInteger and BigDecimal without a
   * fraction, within range. DOUBLE takes any Number. DECIMAL takes integers, BigDecimal, and Double
   * or Float by their shortest decimal text ({@code 0.1d} is 0.1), if exactly representable at the
   * column's scale and precision; the result has exactly the column's scale. Strings, dates,
   * timestamps, booleans and byte arrays must already have their class; byte arrays are returned as
   * they are, not copied.
   *
   * @throws InvalidValueException if the value has the wrong class or does not fit; {@code null}
   *     for a NOT NULL column
   */
  static Object coerce(ColumnDef col, Object v) {
    if (v == null) {
      if (!col.nullable()) {
        throw new InvalidValueException(col, "NULL in a NOT NULL column");
      }
      return null;
    }
    ColumnType type = col.type();
    switch (type.kind()) {
      case BIGINT:
        return v instanceof Long ? v : integral(col, v, Long.MIN_VALUE, Long.MAX_VALUE);
      case INT:
        return v instanceof Integer
            ? v
            : (int) integral(col, v, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case SMALLINT:
        return v instanceof Short ? v : (short) integral(col, v, Short.MIN_VALUE, Short.MAX_VALUE);
      case DOUBLE:
        if (v instanceof Double) {
          return v;
        }
        if (v instanceof Number n) {
          return n.doubleValue();
        }
        throw wrongClass(col, v);
      case DECIMAL:
        return fitDecimal(col, toBigDecimal(col, v), null);
      case VARCHAR:
      case TEXT:
        if (v instanceof String s) {
          return checkString(col, s);
        }
        throw wrongClass(col, v);
      case DATE:
        if (v instanceof LocalDate d) {
          return checkDate(col, d);
        }
        throw wrongClass(col, v);
      case TIMESTAMP:
        if (v instanceof LocalDateTime t) {
          return checkTimestamp(col, t);
        }
        throw wrongClass(col, v);
      case BOOLEAN:
        if (v instanceof Boolean) {
          return v;
        }
        throw wrongClass(col, v);
      case VARBINARY:
        if (v instanceof byte[] b) {
          if (type.length() > 0 && b.length > type.length()) {
            throw new InvalidValueException(
                col, show(v) + " is " + b.length + " bytes, longer than " + type.sql());
          }
          return b;
        }
        throw wrongClass(col, v);
      default:
        throw new AssertionError(type.kind());
    }
  }

  private static long integral(ColumnDef col, Object v, long min, long max) {
    long x;
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      x = ((Number) v).longValue();
    } else if (v instanceof BigInteger bi) {
      if (bi.bitLength() > 63) {
        throw outOfRange(col, show(v), min, max);
      }
      x = bi.longValue();
    } else if (v instanceof BigDecimal bd) {
      BigDecimal s = bd.stripTrailingZeros();
      if (s.scale() > 0) {
        throw new InvalidValueException(
            col, show(v) + " has a fraction; " + col.type().sql() + " holds whole numbers");
      }
      // Integer digits = precision - scale; more than 19 cannot fit a long (and stops a huge
      // exponent from being expanded).
      if (s.precision() - s.scale() > 19) {
        throw outOfRange(col, show(v), min, max);
      }
      BigInteger bi = s.toBigIntegerExact();
      if (bi.bitLength() > 63) {
        throw outOfRange(col, show(v), min, max);
      }
      x = bi.longValue();
    } else {
      throw wrongClass(col, v);
    }
    if (x < min || x > max) {
      throw outOfRange(col, show(v), min, max);
    }
    return x;
  }

  private static BigDecimal toBigDecimal(ColumnDef col, Object v) {
    if (v instanceof BigDecimal bd) {
      return bd;
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return BigDecimal.valueOf(((Number) v).longValue());
    }
    if (v instanceof BigInteger bi) {
      // 38 digits need 127 bits; anything longer is out of range for every precision.
      if (bi.bitLength() > 128) {
        throw new InvalidValueException(col, show(v) + " does not fit " + col.type().sql());
      }
      return new BigDecimal(bi);
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new InvalidValueException(col, show(v) + " is not a number " + col.type().sql());
      }
      // The shortest decimal that reads back as this double: 0.1d is 0.1, not
      // 0.1000000000000000055.
      return v instanceof Float ? new BigDecimal(v.toString()) : BigDecimal.valueOf(d);
    }
    throw wrongClass(col, v);
  }

  /**
   * {@code bd} at the column's scale, exactly, within the precision. {@code text} is what the user
   * wrote, for the message (null: show {@code bd}).
   */
  static BigDecimal fitDecimal(ColumnDef col, BigDecimal bd, String text) {
    ColumnType type = col.type();
    if (bd.scale() == type.scale() && bd.precision() <= type.precision()) {
      return bd; // the common case: already right
    }
    BigDecimal s = bd.stripTrailingZeros();
    if (s.signum() == 0) {
      return BigDecimal.valueOf(0, type.scale());
    }
    String shown = text != null ? show(text) : show(bd);
    if (s.scale() > type.scale()) {
      throw new InvalidValueException(
          col,
          shown
              + " does not fit "
              + type.sql()
              + ": more than "
              + type.scale()
              + " digits after the point");
    }
    // Integer digits of a non-zero value are precision - scale; checked before setScale so that
    // a huge exponent is never expanded.
    if ((long) s.precision() - s.scale() > type.precision() - type.scale()) {
      throw new InvalidValueException(
          col,
          shown
              + " does not fit "
              + type.sql()
              + ": more than "
              + (type.precision() - type.scale())
              + " digits before the point");
    }
    return s.setScale(type.scale());
  }

  static String checkString(ColumnDef col, String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          throw new InvalidValueException(
              col,
              String.format(
                  "%s has an unpaired surrogate U+%04X at index %d (not storable as UTF-8)",
                  show(s), (int) c, i));
        }
      }
    }
    int max = col.type().length();
    // A string of at most max chars has at most max code points: count only when it matters.
    if (max > 0 && n > max) {
      int codePoints = s.codePointCount(0, n);
      if (codePoints > max) {
        throw new InvalidValueException(
            col, show(s) + " is " + codePoints + " characters, longer than " + col.type().sql());
      }
    }
    return s;
  }

  static LocalDate checkDate(ColumnDef col, LocalDate d) {
    long day = d.toEpochDay();
    if (day < Integer.MIN_VALUE || day > Integer.MAX_VALUE) {
      throw new InvalidValueException(
          col, d + " is outside the DATE range (epoch day must fit 32 bits)");
    }
    return d;
  }

  static LocalDateTime checkTimestamp(ColumnDef col, LocalDateTime t) {
    if (t.getNano() % 1000 != 0) {
      throw new InvalidValueException(
          col,
          t
              + " has sub-microsecond precision ("
              + t.getNano()
              + " ns); TIMESTAMP stores microseconds");
    }
    long seconds = t.toEpochSecond(ZoneOffset.UTC);
    long micros = t.getNano() / 1000;
    if (seconds < 0 && micros > 0) { // near Long.MIN_VALUE seconds * 1e6 alone would overflow
      seconds++;
      micros -= 1_000_000;
    }
    try {
      Math.addExact(Math.multiplyExact(seconds, 1_000_000L), micros);
    } catch (ArithmeticException e) {
      throw new InvalidValueException(
          col, t + " is outside the TIMESTAMP range (microseconds since 1970 must fit 64 bits)");
    }
    return t;
  }

  private static InvalidValueException wrongClass(ColumnDef col, Object v) {
    // In the API caller's terms: the Java type given, the SQL type and the Java type it takes.
    String hint = v instanceof String ? "; text goes through Values.parse" : "";
    return new InvalidValueException(
        col,
        ProblemText.javaType(v)
            + " ("
            + show(v)
            + ") where "
            + ProblemText.withArticle(col.type().sql())
            + " is expected (Java type "
            + ProblemText.javaType(col.type().kind().javaClass())
            + hint
            + ")");
  }

  static InvalidValueException outOfRange(ColumnDef col, String shown, long min, long max) {
    return new InvalidValueException(
        col, shown + " is out of range for " + col.type().sql() + " (" + min + ".." + max + ")");
  }
}
