package dev.idxkit.core.schema;

import static dev.idxkit.core.schema.ValueFormat.show;

import dev.idxkit.core.schema.Values.InvalidValueException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Text to values for the 8 type families: a CSV field, a CLI key argument, a JSON string becomes a
 * value of its column (the forms accepted are the table in {@link Values}). Entry points: {@link
 * Values#parse(ColumnDef, String)} and, on the loader's hot path, {@link Values#parse(ColumnDef,
 * char[], int, int)}.
 *
 * <p>Integers, decimals of up to 18 digits, dates and timestamps are parsed by hand from a {@code
 * char[]} slice: one pass, no regex, no exception and no allocation besides the result on the
 * success path. Longer decimals and doubles go through the JDK after a syntax scan (numeric text
 * longer than {@value #MAX_NUMBER_CHARS} characters is refused first: {@code BigDecimal}'s parser
 * is quadratic). The parsed value then passes the same range checks as an API value ({@link
 * ValueCoercion}). Errors are rare and may be slow: they name the column, the text and the 1-based
 * position of the first wrong character.
 */
final class ValueParser {
  /** Longer numeric text is refused before BigDecimal sees it (its parser is quadratic). */
  private static final int MAX_NUMBER_CHARS = 1000;

  private static final long[] POW10 = new long[19];

  static {
    POW10[0] = 1;
    for (int i = 1; i < POW10.length; i++) {
      POW10[i] = POW10[i - 1] * 10;
    }
  }

  private ValueParser() {}

  /**
   * Parses text as a value of the column (see the table in {@link Values}). {@code null} text is
   * NULL: allowed only in a nullable column.
   *
   * @throws InvalidValueException naming the column, its type and the text
   */
  static Object parse(ColumnDef col, String text) {
    if (text == null) {
      return ValueCoercion.coerce(col, null);
    }
    TypeKind kind = col.type().kind();
    if (kind == TypeKind.VARCHAR || kind == TypeKind.TEXT) {
      return ValueCoercion.checkString(col, text); // no copy
    }
    char[] chars = text.toCharArray();
    return parse(col, chars, 0, chars.length);
  }

  /**
   * Parses {@code buf[off, off + len)} as a value of the column; the hot path of the loader. The
   * slice is read, never kept: the caller may reuse the buffer.
   *
   * @throws InvalidValueException naming the column, its type and the text
   */
  static Object parse(ColumnDef col, char[] buf, int off, int len) {
    switch (col.type().kind()) {
      case BIGINT:
        return parseLong(col, buf, off, len, Long.MIN_VALUE, Long.MAX_VALUE);
      case INT:
        return (int) parseLong(col, buf, off, len, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case SMALLINT:
        return (short) parseLong(col, buf, off, len, Short.MIN_VALUE, Short.MAX_VALUE);
      case DOUBLE:
        return parseDouble(col, buf, off, len);
      case DECIMAL:
        return parseDecimal(col, buf, off, len);
      case VARCHAR:
      case TEXT:
        return ValueCoercion.checkString(col, new String(buf, off, len));
      case DATE:
        return parseDate(col, buf, off, len);
      case TIMESTAMP:
        return parseTimestamp(col, buf, off, len);
      case BOOLEAN:
        return parseBoolean(col, buf, off, len);
      case VARBINARY:
        return parseBinary(col, buf, off, len);
      default:
        throw new AssertionError(col.type().kind());
    }
  }

  private static long parseLong(ColumnDef col, char[] s, int off, int len, long min, long max) {
    if (len == 0) {
      throw bad(col, s, off, len, "is not a number");
    }
    int i = off;
    int end = off + len;
    boolean negative = false;
    char first = s[i];
    if (first == '-' || first == '+') {
      negative = first == '-';
      if (++i == end) {
        throw bad(col, s, off, len, "is not a number: no digits");
      }
    }
    // Accumulate negatively so that Long.MIN_VALUE parses (as Long.parseLong does).
    long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
    long multmin = limit / 10;
    long acc = 0;
    for (; i < end; i++) {
      int d = s[i] - '0';
      if (d < 0 || d > 9) {
        throw badChar(col, s, off, len, i, "is not a whole number");
      }
      if (acc < multmin) {
        throw ValueCoercion.outOfRange(col, showText(s, off, len), min, max);
      }
      acc *= 10;
      if (acc < limit + d) {
        throw ValueCoercion.outOfRange(col, showText(s, off, len), min, max);
      }
      acc -= d;
    }
    long x = negative ? acc : -acc;
    if (x < min || x > max) {
      throw ValueCoercion.outOfRange(col, showText(s, off, len), min, max);
    }
    return x;
  }

  private static double parseDouble(ColumnDef col, char[] s, int off, int len) {
    if (len == 0) {
      throw bad(col, s, off, len, "is not a number");
    }
    if (len > MAX_NUMBER_CHARS) {
      throw bad(col, s, off, len, "is too long for a number (" + len + " characters)");
    }
    int i = off;
    int end = off + len;
    boolean negative = false;
    char first = s[i];
    if (first == '-' || first == '+') {
      negative = first == '-';
      i++;
    }
    if (matches(s, i, end, "Infinity")) {
      return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (i == off && matches(s, i, end, "NaN")) {
      return Double.NaN;
    }
    // Check the syntax ourselves: Double.parseDouble also takes hex floats, a trailing 'd' or 'f'
    // and surrounding blanks, none of which is a number here.
    int at = scanDecimalSyntax(s, i, end);
    if (at >= 0) {
      throw badChar(col, s, off, len, at, "is not a number");
    }
    return Double.parseDouble(new String(s, off, len));
  }

  /**
   * Checks {@code (d+[.d*]|.d+)([eE][+-]?d+)?} on {@code s[i, end)}; returns -1 if it matches, else
   * the index of the first offending char ({@code end} if the text stops too early).
   */
  private static int scanDecimalSyntax(char[] s, int i, int end) {
    int digits = 0;
    while (i < end && isDigit(s[i])) {
      i++;
      digits++;
    }
    if (i < end && s[i] == '.') {
      i++;
      while (i < end && isDigit(s[i])) {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return i;
    }
    if (i < end && (s[i] == 'e' || s[i] == 'E')) {
      i++;
      if (i < end && (s[i] == '+' || s[i] == '-')) {
        i++;
      }
      int expDigits = 0;
      while (i < end && isDigit(s[i])) {
        i++;
        expDigits++;
      }
      if (expDigits == 0) {
        return i;
      }
    }
    return i == end ? -1 : i;
  }

  private static BigDecimal parseDecimal(ColumnDef col, char[] s, int off, int len) {
    ColumnType type = col.type();
    int scale = type.scale();
    int i = off;
    int end = off + len;
    boolean negative = false;
    if (i < end && (s[i] == '-' || s[i] == '+')) {
      negative = s[i] == '-';
      i++;
    }
    // Fast path: at most 18 significant digits and no exponent, accumulated in a long.
    long unscaled = 0;
    int significant = 0;
    int fraction = 0; // fraction digits kept (at most scale)
    boolean point = false;
    boolean anyDigit = false;
    for (; i < end; i++) {
      char c = s[i];
      int d = c - '0';
      if (d >= 0 && d <= 9) {
        anyDigit = true;
        if (point) {
          if (fraction == scale) {
            if (d != 0) {
              throw tooManyFractionDigits(col, s, off, len);
            }
            continue; // a trailing zero beyond the scale changes nothing
          }
          fraction++;
        }
        if (unscaled != 0 || d != 0) {
          if (++significant > 18) {
            return parseDecimalSlow(col, s, off, len);
          }
        }
        unscaled = unscaled * 10 + d;
      } else if (c == '.' && !point) {
        point = true;
      } else if ((c == 'e' || c == 'E') && anyDigit) {
        return parseDecimalSlow(col, s, off, len);
      } else {
        throw badChar(col, s, off, len, i, "is not a number");
      }
    }
    if (!anyDigit) {
      throw bad(col, s, off, len, "is not a number");
    }
    if (unscaled == 0) {
      return BigDecimal.valueOf(0, scale);
    }
    int pad = scale - fraction;
    if (significant + pad > 18) {
      return parseDecimalSlow(col, s, off, len);
    }
    unscaled *= POW10[pad];
    if (type.precision() <= 18 && unscaled >= POW10[type.precision()]) {
      throw tooManyIntegerDigits(col, s, off, len);
    }
    return BigDecimal.valueOf(negative ? -unscaled : unscaled, scale);
  }

  private static BigDecimal parseDecimalSlow(ColumnDef col, char[] s, int off, int len) {
    if (len > MAX_NUMBER_CHARS) {
      throw bad(col, s, off, len, "is too long for a number (" + len + " characters)");
    }
    int at = scanDecimalSyntax(s, off + (s[off] == '-' || s[off] == '+' ? 1 : 0), off + len);
    if (at >= 0) {
      throw badChar(col, s, off, len, at, "is not a number");
    }
    BigDecimal bd;
    try {
      bd = new BigDecimal(s, off, len);
    } catch (NumberFormatException e) { // exponent beyond int range
      throw bad(col, s, off, len, "is not a number: " + e.getMessage());
    }
    return ValueCoercion.fitDecimal(col, bd, new String(s, off, len));
  }

  private static LocalDate parseDate(ColumnDef col, char[] s, int off, int len) {
    int end = off + len;
    long packed = scanDate(col, s, off, end, off, len);
    if (off + dateLength(packed) != end) {
      throw badChar(col, s, off, len, off + dateLength(packed), "is not a date (yyyy-MM-dd)");
    }
    return ValueCoercion.checkDate(
        col, LocalDate.of(dateYear(packed), dateMonth(packed), dateDay(packed)));
  }

  /*
   * scanDate returns the date it read packed in a long, so that parseDate and parseTimestamp share
   * it without allocating:
   *
   *   bits 63..32  year (signed)
   *   bits 31..24  month 1..12
   *   bits 23..16  day 1..31
   *   bits 15..0   chars consumed
   */
  private static int dateYear(long packed) {
    return (int) (packed >> 32);
  }

  private static int dateMonth(long packed) {
    return (int) (packed >>> 24) & 0xFF;
  }

  private static int dateDay(long packed) {
    return (int) (packed >>> 16) & 0xFF;
  }

  private static int dateLength(long packed) {
    return (int) packed & 0xFFFF;
  }

  /**
   * Reads {@code [+-]?y{4,9}-MM-dd} at {@code s[i, end)} and checks that the day exists; the text
   * may go on after it. {@code off, len} delimit the whole text, for messages.
   */
  private static long scanDate(ColumnDef col, char[] s, int i, int end, int off, int len) {
    final String expected = "is not a date (yyyy-MM-dd)";
    int start = i;
    boolean negative = false;
    if (i < end && (s[i] == '-' || s[i] == '+')) {
      negative = s[i] == '-';
      i++;
    }
    int year = 0;
    int yearDigits = 0;
    while (i < end && isDigit(s[i]) && yearDigits < 9) {
      year = year * 10 + (s[i++] - '0');
      yearDigits++;
    }
    if (yearDigits < 4) {
      throw badChar(col, s, off, len, i, expected);
    }
    if (i >= end || s[i] != '-') {
      throw badChar(col, s, off, len, i, expected);
    }
    i++;
    if (i + 5 > end
        || !isDigit(s[i])
        || !isDigit(s[i + 1])
        || s[i + 2] != '-'
        || !isDigit(s[i + 3])
        || !isDigit(s[i + 4])) {
      throw badChar(col, s, off, len, firstMismatch(s, i, end, "dd-dd"), expected);
    }
    int month = (s[i] - '0') * 10 + (s[i + 1] - '0');
    int day = (s[i + 3] - '0') * 10 + (s[i + 4] - '0');
    i += 5;
    if (negative) {
      year = -year;
    }
    if (month < 1 || month > 12) {
      throw bad(col, s, off, len, "is not a date: month " + month + " (expected 01..12)");
    }
    // Days 1..28 exist in every month: only later ones need the month's length (and a leap year).
    if (day < 1 || (day > 28 && day > monthLength(year, month))) {
      int monthLength = monthLength(year, month);
      throw bad(
          col,
          s,
          off,
          len,
          "is not a date: day " + day + " (expected 01.." + monthLength + " for that month)");
    }
    return ((long) year << 32) | (month << 24) | (day << 16) | (i - start);
  }

  private static int monthLength(int year, int month) {
    return java.time.Month.of(month).length(java.time.Year.isLeap(year));
  }

  /** Index of the first char of {@code s[i, end)} not matching {@code pattern} ('d' = digit). */
  private static int firstMismatch(char[] s, int i, int end, String pattern) {
    for (int k = 0; k < pattern.length(); k++, i++) {
      if (i >= end) {
        return end;
      }
      char p = pattern.charAt(k);
      if (p == 'd' ? !isDigit(s[i]) : s[i] != p) {
        return i;
      }
    }
    return i;
  }

  private static LocalDateTime parseTimestamp(ColumnDef col, char[] s, int off, int len) {
    final String expected = "is not a timestamp (yyyy-MM-dd HH:mm:ss[.ffffff])";
    int end = off + len;
    long date = scanDate(col, s, off, end, off, len);
    int i = off + dateLength(date);
    if (i >= end || (s[i] != ' ' && s[i] != 'T')) {
      throw badChar(col, s, off, len, i, expected);
    }
    i++;
    if (i + 8 > end || firstMismatch(s, i, end, "dd:dd:dd") != i + 8) {
      throw badChar(col, s, off, len, firstMismatch(s, i, end, "dd:dd:dd"), expected);
    }
    int hour = (s[i] - '0') * 10 + (s[i + 1] - '0');
    int minute = (s[i + 3] - '0') * 10 + (s[i + 4] - '0');
    int second = (s[i + 6] - '0') * 10 + (s[i + 7] - '0');
    i += 8;
    if (hour > 23 || minute > 59 || second > 59) {
      throw bad(col, s, off, len, "is not a timestamp: time out of range (00:00:00..23:59:59)");
    }
    int micros = 0;
    if (i < end && s[i] == '.') {
      i++;
      int digits = 0;
      while (i < end && isDigit(s[i])) {
        if (++digits > 6) {
          throw bad(
              col, s, off, len, "has more than 6 fraction digits; TIMESTAMP stores microseconds");
        }
        micros = micros * 10 + (s[i++] - '0');
      }
      if (digits == 0) {
        throw badChar(col, s, off, len, i, expected);
      }
      micros *= (int) POW10[6 - digits];
    }
    if (i != end) {
      throw badChar(col, s, off, len, i, expected);
    }
    LocalDateTime t =
        LocalDateTime.of(
            dateYear(date), dateMonth(date), dateDay(date), hour, minute, second, micros * 1000);
    return ValueCoercion.checkTimestamp(col, t);
  }

  private static Boolean parseBoolean(ColumnDef col, char[] s, int off, int len) {
    switch (len) {
      case 1:
        switch (s[off]) {
          case 't', 'T', '1':
            return Boolean.TRUE;
          case 'f', 'F', '0':
            return Boolean.FALSE;
          default:
            break;
        }
        break;
      case 2:
        if (matchesIgnoreCase(s, off, len, "no")) {
          return Boolean.FALSE;
        }
        break;
      case 3:
        if (matchesIgnoreCase(s, off, len, "yes")) {
          return Boolean.TRUE;
        }
        break;
      case 4:
        if (matchesIgnoreCase(s, off, len, "true")) {
          return Boolean.TRUE;
        }
        break;
      case 5:
        if (matchesIgnoreCase(s, off, len, "false")) {
          return Boolean.FALSE;
        }
        break;
      default:
        break;
    }
    throw bad(col, s, off, len, "is not a boolean (true/false, t/f, 1/0, yes/no)");
  }

  private static byte[] parseBinary(ColumnDef col, char[] s, int off, int len) {
    if (len < 2
        || !((s[off] == '\\' || s[off] == '0') && (s[off + 1] == 'x' || s[off + 1] == 'X'))) {
      throw bad(col, s, off, len, "is not hex binary (expected \\x or 0x and hex digits)");
    }
    int digits = len - 2;
    if (digits % 2 != 0) {
      throw bad(col, s, off, len, "has an odd number of hex digits");
    }
    byte[] out = new byte[digits / 2];
    for (int k = 0; k < out.length; k++) {
      int at = off + 2 + 2 * k;
      int hi = Character.digit(s[at], 16);
      int lo = Character.digit(s[at + 1], 16);
      if (hi < 0 || lo < 0 || s[at] > 'f' || s[at + 1] > 'f') {
        throw badChar(col, s, off, len, hi < 0 || s[at] > 'f' ? at : at + 1, "is not hex binary");
      }
      out[k] = (byte) (hi << 4 | lo);
    }
    int max = col.type().length();
    if (max > 0 && out.length > max) {
      throw new InvalidValueException(
          col, show(out) + " is " + out.length + " bytes, longer than " + col.type().sql());
    }
    return out;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean matchesIgnoreCase(char[] s, int off, int len, String lowerWord) {
    for (int k = 0; k < len; k++) {
      if (Character.toLowerCase(s[off + k]) != lowerWord.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static boolean matches(char[] s, int i, int end, String word) {
    if (end - i != word.length()) {
      return false;
    }
    for (int k = 0; k < word.length(); k++) {
      if (s[i + k] != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static InvalidValueException tooManyFractionDigits(
      ColumnDef col, char[] s, int off, int len) {
    ColumnType t = col.type();
    return new InvalidValueException(
        col,
        showText(s, off, len)
            + " does not fit "
            + t.sql()
            + ": more than "
            + t.scale()
            + " digits after the point");
  }

  private static InvalidValueException tooManyIntegerDigits(
      ColumnDef col, char[] s, int off, int len) {
    ColumnType t = col.type();
    return new InvalidValueException(
        col,
        showText(s, off, len)
            + " does not fit "
            + t.sql()
            + ": more than "
            + (t.precision() - t.scale())
            + " digits before the point");
  }

  private static InvalidValueException bad(
      ColumnDef col, char[] s, int off, int len, String problem) {
    return new InvalidValueException(col, showText(s, off, len) + " " + problem);
  }

  /** An error at {@code s[at]} (or at the end of the text), with the 1-based position. */
  private static InvalidValueException badChar(
      ColumnDef col, char[] s, int off, int len, int at, String problem) {
    String where =
        at >= off + len
            ? "text ends too early"
            : "unexpected '" + s[at] + "' at position " + (at - off + 1);
    return new InvalidValueException(col, showText(s, off, len) + " " + problem + ": " + where);
  }

  private static String showText(char[] s, int off, int len) {
    return show(new String(s, off, Math.min(len, ValueFormat.MAX_SHOWN_CHARS + 1)));
  }
}
