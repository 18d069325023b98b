package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Column values: the one place where text and Java objects become values of a column's type.
 *
 * <p>Three entry points:
 *
 * <ul>
 *   <li>{@link #coerce(ColumnDef, Object)} takes a Java object from the API and returns it as the
 *       exact class {@link TypeKind} fixes for the column, or fails. It widens and narrows only
 *       where no information is lost: {@code 17} (an Integer) becomes {@code 17L} for a BIGINT, but
 *       {@code 12.345} does not fit DECIMAL(10,2) and is refused rather than rounded.
 *   <li>{@link #parse(ColumnDef, String)} (and the {@code char[]} overload the loader uses) turns
 *       text - a CSV field, a CLI key argument, a JSON string - into a value.
 *   <li>{@link #format(ColumnType, Object)} writes the canonical text of a value; {@code
 *       parse(format(v))} equals {@code v} for every value of every type.
 * </ul>
 *
 * <h2>Text forms</h2>
 *
 * <pre>
 * type       parse accepts                                       format writes
 * BIGINT     [+-]?[0-9]+ within range (INT, SMALLINT alike)      -42
 * DOUBLE     [+-]?(d+[.d*]|.d+)([eE][+-]?d+)?, Infinity,         Double.toString: 1.5, -0.0,
 *            +Infinity, -Infinity, NaN                           1.0E10, NaN, -Infinity
 * DECIMAL    [+-]?(d+[.d*]|.d+)([eE][+-]?d+)? exactly at scale   plain digits at the scale: 12.30
 * VARCHAR    any text (length counted in code points)            the text
 * DATE       [+-]?yyyy-MM-dd (years of 4 to 9 digits)            2024-02-29, +10000-01-01
 * TIMESTAMP  date, ' ' or 'T', HH:mm:ss, optional .f to .ffffff  2024-02-29 13:05:00.25
 * BOOLEAN    true false t f 1 0 yes no, any case                 true, false
 * VARBINARY  \x or 0x and an even number of hex digits           \x0a0b
 * </pre>
 *
 * <p>Text is taken as it is: no trimming, no thousands separators, no locale. Empty text is a valid
 * VARCHAR/TEXT (the empty string) and an error for every other type; NULL never comes from text
 * here - the CSV and JSON readers decide what NULL looks like and pass {@code null}.
 *
 * <h2>Ranges the store imposes</h2>
 *
 * A DATE is stored as an int epoch day and a TIMESTAMP as a long count of microseconds since
 * 1970-01-01T00:00 (no time zone), so dates must lie within about 5.8 million years and timestamps
 * within about 292,000 years of 1970; anything outside is refused here rather than corrupted later.
 * Strings must be valid UTF-16 (no unpaired surrogates) because they are stored as UTF-8.
 *
 * <h2>Speed</h2>
 *
 * The loader parses millions of fields a second, so integers, decimals up to 18 digits and dates
 * are parsed by hand from a {@code char[]} slice: no regex, no exception and no allocation besides
 * the result itself on the success path. Errors are rare and may be slow: they allocate the message
 * and throw {@link InvalidValueException}.
 */
public final class Values {
  /** Longer numeric text is refused before BigDecimal sees it (its parser is quadratic). */
  private static final int MAX_NUMBER_CHARS = 1000;

  private static final int MAX_SHOWN_CHARS = 100;
  private static final long[] POW10 = new long[19];
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  static {
    POW10[0] = 1;
    for (int i = 1; i < POW10.length; i++) {
      POW10[i] = POW10[i - 1] * 10;
    }
  }

  private Values() {}

  /**
   * A value that does not fit its column. {@link #reason()} is the problem without the column, for
   * callers (reject files) that report the column and the raw value separately.
   */
  public static final class InvalidValueException extends InvalidInputException {
    private static final long serialVersionUID = 1L;
    private final String column;
    private final String type;
    private final String reason;

    InvalidValueException(ColumnDef col, String reason) {
      super("column " + col.name() + " " + col.type().sql() + ": " + reason);
      this.column = col.name();
      this.type = col.type().sql();
      this.reason = reason;
    }

    /** Name of the column the value was meant for. */
    public String column() {
      return column;
    }

    /** The column's type as SQL spells it, e.g. {@code DECIMAL(10,2)}. */
    public String type() {
      return type;
    }

    /** What is wrong, naming the value, e.g. {@code 12.345 does not fit DECIMAL(10,2): ...}. */
    public String reason() {
      return reason;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // coerce

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
  public static Object coerce(ColumnDef col, Object v) {
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
  private static BigDecimal fitDecimal(ColumnDef col, BigDecimal bd, String text) {
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

  private static String checkString(ColumnDef col, String s) {
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

  private static LocalDate checkDate(ColumnDef col, LocalDate d) {
    long day = d.toEpochDay();
    if (day < Integer.MIN_VALUE || day > Integer.MAX_VALUE) {
      throw new InvalidValueException(
          col, d + " is outside the DATE range (epoch day must fit 32 bits)");
    }
    return d;
  }

  private static LocalDateTime checkTimestamp(ColumnDef col, LocalDateTime t) {
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

  // ---------------------------------------------------------------------------------------------
  // parse

  /**
   * Parses text as a value of the column (see the table in the class comment). {@code null} text is
   * NULL: allowed only in a nullable column.
   *
   * @throws InvalidValueException naming the column, its type and the text
   */
  public static Object parse(ColumnDef col, String text) {
    if (text == null) {
      return coerce(col, null);
    }
    TypeKind kind = col.type().kind();
    if (kind == TypeKind.VARCHAR || kind == TypeKind.TEXT) {
      return checkString(col, text); // no copy
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
  public static Object parse(ColumnDef col, char[] buf, int off, int len) {
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
        return checkString(col, new String(buf, off, len));
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
        throw outOfRange(col, show(s, off, len), min, max);
      }
      acc *= 10;
      if (acc < limit + d) {
        throw outOfRange(col, show(s, off, len), min, max);
      }
      acc -= d;
    }
    long x = negative ? acc : -acc;
    if (x < min || x > max) {
      throw outOfRange(col, show(s, off, len), min, max);
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
    return fitDecimal(col, bd, new String(s, off, len));
  }

  private static LocalDate parseDate(ColumnDef col, char[] s, int off, int len) {
    int end = off + len;
    long packed = scanDate(col, s, off, end, off, len);
    if (off + dateLength(packed) != end) {
      throw badChar(col, s, off, len, off + dateLength(packed), "is not a date (yyyy-MM-dd)");
    }
    return checkDate(col, LocalDate.of(dateYear(packed), dateMonth(packed), dateDay(packed)));
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
    return checkTimestamp(col, t);
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

  // ---------------------------------------------------------------------------------------------
  // format

  /**
   * The canonical text of {@code v} (see the table in the class comment), which {@link
   * #parse(ColumnDef, String)} reads back as an equal value; {@code null} for {@code null}: how a
   * NULL is written is the writer's choice (CSV, JSON).
   *
   * @throws InvalidInputException if {@code v} is not of the type's Java class
   */
  public static String format(ColumnType type, Object v) {
    if (v == null) {
      return null;
    }
    if (!type.kind().javaClass().isInstance(v)) {
      throw new InvalidInputException(
          "cannot format "
              + v.getClass().getName()
              + " "
              + show(v)
              + " as "
              + type.sql()
              + " (expected "
              + type.kind().javaClass().getSimpleName()
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

  // ---------------------------------------------------------------------------------------------
  // helpers

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

  private static InvalidValueException wrongClass(ColumnDef col, Object v) {
    String hint = v instanceof String ? " (text goes through Values.parse)" : "";
    return new InvalidValueException(
        col,
        "expected "
            + col.type().kind().javaClass().getSimpleName()
            + ", got "
            + v.getClass().getName()
            + " "
            + show(v)
            + hint);
  }

  private static InvalidValueException outOfRange(ColumnDef col, String shown, long min, long max) {
    return new InvalidValueException(
        col, shown + " is out of range for " + col.type().sql() + " (" + min + ".." + max + ")");
  }

  private static InvalidValueException tooManyFractionDigits(
      ColumnDef col, char[] s, int off, int len) {
    ColumnType t = col.type();
    return new InvalidValueException(
        col,
        show(s, off, len)
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
        show(s, off, len)
            + " does not fit "
            + t.sql()
            + ": more than "
            + (t.precision() - t.scale())
            + " digits before the point");
  }

  private static InvalidValueException bad(
      ColumnDef col, char[] s, int off, int len, String problem) {
    return new InvalidValueException(col, show(s, off, len) + " " + problem);
  }

  /** An error at {@code s[at]} (or at the end of the text), with the 1-based position. */
  private static InvalidValueException badChar(
      ColumnDef col, char[] s, int off, int len, int at, String problem) {
    String where =
        at >= off + len
            ? "text ends too early"
            : "unexpected '" + s[at] + "' at position " + (at - off + 1);
    return new InvalidValueException(col, show(s, off, len) + " " + problem + ": " + where);
  }

  private static String show(char[] s, int off, int len) {
    return show(new String(s, off, Math.min(len, MAX_SHOWN_CHARS + 1)));
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
