package dev.idxkit.core.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code parse(format(v))} equals {@code v} for every type, and {@code coerce} accepts what parse
 * returns unchanged. Cases come from seeded generators that favour the ends of each range (as a
 * property-testing library's edge cases would); a failure names the case, its number and the seed,
 * with the command that replays it ({@code -Dtests.seed=N}).
 */
class ValuesPropertiesTest {
  /** Cases per property run: as many as the jqwik properties these replace ran. */
  private static final int ROUND_TRIP_CASES = 2000;

  private static final int EDGE_TIMESTAMP_CASES = 200;

  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());

  /** A column type and a value of it. */
  record Case(ColumnType type, Object value) {
    @Override
    public String toString() {
      return type + " " + (value instanceof byte[] b ? Arrays.toString(b) : value);
    }
  }

  @Test
  void parseOfFormatIsTheValue() {
    SplittableRandom rnd = Seeds.random(seed);
    for (int i = 0; i < ROUND_TRIP_CASES; i++) {
      Case c = nextCase(rnd);
      String where = "case " + i + ": " + c + "; " + repro;
      ColumnDef col = new ColumnDef("c", c.type(), false);
      String text = Values.format(c.type(), c.value());
      Object back = Values.parse(col, text);
      assertThat(back).as("text %s; %s", text, where).isInstanceOf(c.type().kind().javaClass());
      if (c.value() instanceof byte[] b) {
        assertThat((byte[]) back).as(where).isEqualTo(b);
      } else if (c.value() instanceof Double d) {
        // Compare bits: tells -0.0 from 0.0; doubleToLongBits folds every NaN into one.
        assertThat(Double.doubleToLongBits((Double) back))
            .as(where)
            .isEqualTo(Double.doubleToLongBits(d));
      } else {
        assertThat(back).as(where).isEqualTo(c.value());
      }
      // Text through the char[] path at an offset gives the same.
      char[] padded = ("##" + text + "##").toCharArray();
      Object sliced = Values.parse(col, padded, 2, text.length());
      assertThat(Values.format(c.type(), sliced)).as(where).isEqualTo(text);
      // And a parsed value needs no further coercion.
      assertThat(Values.coerce(col, back)).as(where).isSameAs(back);
    }
  }

  @Test
  void timestampsAtTheEndsOfTheRangeRoundTrip() {
    SplittableRandom rnd = Seeds.random(seed);
    ColumnDef col = new ColumnDef("t", ColumnType.of(TypeKind.TIMESTAMP), true);
    for (int i = 0; i < EDGE_TIMESTAMP_CASES; i++) {
      // Within 10 s of either end of the micros range, the ends themselves included.
      long offset = i < 2 ? 0 : rnd.nextLong(10_000_001L);
      long micros = i % 2 == 0 ? Long.MIN_VALUE + offset : Long.MAX_VALUE - offset;
      LocalDateTime t = timestamp(micros);
      assertThat(Values.parse(col, Values.format(col.type(), t)))
          .as("micros %d; %s", micros, repro)
          .isEqualTo(t);
    }
  }

  /** One case of a type drawn uniformly from the eleven kinds of case. */
  static Case nextCase(SplittableRandom rnd) {
    switch (rnd.nextInt(11)) {
      case 0:
        return new Case(ColumnType.of(TypeKind.BIGINT), anyLong(rnd));
      case 1:
        return new Case(
            ColumnType.of(TypeKind.INT), (int) anyLong(rnd, Integer.MIN_VALUE, Integer.MAX_VALUE));
      case 2:
        return new Case(
            ColumnType.of(TypeKind.SMALLINT),
            (short) anyLong(rnd, Short.MIN_VALUE, Short.MAX_VALUE));
      case 3:
        return new Case(ColumnType.of(TypeKind.DOUBLE), anyDouble(rnd));
      case 4:
        return decimal(rnd);
      case 5:
        return new Case(ColumnType.of(TypeKind.TEXT), string(rnd));
      case 6:
        {
          String v = string(rnd);
          return new Case(ColumnType.varchar(Math.max(1, v.codePointCount(0, v.length()))), v);
        }
      case 7:
        return new Case(
            ColumnType.of(TypeKind.DATE),
            LocalDate.ofEpochDay(anyLong(rnd, Integer.MIN_VALUE, Integer.MAX_VALUE)));
      case 8:
        return new Case(ColumnType.of(TypeKind.TIMESTAMP), timestamp(anyLong(rnd)));
      case 9:
        return new Case(ColumnType.of(TypeKind.BOOLEAN), rnd.nextBoolean());
      default:
        {
          byte[] v = new byte[rnd.nextInt(41)];
          for (int i = 0; i < v.length; i++) {
            v[i] = (byte) rnd.nextInt(256);
          }
          return new Case(ColumnType.of(TypeKind.VARBINARY), v);
        }
    }
  }

  static long anyLong(SplittableRandom rnd) {
    return anyLong(rnd, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * A value in {@code [min, max]}: one time in eight an end of the range or a neighbour of it or of
   * zero, one in four a small value, else uniform over the whole range.
   */
  static long anyLong(SplittableRandom rnd, long min, long max) {
    int pick = rnd.nextInt(8);
    if (pick == 0) {
      long[] edges = {min, min + 1, max - 1, max, 0, 1, -1};
      return Math.max(min, Math.min(max, edges[rnd.nextInt(edges.length)]));
    }
    if (pick <= 2) {
      return Math.max(min, Math.min(max, rnd.nextLong(-1000, 1001)));
    }
    if (min == Long.MIN_VALUE && max == Long.MAX_VALUE) {
      return rnd.nextLong();
    }
    return rnd.nextLong(min, max + 1);
  }

  /**
   * Every bit pattern (so NaN payloads, subnormals, -0.0 and infinities all come up), the named
   * special values, and ordinary doubles of every magnitude.
   */
  static double anyDouble(SplittableRandom rnd) {
    switch (rnd.nextInt(3)) {
      case 0:
        return Double.longBitsToDouble(rnd.nextLong());
      case 1:
        {
          double[] specials = {
            -0.0,
            0.0,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE,
            Double.MAX_VALUE,
            -Double.MIN_NORMAL
          };
          return specials[rnd.nextInt(specials.length)];
        }
      default:
        {
          // A decimal-looking double: a few significant digits at a scale of 10^-20..10^20.
          double v = rnd.nextLong(-1_000_000L, 1_000_001L) / 1000.0;
          return v * Math.pow(10, rnd.nextInt(-20, 21));
        }
    }
  }

  /** Unscaled values of up to the precision's digits, at every precision and scale. */
  static Case decimal(SplittableRandom rnd) {
    int p = rnd.nextInt(1, ColumnType.MAX_DECIMAL_PRECISION + 1);
    int s = rnd.nextInt(0, p + 1);
    int n = rnd.nextInt(1, p + 1);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append((char) ('0' + rnd.nextInt(10)));
    }
    BigInteger unscaled = new BigInteger(sb.toString());
    if (rnd.nextBoolean()) {
      unscaled = unscaled.negate();
    }
    return new Case(ColumnType.decimal(p, s), new BigDecimal(unscaled, s));
  }

  /**
   * Up to 30 valid code points (supplementary ones too), empty string included; no lone surrogates.
   * Characters CSV and the parsers treat specially come up often.
   */
  static String string(SplittableRandom rnd) {
    int n = rnd.nextInt(31);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int cp;
      switch (rnd.nextInt(4)) {
        case 0:
          cp = rnd.nextInt(0, 0x80);
          break;
        case 1:
          cp = rnd.nextInt(0x80, 0xD800);
          break;
        case 2:
          cp = rnd.nextInt(0xE000, 0x110000);
          break;
        default:
          {
            int[] special = {',', '"', '\n', '\r', 0x1F600, 0};
            cp = special[rnd.nextInt(special.length)];
          }
      }
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  private static LocalDateTime timestamp(long micros) {
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L),
        (int) Math.floorMod(micros, 1_000_000L) * 1000,
        ZoneOffset.UTC);
  }
}
