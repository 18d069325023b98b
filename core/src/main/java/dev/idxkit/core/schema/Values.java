package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;

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
 *
 * <h2>Where the work is</h2>
 *
 * This class is the door; each job has its own class in this package: {@link ValueCoercion} (API
 * values, and the range checks every value passes), {@link ValueParser} (text), {@link ValueFormat}
 * (canonical text, and how values are shown in messages).
 */
public final class Values {
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
    return ValueCoercion.coerce(col, v);
  }

  /**
   * Parses text as a value of the column (see the table above). {@code null} text is NULL: allowed
   * only in a nullable column.
   *
   * @throws InvalidValueException naming the column, its type and the text
   */
  public static Object parse(ColumnDef col, String text) {
    return ValueParser.parse(col, text);
  }

  /**
   * Parses {@code buf[off, off + len)} as a value of the column; the hot path of the loader. The
   * slice is read, never kept: the caller may reuse the buffer.
   *
   * @throws InvalidValueException naming the column, its type and the text
   */
  public static Object parse(ColumnDef col, char[] buf, int off, int len) {
    return ValueParser.parse(col, buf, off, len);
  }

  /**
   * The canonical text of {@code v} (see the table above), which {@link #parse(ColumnDef, String)}
   * reads back as an equal value; {@code null} for {@code null}: how a NULL is written is the
   * writer's choice (CSV, JSON).
   *
   * @throws InvalidInputException if {@code v} is not of the type's Java class
   */
  public static String format(ColumnType type, Object v) {
    return ValueFormat.format(type, v);
  }
}
