package dev.idxkit.core.spi;

import dev.idxkit.core.internal.key.ColumnValues;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.SplittableRandom;

/**
 * Random column types and values for property tests, biased towards the values that break
 * encodings: extremes, zeros of both signs, NaNs, infinities, strings with U+0000 and supplementary
 * characters, strings that are prefixes of each other, decimals at their precision limit, dates at
 * the ends of the supported range. Small alphabets make ties and shared prefixes common, so
 * composite-key ordering is exercised past the first column.
 */
public final class RandomValues {
  private static final int[] CODE_POINTS = {
    0x00, 0x01, 'a', 'b', 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x1F600,
    0x10FFFF
  };
  private static final byte[] BYTES = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};
  private static final double[] DOUBLES = {
    Double.NEGATIVE_INFINITY,
    -Double.MAX_VALUE,
    -1.5,
    -Double.MIN_NORMAL,
    -Double.MIN_VALUE,
    -0.0,
    0.0,
    Double.MIN_VALUE,
    Double.MIN_NORMAL,
    1.0,
    1.5,
    Double.MAX_VALUE,
    Double.POSITIVE_INFINITY,
    Double.NaN,
    Double.longBitsToDouble(0x7FF0_0000_0000_0001L), // a signalling NaN
    Double.longBitsToDouble(0xFFF8_0000_0000_0000L), // a NaN with the sign bit set
  };

  private final SplittableRandom rnd;

  public RandomValues(SplittableRandom rnd) {
    this.rnd = rnd;
  }

  public SplittableRandom random() {
    return rnd;
  }

  public ColumnType type() {
    TypeKind kind = TypeKind.values()[rnd.nextInt(TypeKind.values().length)];
    switch (kind) {
      case DECIMAL:
        int p = rnd.nextBoolean() ? 1 + rnd.nextInt(18) : 1 + rnd.nextInt(38);
        return ColumnType.decimal(p, rnd.nextInt(p + 1));
      case VARCHAR:
        return ColumnType.varchar(rnd.nextInt(3) * 10);
      case VARBINARY:
        return ColumnType.varbinary(rnd.nextInt(3) * 10);
      default:
        return ColumnType.of(kind);
    }
  }

  /** A value of {@code type}, NULL with probability {@code nullChance}. */
  public Object value(ColumnType type, double nullChance) {
    if (rnd.nextDouble() < nullChance) {
      return null;
    }
    switch (type.kind()) {
      case BIGINT:
        return pick(
            Long.MIN_VALUE,
            Long.MIN_VALUE + 1,
            -1L,
            0L,
            1L,
            Long.MAX_VALUE - 1,
            Long.MAX_VALUE,
            rnd.nextLong(),
            (long) rnd.nextInt(-3, 4));
      case INT:
        return pick(
            Integer.MIN_VALUE,
            Integer.MIN_VALUE + 1,
            -1,
            0,
            1,
            Integer.MAX_VALUE,
            rnd.nextInt(),
            rnd.nextInt(-3, 4));
      case SMALLINT:
        return (short)
            (int)
                pick(
                    (int) Short.MIN_VALUE,
                    -1,
                    0,
                    1,
                    (int) Short.MAX_VALUE,
                    rnd.nextInt(-3, 4),
                    rnd.nextInt(Short.MIN_VALUE, Short.MAX_VALUE + 1));
      case DOUBLE:
        return rnd.nextInt(4) == 0
            ? Double.longBitsToDouble(rnd.nextLong())
            : DOUBLES[rnd.nextInt(DOUBLES.length)];
      case DECIMAL:
        return decimal(type);
      case VARCHAR:
      case TEXT:
        return string(rnd.nextInt(5));
      case DATE:
        return pick(
            ColumnValues.MIN_DATE,
            ColumnValues.MAX_DATE,
            LocalDate.EPOCH,
            LocalDate.EPOCH.minusDays(1),
            LocalDate.of(-4000, 1, 1),
            LocalDate.of(9999, 12, 31),
            LocalDate.ofEpochDay(rnd.nextInt()),
            LocalDate.ofEpochDay(rnd.nextInt(-3, 4)));
      case TIMESTAMP:
        return pick(
            ColumnValues.MIN_TIMESTAMP,
            ColumnValues.MAX_TIMESTAMP,
            ColumnValues.timestamp(0),
            ColumnValues.timestamp(-1),
            ColumnValues.timestamp(1),
            ColumnValues.timestamp(rnd.nextLong()),
            ColumnValues.timestamp(rnd.nextLong(-2_000_000, 2_000_000)));
      case BOOLEAN:
        return rnd.nextBoolean();
      case VARBINARY:
        byte[] b = new byte[rnd.nextInt(5)];
        for (int i = 0; i < b.length; i++) {
          b[i] = BYTES[rnd.nextInt(BYTES.length)];
        }
        return b;
      default:
        throw new IllegalStateException(type.toString());
    }
  }

  /** A string of {@code n} code points from a small alphabet of awkward ones. */
  public String string(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(CODE_POINTS[rnd.nextInt(CODE_POINTS.length)]);
    }
    return sb.toString();
  }

  /** A long string (for overflow records) of mostly ASCII with some awkward code points. */
  public String longString(int n) {
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(
          rnd.nextInt(16) == 0 ? CODE_POINTS[rnd.nextInt(CODE_POINTS.length)] : 'a' + i % 26);
    }
    return sb.toString();
  }

  private BigDecimal decimal(ColumnType type) {
    BigInteger max = BigInteger.TEN.pow(type.precision()).subtract(BigInteger.ONE);
    BigInteger unscaled;
    switch (rnd.nextInt(6)) {
      case 0:
        unscaled = max;
        break;
      case 1:
        unscaled = max.negate();
        break;
      case 2:
        unscaled = BigInteger.valueOf(rnd.nextInt(-3, 4));
        break;
      default:
        int digits = 1 + rnd.nextInt(type.precision());
        unscaled = new BigInteger(digits * 4, new java.util.Random(rnd.nextLong()));
        if (unscaled.compareTo(max) > 0) {
          unscaled = unscaled.mod(max.add(BigInteger.ONE));
        }
        if (rnd.nextBoolean()) {
          unscaled = unscaled.negate();
        }
    }
    return new BigDecimal(unscaled, type.scale());
  }

  @SafeVarargs
  private <T> T pick(T... choices) {
    return choices[rnd.nextInt(choices.length)];
  }

  /** The value SQL considers equal that encodings give back: 0.0 for -0.0, canonical NaN. */
  public static Object normalized(Object v) {
    if (v instanceof Double d) {
      if (d.isNaN()) {
        return Double.NaN;
      }
      if (d == 0.0) {
        return 0.0;
      }
    }
    return v;
  }
}
