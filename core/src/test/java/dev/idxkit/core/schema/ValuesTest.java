package dev.idxkit.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.Values.InvalidValueException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** Examples of parse, coerce and format; {@link ValuesPropertiesTest} checks the round trip. */
class ValuesTest {
  static ColumnDef col(ColumnType type) {
    return new ColumnDef("c", type, true);
  }

  static ColumnDef col(TypeKind kind) {
    return col(ColumnType.of(kind));
  }

  static Object parse(ColumnType type, String text) {
    return Values.parse(col(type), text);
  }

  static Object parse(TypeKind kind, String text) {
    return Values.parse(col(kind), text);
  }

  static void rejects(TypeKind kind, String text, String messagePart) {
    rejects(ColumnType.of(kind), text, messagePart);
  }

  static void rejects(ColumnType type, String text, String messagePart) {
    assertThatThrownBy(() -> Values.parse(col(type), text))
        .as("parse %s as %s", text, type)
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("column c " + type.sql() + ": ")
        .hasMessageContaining(messagePart);
  }

  @Test
  void parsesIntegersInRange() {
    assertThat(parse(TypeKind.BIGINT, "0")).isEqualTo(0L);
    assertThat(parse(TypeKind.BIGINT, "-0")).isEqualTo(0L);
    assertThat(parse(TypeKind.BIGINT, "+17")).isEqualTo(17L);
    assertThat(parse(TypeKind.BIGINT, "007")).isEqualTo(7L);
    assertThat(parse(TypeKind.BIGINT, "9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    assertThat(parse(TypeKind.BIGINT, "-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
    assertThat(parse(TypeKind.INT, "-2147483648")).isEqualTo(Integer.MIN_VALUE);
    assertThat(parse(TypeKind.SMALLINT, "32767")).isEqualTo((short) 32767);

    rejects(TypeKind.BIGINT, "9223372036854775808", "out of range for BIGINT");
    rejects(TypeKind.BIGINT, "-9223372036854775809", "out of range");
    rejects(TypeKind.BIGINT, "99999999999999999999999", "out of range");
    rejects(TypeKind.INT, "2147483648", "\"2147483648\" is out of range for INT");
    rejects(TypeKind.SMALLINT, "-32769", "out of range for SMALLINT (-32768..32767)");
  }

  @Test
  void refusesJunkAroundIntegers() {
    rejects(TypeKind.BIGINT, "", "\"\" is not a number");
    rejects(TypeKind.BIGINT, "-", "no digits");
    rejects(TypeKind.BIGINT, " 1", "unexpected ' ' at position 1");
    rejects(TypeKind.BIGINT, "1 ", "unexpected ' ' at position 2");
    rejects(TypeKind.INT, "12x", "\"12x\" is not a whole number: unexpected 'x' at position 3");
    rejects(TypeKind.INT, "1.0", "unexpected '.'");
    rejects(TypeKind.INT, "1e3", "unexpected 'e'");
    rejects(TypeKind.BIGINT, "١٢", "unexpected"); // Arabic-Indic digits are not digits here
  }

  @Test
  void parsesDoublesIncludingSpecialValues() {
    assertThat(parse(TypeKind.DOUBLE, "1.5")).isEqualTo(1.5);
    assertThat(parse(TypeKind.DOUBLE, ".5")).isEqualTo(0.5);
    assertThat(parse(TypeKind.DOUBLE, "5.")).isEqualTo(5.0);
    assertThat(parse(TypeKind.DOUBLE, "-1E-3")).isEqualTo(-0.001);
    assertThat(parse(TypeKind.DOUBLE, "Infinity")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(parse(TypeKind.DOUBLE, "+Infinity")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(parse(TypeKind.DOUBLE, "-Infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat((Double) parse(TypeKind.DOUBLE, "NaN")).isNaN();
    double negZero = (Double) parse(TypeKind.DOUBLE, "-0.0");
    assertThat(Double.doubleToRawLongBits(negZero)).isEqualTo(Long.MIN_VALUE);

    // Double.parseDouble takes these; a column does not.
    rejects(TypeKind.DOUBLE, "0x1p3", "unexpected 'x'");
    rejects(TypeKind.DOUBLE, "1d", "unexpected 'd'");
    rejects(TypeKind.DOUBLE, " 1", "unexpected ' '");
    rejects(TypeKind.DOUBLE, "1e", "text ends too early");
    rejects(TypeKind.DOUBLE, "-NaN", "is not a number");
    rejects(TypeKind.DOUBLE, "inf", "is not a number");
    rejects(TypeKind.DOUBLE, "", "is not a number");
    rejects(TypeKind.DOUBLE, ".", "is not a number");
  }

  @Test
  void parsesDecimalsExactlyAtTheColumnScale() {
    ColumnType d102 = ColumnType.decimal(10, 2);
    assertThat(parse(d102, "12.34")).isEqualTo(new BigDecimal("12.34"));
    assertThat(parse(d102, "12.3")).isEqualTo(new BigDecimal("12.30"));
    assertThat(parse(d102, "12")).isEqualTo(new BigDecimal("12.00"));
    assertThat(parse(d102, "12.340000")).isEqualTo(new BigDecimal("12.34"));
    assertThat(parse(d102, "-.05")).isEqualTo(new BigDecimal("-0.05"));
    assertThat(parse(d102, "-0")).isEqualTo(new BigDecimal("0.00"));
    assertThat(parse(d102, "+99999999.99")).isEqualTo(new BigDecimal("99999999.99"));
    assertThat(parse(d102, "1.5e2")).isEqualTo(new BigDecimal("150.00"));
    assertThat(parse(d102, "1234E-2")).isEqualTo(new BigDecimal("12.34"));

    rejects(d102, "12.345", "\"12.345\" does not fit DECIMAL(10,2): more than 2 digits after");
    rejects(d102, "100000000", "does not fit DECIMAL(10,2): more than 8 digits before the point");
    rejects(d102, "1.2345e2", "more than 2 digits after the point");
    rejects(d102, "1e-999999999", "more than 2 digits after the point");
    rejects(d102, "1e999999999", "more than 8 digits before the point");
    rejects(d102, "1e9999999999", "is not a number");
    rejects(d102, "1.2.3", "unexpected '.' at position 4");
    rejects(d102, "", "is not a number");
    rejects(d102, "e5", "unexpected 'e'");
    rejects(d102, "1e", "text ends too early");
    rejects(d102, "12,5", "unexpected ','");
  }

  @Test
  void parsesWideDecimalsBeyondTheLongFastPath() {
    ColumnType d38 = ColumnType.decimal(38, 10);
    assertThat(parse(d38, "1234567890123456789012345678.0123456789"))
        .isEqualTo(new BigDecimal("1234567890123456789012345678.0123456789"));
    assertThat(parse(d38, "123456789012345678"))
        .isEqualTo(new BigDecimal("123456789012345678.0000000000"));
    ColumnType d380 = ColumnType.decimal(38, 0);
    String nines = "9".repeat(38);
    assertThat(parse(d380, nines)).isEqualTo(new BigDecimal(nines));
    rejects(d380, nines + "9", "more than 38 digits before the point");
    assertThat(parse(ColumnType.decimal(38, 38), "0")).isEqualTo(BigDecimal.valueOf(0, 38));
    assertThat(parse(ColumnType.decimal(18, 0), "999999999999999999"))
        .isEqualTo(new BigDecimal("999999999999999999"));
    rejects(ColumnType.decimal(18, 0), "1000000000000000000", "more than 18 digits before");
    rejects(d38, "1".repeat(1001), "too long for a number");
  }

  @Test
  void parsesDatesAndTimestamps() {
    assertThat(parse(TypeKind.DATE, "2024-02-29")).isEqualTo(LocalDate.of(2024, 2, 29));
    assertThat(parse(TypeKind.DATE, "0001-01-01")).isEqualTo(LocalDate.of(1, 1, 1));
    assertThat(parse(TypeKind.DATE, "+10000-01-01")).isEqualTo(LocalDate.of(10000, 1, 1));
    assertThat(parse(TypeKind.DATE, "-0001-12-31")).isEqualTo(LocalDate.of(-1, 12, 31));
    rejects(TypeKind.DATE, "2023-02-29", "day 29 (expected 01..28 for that month)");
    rejects(TypeKind.DATE, "2024-13-01", "month 13 (expected 01..12)");
    rejects(TypeKind.DATE, "2024-1-01", "is not a date (yyyy-MM-dd): unexpected '-' at position 7");
    rejects(TypeKind.DATE, "24-01-01", "is not a date");
    rejects(TypeKind.DATE, "2024-01-01x", "unexpected 'x' at position 11");
    rejects(TypeKind.DATE, "2024-01-01 00:00:00", "unexpected ' '");
    rejects(TypeKind.DATE, "", "text ends too early");
    rejects(TypeKind.DATE, "999999999-01-01", "outside the DATE range");

    assertThat(parse(TypeKind.TIMESTAMP, "2024-02-29 13:05:07"))
        .isEqualTo(LocalDateTime.of(2024, 2, 29, 13, 5, 7));
    assertThat(parse(TypeKind.TIMESTAMP, "2024-02-29T13:05:07.25"))
        .isEqualTo(LocalDateTime.of(2024, 2, 29, 13, 5, 7, 250_000_000));
    assertThat(parse(TypeKind.TIMESTAMP, "1969-12-31 23:59:59.999999"))
        .isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000));
    rejects(TypeKind.TIMESTAMP, "2024-02-29 13:05:07.1234567", "more than 6 fraction digits");
    rejects(TypeKind.TIMESTAMP, "2024-02-29 24:00:00", "time out of range");
    rejects(TypeKind.TIMESTAMP, "2024-02-29 13:05", "text ends too early");
    rejects(TypeKind.TIMESTAMP, "2024-02-29", "text ends too early");
    rejects(TypeKind.TIMESTAMP, "2024-02-29 13:05:07.", "text ends too early");
    rejects(TypeKind.TIMESTAMP, "2024-02-29 13:05:07Z", "unexpected 'Z'");
    rejects(TypeKind.TIMESTAMP, "300000-01-01 00:00:00", "outside the TIMESTAMP range");
  }

  @Test
  void parsesBooleansAndBinary() {
    for (String t : new String[] {"true", "TRUE", "t", "T", "1", "yes", "Yes"}) {
      assertThat(parse(TypeKind.BOOLEAN, t)).as(t).isEqualTo(true);
    }
    for (String f : new String[] {"false", "False", "f", "F", "0", "no", "NO"}) {
      assertThat(parse(TypeKind.BOOLEAN, f)).as(f).isEqualTo(false);
    }
    rejects(TypeKind.BOOLEAN, "y", "is not a boolean");
    rejects(TypeKind.BOOLEAN, "", "is not a boolean");
    rejects(TypeKind.BOOLEAN, "truth", "is not a boolean");

    assertThat((byte[]) parse(TypeKind.VARBINARY, "\\x0a0B")).containsExactly(10, 11);
    assertThat((byte[]) parse(TypeKind.VARBINARY, "0xff00")).containsExactly(-1, 0);
    assertThat((byte[]) parse(TypeKind.VARBINARY, "\\x")).isEmpty();
    rejects(TypeKind.VARBINARY, "0a0b", "is not hex binary");
    rejects(TypeKind.VARBINARY, "\\x0", "odd number of hex digits");
    rejects(TypeKind.VARBINARY, "\\x0g", "unexpected 'g' at position 4");
    rejects(ColumnType.varbinary(2), "\\x010203", "is 3 bytes, longer than VARBINARY(2)");
  }

  @Test
  void checksVarcharLengthInCodePoints() {
    ColumnType v3 = ColumnType.varchar(3);
    assertThat(parse(v3, "abc")).isEqualTo("abc");
    assertThat(parse(v3, "")).isEqualTo("");
    assertThat(parse(v3, "😀😀😀")).isEqualTo("😀😀😀"); // 6 chars, 3 code points
    rejects(v3, "abcd", "\"abcd\" is 4 characters, longer than VARCHAR(3)");
    rejects(v3, "😀😀😀😀", "is 4 characters");
    rejects(TypeKind.TEXT, "a\uD800b", "unpaired surrogate U+D800 at index 1");
    rejects(TypeKind.TEXT, "\uDC00", "unpaired surrogate U+DC00 at index 0");
    assertThat(parse(TypeKind.TEXT, "x".repeat(100_000))).asString().hasSize(100_000);
  }

  @Test
  void nullIsAllowedOnlyWhereTheColumnIsNullable() {
    assertThat(Values.parse(col(TypeKind.INT), (String) null)).isNull();
    assertThat(Values.coerce(col(TypeKind.INT), null)).isNull();
    ColumnDef notNull = new ColumnDef("l_orderkey", ColumnType.of(TypeKind.BIGINT), false);
    assertThatThrownBy(() -> Values.parse(notNull, (String) null))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("column l_orderkey BIGINT: NULL in a NOT NULL column");
    assertThatThrownBy(() -> Values.coerce(notNull, null))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("l_orderkey");
  }

  @Test
  void errorsCarryColumnTypeAndReasonSeparately() {
    ColumnDef price = new ColumnDef("price", ColumnType.decimal(10, 2), true);
    assertThatThrownBy(() -> Values.parse(price, "12.345"))
        .isInstanceOfSatisfying(
            InvalidValueException.class,
            e -> {
              assertThat(e.column()).isEqualTo("price");
              assertThat(e.type()).isEqualTo("DECIMAL(10,2)");
              assertThat(e.reason())
                  .isEqualTo(
                      "\"12.345\" does not fit DECIMAL(10,2): more than 2 digits after the point");
              assertThat(e.getMessage()).isEqualTo("column price DECIMAL(10,2): " + e.reason());
              assertThat(e.isBadInput()).isTrue();
            });
  }

  @Test
  void coercesIntegralTypesWithoutLoss() {
    ColumnDef bigint = col(TypeKind.BIGINT);
    ColumnDef int4 = col(TypeKind.INT);
    ColumnDef int2 = col(TypeKind.SMALLINT);
    assertThat(Values.coerce(bigint, 5)).isEqualTo(5L);
    assertThat(Values.coerce(bigint, (byte) -5)).isEqualTo(-5L);
    assertThat(Values.coerce(int4, 5L)).isEqualTo(5);
    assertThat(Values.coerce(int2, 5)).isEqualTo((short) 5);
    assertThat(Values.coerce(int4, new BigDecimal("5.000"))).isEqualTo(5);
    assertThat(Values.coerce(int4, new BigDecimal("1E+3"))).isEqualTo(1000);
    assertThat(Values.coerce(bigint, BigInteger.valueOf(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);

    assertThatThrownBy(() -> Values.coerce(int4, 1L << 31))
        .hasMessage("column c INT: 2147483648 is out of range for INT (-2147483648..2147483647)");
    assertThatThrownBy(() -> Values.coerce(int2, 40000)).hasMessageContaining("out of range");
    assertThatThrownBy(() -> Values.coerce(bigint, BigInteger.ONE.shiftLeft(63)))
        .hasMessageContaining("out of range for BIGINT");
    assertThatThrownBy(() -> Values.coerce(bigint, new BigDecimal("1E+999999999")))
        .hasMessageContaining("out of range");
    assertThatThrownBy(() -> Values.coerce(int4, new BigDecimal("5.5")))
        .hasMessage("column c INT: 5.5 has a fraction; INT holds whole numbers");
    assertThatThrownBy(() -> Values.coerce(int4, 5.0))
        .hasMessage("column c INT: a Double (5.0) where an INT is expected (Java type Integer)");
    assertThatThrownBy(() -> Values.coerce(int4, "5"))
        .hasMessageContaining(
            "a String (\"5\") where an INT is expected (Java type Integer; text goes through"
                + " Values.parse)");
  }

  @Test
  void coercesDoublesAndDecimals() {
    assertThat(Values.coerce(col(TypeKind.DOUBLE), 5)).isEqualTo(5.0);
    assertThat(Values.coerce(col(TypeKind.DOUBLE), new BigDecimal("0.5"))).isEqualTo(0.5);
    assertThat(Values.coerce(col(TypeKind.DOUBLE), 1.5f)).isEqualTo(1.5);

    ColumnDef d102 = col(ColumnType.decimal(10, 2));
    assertThat(Values.coerce(d102, 0.1)).isEqualTo(new BigDecimal("0.10"));
    assertThat(Values.coerce(d102, 0.1f)).isEqualTo(new BigDecimal("0.10"));
    assertThat(Values.coerce(d102, 12L)).isEqualTo(new BigDecimal("12.00"));
    assertThat(Values.coerce(d102, new BigDecimal("12.3"))).isEqualTo(new BigDecimal("12.30"));
    assertThat(Values.coerce(d102, new BigDecimal("0E+10"))).isEqualTo(new BigDecimal("0.00"));
    assertThat(Values.coerce(d102, BigInteger.TEN)).isEqualTo(new BigDecimal("10.00"));
    assertThatThrownBy(() -> Values.coerce(d102, new BigDecimal("12.345")))
        .hasMessage(
            "column c DECIMAL(10,2): 12.345 does not fit DECIMAL(10,2): more than 2 digits after"
                + " the point");
    assertThatThrownBy(() -> Values.coerce(d102, 0.123))
        .hasMessageContaining("0.123 does not fit DECIMAL(10,2)");
    assertThatThrownBy(() -> Values.coerce(d102, 1e8))
        .hasMessageContaining("more than 8 digits before the point");
    assertThatThrownBy(() -> Values.coerce(d102, Double.NaN)).hasMessageContaining("NaN");
    assertThatThrownBy(() -> Values.coerce(d102, BigInteger.ONE.shiftLeft(200)))
        .hasMessageContaining("does not fit DECIMAL(10,2)");
    assertThatThrownBy(() -> Values.coerce(d102, "1.00"))
        .hasMessageContaining("a String (")
        .hasMessageContaining("where a DECIMAL(10,2) is expected (Java type BigDecimal;");
  }

  @Test
  void coercesTheOtherTypesByClassAndRange() {
    assertThat(Values.coerce(col(ColumnType.varchar(2)), "ab")).isEqualTo("ab");
    assertThatThrownBy(() -> Values.coerce(col(ColumnType.varchar(2)), "abc"))
        .hasMessageContaining("is 3 characters, longer than VARCHAR(2)");
    assertThatThrownBy(() -> Values.coerce(col(TypeKind.TEXT), 'a'))
        .hasMessageContaining("a Character (")
        .hasMessageContaining("is expected (Java type String)");

    LocalDateTime micros = LocalDateTime.of(2024, 1, 1, 0, 0, 0, 123_456_000);
    assertThat(Values.coerce(col(TypeKind.TIMESTAMP), micros)).isSameAs(micros);
    assertThatThrownBy(() -> Values.coerce(col(TypeKind.TIMESTAMP), micros.plusNanos(1)))
        .hasMessageContaining("sub-microsecond precision (123456001 ns)");
    assertThatThrownBy(() -> Values.coerce(col(TypeKind.TIMESTAMP), LocalDateTime.MAX.withNano(0)))
        .hasMessageContaining("outside the TIMESTAMP range");
    LocalDateTime first = LocalDateTime.of(-290308, 12, 21, 19, 59, 5, 224_192_000);
    assertThat(Values.coerce(col(TypeKind.TIMESTAMP), first)).isSameAs(first); // Long.MIN_VALUE us
    assertThatThrownBy(() -> Values.coerce(col(TypeKind.TIMESTAMP), first.minusNanos(1000)))
        .hasMessageContaining("outside the TIMESTAMP range");
    assertThatThrownBy(() -> Values.coerce(col(TypeKind.DATE), LocalDate.MIN))
        .hasMessageContaining("outside the DATE range");
    assertThatThrownBy(() -> Values.coerce(col(TypeKind.DATE), micros))
        .hasMessageContaining("(Java type LocalDate");

    assertThat(Values.coerce(col(TypeKind.BOOLEAN), true)).isEqualTo(true);
    assertThatThrownBy(() -> Values.coerce(col(TypeKind.BOOLEAN), 1))
        .hasMessageContaining("an Integer (1) where a BOOLEAN is expected (Java type Boolean)");
    byte[] bytes = {1, 2, 3};
    assertThat(Values.coerce(col(TypeKind.VARBINARY), bytes)).isSameAs(bytes);
    assertThatThrownBy(() -> Values.coerce(col(ColumnType.varbinary(2)), bytes))
        .hasMessageContaining("\\x010203 is 3 bytes, longer than VARBINARY(2)");
  }

  @Test
  void formatsCanonicalText() {
    assertThat(Values.format(ColumnType.decimal(10, 2), new BigDecimal("12.30")))
        .isEqualTo("12.30");
    assertThat(Values.format(ColumnType.decimal(38, 0), new BigDecimal("1E+20")))
        .isEqualTo("100000000000000000000");
    assertThat(Values.format(ColumnType.of(TypeKind.DOUBLE), -0.0)).isEqualTo("-0.0");
    assertThat(Values.format(ColumnType.of(TypeKind.DOUBLE), Double.NaN)).isEqualTo("NaN");
    assertThat(Values.format(ColumnType.of(TypeKind.SMALLINT), (short) -3)).isEqualTo("-3");
    assertThat(Values.format(ColumnType.of(TypeKind.DATE), LocalDate.of(10000, 1, 1)))
        .isEqualTo("+10000-01-01");
    assertThat(
            Values.format(
                ColumnType.of(TypeKind.TIMESTAMP),
                LocalDateTime.of(2024, 2, 29, 13, 5, 7, 250_000_000)))
        .isEqualTo("2024-02-29 13:05:07.25");
    assertThat(
            Values.format(ColumnType.of(TypeKind.TIMESTAMP), LocalDateTime.of(2024, 2, 29, 0, 0)))
        .isEqualTo("2024-02-29 00:00:00");
    assertThat(Values.format(ColumnType.of(TypeKind.VARBINARY), new byte[] {10, -1}))
        .isEqualTo("\\x0aff");
    assertThat(Values.format(ColumnType.of(TypeKind.BOOLEAN), false)).isEqualTo("false");
    assertThat(Values.format(ColumnType.of(TypeKind.INT), null)).isNull();
    assertThatThrownBy(() -> Values.format(ColumnType.of(TypeKind.INT), 5L))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("cannot format a Long (5) as INT (Java type Integer)");
  }

  @Test
  void parsesFromACharSliceWithoutTouchingTheRest() {
    char[] buf = "xx-12345yy".toCharArray();
    assertThat(Values.parse(col(TypeKind.BIGINT), buf, 2, 6)).isEqualTo(-12345L);
    assertThat(Values.parse(col(ColumnType.decimal(7, 2)), buf, 3, 3))
        .isEqualTo(new BigDecimal("123.00"));
    assertThat(Values.parse(col(TypeKind.TEXT), buf, 0, 2)).isEqualTo("xx");
  }
}
