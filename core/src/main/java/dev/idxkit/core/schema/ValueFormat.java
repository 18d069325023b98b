package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.ProblemText;
import java.math.BigDecimal;
import java.time.LocalDateTime;

/**
 * Values to their canonical text (the right-hand column of the table in {@link Values}), which
 * {@link ValueParser} reads back as an equal value: {@code parse(format(v))} equals {@code v} for
 * every value of every type. Also how a value is shown inside an error message: strings quoted and
 * cut at {@value #MAX_SHOWN_CHARS} characters, bytes in hex. Entry point: {@link Values#format}.
 */
final class ValueFormat {
  static final int MAX_SHOWN_CHARS = 100;
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private ValueFormat() {}

  /**
   * The canonical text of {@code v} (see the table in {@link Values}), which {@link
   * Values#parse(ColumnDef, String)} reads back as an equal value; {@code null} for {@code null}:
   * how a NULL is written is the writer's choice (CSV, JSON).
   *
   * @throws InvalidInputException if {@code v} is not of the type's Java class
   */
  static String format(ColumnType type, Object v) {
    if (v == null) {
      return null;
    }
    if (!type.kind().javaClass().isInstance(v)) {
      throw new InvalidInputException(
          "cannot format "
              + ProblemText.javaType(v)
              + " ("
              + show(v)
              + ") as "
              + type.sql()
              + " (Java type "
              + ProblemText.javaType(type.kind().javaClass())
              + ")");
    }
    switch (type.kind()) {
      case DECIMAL:
        return ((BigDecimal) v).toPlainString();
      case TIMESTAMP:
        return formatTimestamp((LocalDateTime) v);
      case VARBINARY:
        byte[] b = (byte[]) v;
        return hex(b, b.length);
      default:
        // Long, Integer, Short, Double (Double.toString reads back exactly, NaN and -0.0
        // included), String, LocalDate (ISO, with a sign beyond year 9999), Boolean.
        return v.toString();
    }
  }

  private static String formatTimestamp(LocalDateTime t) {
    StringBuilder sb = new StringBuilder(26);
    sb.append(t.toLocalDate()).append(' ');
    two(sb, t.getHour()).append(':');
    two(sb, t.getMinute()).append(':');
    two(sb, t.getSecond());
    int micros = t.getNano() / 1000;
    if (micros != 0) {
      // Six digits without the trailing zeros, as PostgreSQL writes them: .25, not .250000.
      String digits = Integer.toString(1_000_000 + micros).substring(1);
      int n = digits.length();
      while (digits.charAt(n - 1) == '0') {
        n--;
      }
      sb.append('.').append(digits, 0, n);
    }
    return sb.toString();
  }

  private static StringBuilder two(StringBuilder sb, int v) {
    return sb.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
  }

  /** A value as a message shows it: strings quoted and cut, bytes in hex. */
  static String show(Object v) {
    if (v instanceof String str) {
      String cut = str.length() > MAX_SHOWN_CHARS ? str.substring(0, MAX_SHOWN_CHARS) + "..." : str;
      return "\"" + cut + "\"";
    }
    if (v instanceof byte[] b) {
      return hex(b, Math.min(b.length, MAX_SHOWN_CHARS / 2)) + (b.length > 50 ? "..." : "");
    }
    if (v instanceof BigDecimal bd) {
      // Plain digits unless that would spell out a huge exponent (1E+999999999).
      return Math.abs((long) bd.scale()) <= MAX_SHOWN_CHARS ? bd.toPlainString() : bd.toString();
    }
    return String.valueOf(v);
  }

  private static String hex(byte[] b, int n) {
    char[] out = new char[2 + 2 * n];
    out[0] = '\\';
    out[1] = 'x';
    for (int i = 0; i < n; i++) {
      out[2 + 2 * i] = HEX[(b[i] >> 4) & 0xF];
      out[3 + 2 * i] = HEX[b[i] & 0xF];
    }
    return new String(out);
  }
}
