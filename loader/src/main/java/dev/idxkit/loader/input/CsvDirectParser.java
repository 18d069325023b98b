package dev.idxkit.loader.input;

import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TypeKind;
import dev.idxkit.core.schema.Values;
import dev.idxkit.core.schema.Values.InvalidValueException;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.RecordLayout;
import dev.idxkit.core.spi.RecordWriter;
import java.nio.charset.StandardCharsets;

/**
 * Turns one well-formed CSV record, as bytes, straight into a heap record: no String, boxed number,
 * {@code BigDecimal} or {@code LocalDate} per field. This is the bulk loader's hot path ({@link
 * CsvChunk#parseEncoded}); {@link CsvRowHandler} behind fastcsv is the reference it must agree
 * with.
 *
 * <p>How: {@link CsvFieldSplitter#split} finds the fields of a record the scanner has already
 * checked (UTF-8 valid, quotes closed and followed by a delimiter or the end); {@link #encode}
 * converts each field in place into the {@link RecordWriter}. Only the plainest forms are converted
 * here - integers of up to 18 digits, decimals of up to 18 significant digits without exponent,
 * {@code yyyy-MM-dd} dates, text - and only when the value is valid; any other form, and every
 * invalid value, goes through {@link Values#parse(ColumnDef, char[], int, int)} on the field's
 * characters, exactly as fastcsv's path does, so values, errors and their messages are the same. A
 * record whose structure is not plain (a quote inside an unquoted field, a line break outside
 * quotes) makes the split give up, and the caller hands the chunk to fastcsv.
 */
final class CsvDirectParser {
  private static final long[] POW10 = new long[19];

  static {
    POW10[0] = 1;
    for (int i = 1; i < POW10.length; i++) {
      POW10[i] = POW10[i - 1] * 10;
    }
  }

  /** Days from 0000-01-01 to 1970-01-01 (proleptic Gregorian), as in {@code LocalDate}. */
  private static final long DAYS_0000_TO_1970 = 719_528L;

  private final ColumnDef[] columns;
  private final TypeKind[] kinds;
  private final int[] fieldColumns;
  private final byte quote;
  private final CsvFieldSplitter split;
  private final byte[] nullMarker;
  private final RecordWriter writer;
  private final GrowableBytes record;

  private byte[] unescaped = new byte[256];
  private char[] scratchChars = new char[64]; // a field's chars for the reference parser

  /** The value just parsed by a fast parser (a long, an unscaled decimal, an epoch day). */
  private long parsed;

  private String errorColumn;
  private String errorValue;
  private String errorReason;

  /** A value that parsed but that its column cannot hold; reported after every value parsed. */
  private IdxkitException encodeError;

  private CsvDirectParser(CsvLayout layout, RecordLayout recordLayout) {
    this.columns = layout.table().columns().toArray(new ColumnDef[0]);
    this.kinds = new TypeKind[columns.length];
    for (int i = 0; i < columns.length; i++) {
      kinds[i] = columns[i].type().kind();
    }
    this.fieldColumns = layout.fieldColumns();
    this.quote = (byte) layout.options().quote();
    this.split = new CsvFieldSplitter((byte) layout.options().delimiter(), quote);
    String marker = layout.options().nullMarker();
    this.nullMarker = marker == null ? null : marker.getBytes(StandardCharsets.UTF_8);
    this.writer = recordLayout.writer();
    this.record = new GrowableBytes(recordLayout.minLength() + 256);
  }

  /**
   * A parser for the chunks of one file, or null if its options need fastcsv (a delimiter or quote
   * outside ASCII, whose bytes would not be one char).
   */
  static CsvDirectParser create(CsvLayout layout, RecordLayout recordLayout) {
    char d = layout.options().delimiter();
    char q = layout.options().quote();
    if (d >= 0x80 || q >= 0x80 || d == '\r' || d == '\n' || q == '\r' || q == '\n') {
      return null;
    }
    return new CsvDirectParser(layout, recordLayout);
  }

  /** Splits each record into the fields {@link #encode} reads. */
  CsvFieldSplitter splitter() {
    return split;
  }

  /**
   * Encodes the fields of the last {@link CsvFieldSplitter#split} of {@code d} into {@link
   * #record()}; false if a value is bad ({@link #errorReason()} says why, for the reject). A record
   * the layout cannot hold throws the layout's {@link IdxkitException}.
   */
  boolean encode(byte[] d) {
    errorColumn = null;
    errorValue = null;
    errorReason = null;
    encodeError = null;
    writer.begin();
    int n = Math.min(split.fields(), fieldColumns.length);
    for (int f = 0; f < n; f++) {
      int c = fieldColumns[f];
      byte[] src = d;
      int s = split.fieldStart(f);
      int e = split.fieldEnd(f);
      int kind = split.fieldKind(f);
      if (kind == CsvFieldSplitter.ESCAPED) {
        e = unescape(d, s, e);
        s = 0;
        src = unescaped;
      }
      if (kind == CsvFieldSplitter.PLAIN && isNull(src, s, e)) {
        if (!columns[c].nullable() && !slow(c, src, s, e, true)) {
          return false;
        }
        continue; // a column not set is NULL
      }
      if (!fast(c, src, s, e) && !slow(c, src, s, e, false)) {
        return false;
      }
    }
    if (encodeError != null) {
      throw encodeError;
    }
    writer.finish(record);
    return true;
  }

  /** The record of the last successful {@link #encode}: {@code array()[0, length())}. */
  GrowableBytes record() {
    return record;
  }

  String errorColumn() {
    return errorColumn;
  }

  String errorValue() {
    return errorValue;
  }

  String errorReason() {
    return errorReason;
  }

  private boolean isNull(byte[] b, int s, int e) {
    if (nullMarker == null) {
      return s == e;
    }
    if (e - s != nullMarker.length) {
      return false;
    }
    for (int i = 0; i < nullMarker.length; i++) {
      if (b[s + i] != nullMarker[i]) {
        return false;
      }
    }
    return true;
  }

  /** Copies a quoted field's content into {@link #unescaped}, each doubled quote as one. */
  private int unescape(byte[] d, int s, int e) {
    if (unescaped.length < e - s) {
      unescaped = new byte[Math.max(e - s, unescaped.length * 2)];
    }
    int n = 0;
    for (int i = s; i < e; i++) {
      unescaped[n++] = d[i];
      if (d[i] == quote) {
        i++; // the second quote of the pair
      }
    }
    return n;
  }

  /** Converts a plain form of a valid value into the writer; false to leave it to {@link #slow}. */
  private boolean fast(int c, byte[] b, int s, int e) {
    switch (kinds[c]) {
      case BIGINT:
        if (!parseLong(b, s, e)) {
          return false;
        }
        writer.setLong(c, parsed);
        return true;
      case INT:
        if (!parseLong(b, s, e) || parsed < Integer.MIN_VALUE || parsed > Integer.MAX_VALUE) {
          return false;
        }
        writer.setInt(c, (int) parsed);
        return true;
      case SMALLINT:
        if (!parseLong(b, s, e) || parsed < Short.MIN_VALUE || parsed > Short.MAX_VALUE) {
          return false;
        }
        writer.setShort(c, (short) parsed);
        return true;
      case DECIMAL:
        if (!parseDecimal(columns[c].type(), b, s, e)) {
          return false;
        }
        writer.setDecimal(c, parsed);
        return true;
      case DATE:
        if (!parseDate(b, s, e)) {
          return false;
        }
        writer.setEpochDay(c, (int) parsed);
        return true;
      case VARCHAR:
      case TEXT:
        int max = columns[c].type().length();
        if (max > 0 && e - s > max && codePoints(b, s, e) > max) {
          return false; // too long: the slow path words the error
        }
        writer.setBytes(c, b, s, e - s); // the scanner checked the UTF-8
        return true;
      default:
        return false;
    }
  }

  /**
   * The reference path: the field as chars, through {@link Values}, as {@link CsvRowHandler} does.
   *
   * @param asNull the field is the NULL marker: {@link Values#coerce} decides
   */
  private boolean slow(int c, byte[] b, int s, int e, boolean asNull) {
    ColumnDef col = columns[c];
    int n = toChars(b, s, e);
    Object v;
    try {
      v = asNull ? Values.coerce(col, null) : Values.parse(col, scratchChars, 0, n);
    } catch (InvalidValueException ex) {
      errorColumn = col.name();
      errorValue = new String(scratchChars, 0, n);
      errorReason = ex.reason();
      return false;
    }
    try {
      writer.set(c, v);
    } catch (IdxkitException ex) {
      // As on fastcsv's path, where every value is parsed before the record is encoded: a later
      // bad value is the reject's reason, else this.
      if (encodeError == null) {
        encodeError = ex;
      }
    }
    return true;
  }

  /**
   * Decodes the UTF-8 {@code b[s, e)} into {@link #scratchChars}; returns the char count. Columns
   * the fast path never converts (DOUBLE, TIMESTAMP, BOOLEAN, ...) come here for every value, so
   * ASCII, the usual case, is widened in place without a String.
   */
  private int toChars(byte[] b, int s, int e) {
    int n = e - s;
    if (scratchChars.length < n) {
      scratchChars = new char[Math.max(n, scratchChars.length * 2)];
    }
    for (int i = 0; i < n; i++) {
      byte x = b[s + i];
      if (x < 0) {
        String text = new String(b, s, n, StandardCharsets.UTF_8);
        text.getChars(0, text.length(), scratchChars, 0); // UTF-16 is never longer than UTF-8
        return text.length();
      }
      scratchChars[i] = (char) x;
    }
    return n;
  }

  /** {@code -?d{1,18}} into {@link #parsed}. */
  private boolean parseLong(byte[] b, int s, int e) {
    boolean negative = s < e && b[s] == '-';
    int i = negative ? s + 1 : s;
    int digits = e - i;
    if (digits < 1 || digits > 18) {
      return false;
    }
    long acc = 0;
    for (; i < e; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return false;
      }
      acc = acc * 10 + d;
    }
    parsed = negative ? -acc : acc;
    return true;
  }

  /**
   * {@code -?d*[.d*]} with at least one digit, at most 18 significant digits and at most the
   * column's scale after the point, fitting its precision (at most 18), as an unscaled value.
   */
  private boolean parseDecimal(ColumnType type, byte[] b, int s, int e) {
    int precision = type.precision();
    int scale = type.scale();
    if (precision > 18) {
      return false;
    }
    boolean negative = s < e && b[s] == '-';
    int i = negative ? s + 1 : s;
    long unscaled = 0;
    int significant = 0;
    int fraction = 0;
    boolean point = false;
    boolean anyDigit = false;
    for (; i < e; i++) {
      int d = b[i] - '0';
      if (d >= 0 && d <= 9) {
        anyDigit = true;
        if (point && ++fraction > scale) {
          return false;
        }
        if ((unscaled != 0 || d != 0) && ++significant > 18) {
          return false;
        }
        unscaled = unscaled * 10 + d;
      } else if (b[i] == '.' && !point) {
        point = true;
      } else {
        return false;
      }
    }
    if (!anyDigit) {
      return false;
    }
    int pad = scale - fraction;
    if (unscaled != 0) {
      if (significant + pad > 18) {
        return false;
      }
      unscaled *= POW10[pad];
      if (unscaled >= POW10[precision]) {
        return false;
      }
    }
    parsed = negative ? -unscaled : unscaled;
    return true;
  }

  /** {@code yyyy-MM-dd} with a day that exists, as days since 1970-01-01. */
  private boolean parseDate(byte[] b, int s, int e) {
    if (e - s != 10 || b[s + 4] != '-' || b[s + 7] != '-') {
      return false;
    }
    int year = 0;
    for (int i = s; i < s + 4; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return false;
      }
      year = year * 10 + d;
    }
    int m1 = b[s + 5] - '0';
    int m2 = b[s + 6] - '0';
    int d1 = b[s + 8] - '0';
    int d2 = b[s + 9] - '0';
    if (m1 < 0 || m1 > 9 || m2 < 0 || m2 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) {
      return false;
    }
    int month = m1 * 10 + m2;
    int day = d1 * 10 + d2;
    if (month < 1 || month > 12 || day < 1 || (day > 28 && day > monthLength(year, month))) {
      return false;
    }
    parsed = epochDay(year, month, day);
    return true;
  }

  private static boolean isLeap(long year) {
    return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
  }

  private static int monthLength(int year, int month) {
    return switch (month) {
      case 2 -> isLeap(year) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }

  /** {@code LocalDate.of(year, month, day).toEpochDay()} for years 0..9999, without the object. */
  static long epochDay(int year, int month, int day) {
    long y = year;
    long total = 365 * y + (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400;
    total += (367L * month - 362) / 12;
    total += day - 1;
    if (month > 2) {
      total--;
      if (!isLeap(year)) {
        total--;
      }
    }
    return total - DAYS_0000_TO_1970;
  }

  /** Code points in valid UTF-8: every byte that is not a continuation byte starts one. */
  private static int codePoints(byte[] b, int s, int e) {
    int n = 0;
    for (int i = s; i < e; i++) {
      if ((b[i] & 0xC0) != 0x80) {
        n++;
      }
    }
    return n;
  }
}
