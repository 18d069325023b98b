package dev.idxkit.core.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * {@code parse(format(v))} equals {@code v} for every type, and {@code coerce} accepts what parse
 * returns unchanged. jqwik prints the seed of a failing run; rerun with {@code
 * -Djqwik.seeds.whenfixed=...} or the {@code @Property(seed = ...)} it reports.
 */
class ValuesPropertiesTest {

  /** A column type and a value of it. */
  record Case(ColumnType type, Object value) {
    @Override
    public String toString() {
      return type + " " + (value instanceof byte[] b ? java.util.Arrays.toString(b) : value);
    }
  }

  @Property(tries = 2000)
  void parseOfFormatIsTheValue(@ForAll("cases") Case c) {
    ColumnDef col = new ColumnDef("c", c.type(), false);
    String text = Values.format(c.type(), c.value());
    Object back = Values.parse(col, text);
    assertThat(back).as("text %s", text).isInstanceOf(c.type().kind().javaClass());
    if (c.value() instanceof byte[] b) {
      assertThat((byte[]) back).isEqualTo(b);
    } else if (c.value() instanceof Double d) {
      // Compare bits: tells -0.0 from 0.0; doubleToLongBits folds every NaN into one.
      assertThat(Double.doubleToLongBits((Double) back)).isEqualTo(Double.doubleToLongBits(d));
    } else {
      assertThat(back).isEqualTo(c.value());
    }
    // Text through the char[] path at an offset gives the same.
    char[] padded = ("##" + text + "##").toCharArray();
    Object sliced = Values.parse(col, padded, 2, text.length());
    assertThat(Values.format(c.type(), sliced)).isEqualTo(text);
    // And a parsed value needs no further coercion.
    assertThat(Values.coerce(col, back)).isSameAs(back);
  }

  @Provide
  Arbitrary<Case> cases() {
    return Arbitraries.oneOf(
        List.of(
            Arbitraries.longs().map(v -> new Case(ColumnType.of(TypeKind.BIGINT), v)),
            Arbitraries.integers().map(v -> new Case(ColumnType.of(TypeKind.INT), v)),
            Arbitraries.shorts().map(v -> new Case(ColumnType.of(TypeKind.SMALLINT), v)),
            doubles().map(v -> new Case(ColumnType.of(TypeKind.DOUBLE), v)),
            decimals(),
            strings().map(v -> new Case(ColumnType.of(TypeKind.TEXT), v)),
            strings()
                .map(
                    v ->
                        new Case(
                            ColumnType.varchar(Math.max(1, v.codePointCount(0, v.length()))), v)),
            Arbitraries.integers()
                .map(day -> new Case(ColumnType.of(TypeKind.DATE), LocalDate.ofEpochDay(day))),
            Arbitraries.longs()
                .map(micros -> new Case(ColumnType.of(TypeKind.TIMESTAMP), timestamp(micros))),
            Arbitraries.of(true, false).map(v -> new Case(ColumnType.of(TypeKind.BOOLEAN), v)),
            Arbitraries.bytes()
                .array(byte[].class)
                .ofMaxSize(40)
                .map(v -> new Case(ColumnType.of(TypeKind.VARBINARY), v))));
  }

  /** Every bit pattern, so NaN payloads, subnormals, -0.0 and infinities all come up. */
  private static Arbitrary<Double> doubles() {
    return Arbitraries.oneOf(
        List.of(
            Arbitraries.longs().map(Double::longBitsToDouble),
            Arbitraries.of(
                -0.0,
                0.0,
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE,
                Double.MAX_VALUE,
                -Double.MIN_NORMAL),
            Arbitraries.doubles()));
  }

  /** Unscaled values of up to the precision's digits, at every precision and scale. */
  private static Arbitrary<Case> decimals() {
    Arbitrary<Tuple.Tuple2<Integer, Integer>> precisionScale =
        Arbitraries.integers()
            .between(1, ColumnType.MAX_DECIMAL_PRECISION)
            .flatMap(p -> Arbitraries.integers().between(0, p).map(s -> Tuple.of(p, s)));
    return precisionScale.flatMap(
        ps -> {
          int p = ps.get1();
          int s = ps.get2();
          Arbitrary<Integer> digits = Arbitraries.integers().between(1, p);
          return Combinators.combine(digits, Arbitraries.longs(), Arbitraries.of(1, -1))
              .as(
                  (n, seed, sign) -> {
                    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
                    StringBuilder sb = new StringBuilder();
                    for (int i = 0; i < n; i++) {
                      sb.append((char) ('0' + r.nextInt(10)));
                    }
                    BigInteger unscaled = new BigInteger(sb.toString());
                    if (sign < 0) {
                      unscaled = unscaled.negate();
                    }
                    return new Case(ColumnType.decimal(p, s), new BigDecimal(unscaled, s));
                  });
        });
  }

  /** Any valid code points (supplementary ones too), empty string included; no lone surrogates. */
  private static Arbitrary<String> strings() {
    Arbitrary<Integer> codePoint =
        Arbitraries.oneOf(
            List.of(
                Arbitraries.integers().between(0, 0x7F),
                Arbitraries.integers().between(0x80, 0xD7FF),
                Arbitraries.integers().between(0xE000, 0x10FFFF),
                Arbitraries.of((int) ',', (int) '"', (int) '\n', (int) '\r', 0x1F600, 0)));
    return codePoint
        .list()
        .ofMaxSize(30)
        .map(
            cps -> {
              StringBuilder sb = new StringBuilder();
              cps.forEach(sb::appendCodePoint);
              return sb.toString();
            });
  }

  @Property(tries = 200)
  void timestampsAtTheEndsOfTheRangeRoundTrip(@ForAll("edgeMicros") long micros) {
    ColumnDef col = new ColumnDef("t", ColumnType.of(TypeKind.TIMESTAMP), true);
    LocalDateTime t = timestamp(micros);
    assertThat(Values.parse(col, Values.format(col.type(), t))).isEqualTo(t);
  }

  @Provide
  Arbitrary<Long> edgeMicros() {
    return Arbitraries.oneOf(
        List.of(
            Arbitraries.longs().between(Long.MIN_VALUE, Long.MIN_VALUE + 10_000_000L),
            Arbitraries.longs().between(Long.MAX_VALUE - 10_000_000L, Long.MAX_VALUE)));
  }

  private static LocalDateTime timestamp(long micros) {
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L),
        (int) Math.floorMod(micros, 1_000_000L) * 1000,
        ZoneOffset.UTC);
  }
}
