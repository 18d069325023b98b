package dev.idxkit.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.MalformedKeyException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.internal.key.ColumnValues;
import dev.idxkit.core.internal.key.KeyLayout;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.IndexColumn;
import dev.idxkit.core.schema.IndexDef;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Exact bytes of the key format, the values it refuses, and the helpers in {@link Keys}. */
class KeyEncoderTest {
  private static final ColumnType BIGINT = ColumnType.of(TypeKind.BIGINT);
  private static final ColumnType INT = ColumnType.of(TypeKind.INT);
  private static final ColumnType DOUBLE = ColumnType.of(TypeKind.DOUBLE);
  private static final ColumnType TEXT = ColumnType.of(TypeKind.TEXT);

  private static byte[] key(KeyLayout layout, Object... values) {
    return new KeyEncoder(layout).encode(values);
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  @Test
  void fixedWidthBytes() {
    assertThat(hex(key(KeyLayout.ascending(INT), 1))).isEqualTo("0180000001");
    assertThat(hex(key(KeyLayout.ascending(INT), -1))).isEqualTo("017fffffff");
    assertThat(hex(key(KeyLayout.ascending(BIGINT), Long.MIN_VALUE)))
        .isEqualTo("010000000000000000");
    assertThat(hex(key(KeyLayout.ascending(ColumnType.of(TypeKind.SMALLINT)), (short) 0)))
        .isEqualTo("018000");
    assertThat(hex(key(KeyLayout.ascending(ColumnType.of(TypeKind.BOOLEAN)), true)))
        .isEqualTo("0101");
    assertThat(hex(key(KeyLayout.ascending(ColumnType.of(TypeKind.DATE)), LocalDate.EPOCH)))
        .isEqualTo("0180000000");
    assertThat(hex(key(KeyLayout.ascending(ColumnType.decimal(5, 2)), new BigDecimal("-0.01"))))
        .isEqualTo("017fffffffffffffff");
    assertThat(hex(key(KeyLayout.ascending(ColumnType.decimal(20, 0)), BigDecimal.ONE)))
        .isEqualTo("0180000000000000000000000000000001");
  }

  @Test
  void nullIsOneMarkerByteAndSortsFirstInBothDirections() {
    KeyLayout asc = KeyLayout.ascending(INT, INT);
    KeyLayout desc = KeyLayout.of(List.of(new KeyLayout.Column(INT, true)));
    assertThat(hex(key(asc, null, 7))).isEqualTo("000180000007");
    assertThat(Keys.compare(key(desc, (Object) null), key(desc, Integer.MAX_VALUE))).isNegative();
    assertThat(Keys.compare(key(desc, 5), key(desc, 4))).isNegative();
  }

  @Test
  void stringsEscapeZeroAndTerminate() {
    KeyLayout layout = KeyLayout.ascending(TEXT);
    assertThat(hex(key(layout, ""))).isEqualTo("010000");
    assertThat(hex(key(layout, "a\0b"))).isEqualTo("016100ff620000");
    assertThat(hex(key(layout, "\0"))).isEqualTo("0100ff0000");
    assertThat(Keys.compare(key(layout, "a"), key(layout, "a\0"))).isNegative();
    assertThat(Keys.compare(key(layout, "a\0"), key(layout, "a\1"))).isNegative();
    assertThat(Keys.compare(key(layout, "\uFFFF"), key(layout, "\uD83D\uDE00"))).isNegative();
    KeyLayout desc = KeyLayout.of(List.of(new KeyLayout.Column(TEXT, true)));
    assertThat(Keys.compare(key(desc, "ab"), key(desc, "a"))).isNegative();
    assertThat(Keys.compare(key(desc, "a"), key(desc, ""))).isNegative();
  }

  @Test
  void doublesNormalizeZeroAndNaN() {
    KeyLayout layout = KeyLayout.ascending(DOUBLE);
    assertThat(key(layout, -0.0)).isEqualTo(key(layout, 0.0));
    assertThat(key(layout, Double.longBitsToDouble(0xFFF8_0000_0000_0001L)))
        .isEqualTo(key(layout, Double.NaN));
    assertThat(Keys.compare(key(layout, Double.POSITIVE_INFINITY), key(layout, Double.NaN)))
        .isNegative();
    assertThat(Keys.compare(key(layout, Double.NEGATIVE_INFINITY), key(layout, -Double.MAX_VALUE)))
        .isNegative();
  }

  @Test
  void wrongClassNamesColumnTypeAndClass() {
    KeyEncoder enc = new KeyEncoder(KeyLayout.ascending(INT, BIGINT));
    assertThatThrownBy(() -> enc.encode(new Object[] {1, 2}))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "key column 1 (BIGINT): an Integer where a BIGINT is expected (Java type Long)");
    assertThatThrownBy(() -> enc.encode(new Object[] {1}))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("key values : 1 (expected: 2)");
    assertThatThrownBy(() -> enc.encodePrefix(new Object[] {1, 2L, 3}))
        .hasMessage("key prefix values : 3 (expected: 0..2)");
  }

  @Test
  void valuesTheColumnCannotHoldExactlyAreRefused() {
    KeyEncoder dec = new KeyEncoder(KeyLayout.ascending(ColumnType.decimal(4, 2)));
    assertThatThrownBy(() -> dec.encode(new Object[] {new BigDecimal("1.234")}))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "key column 0 (DECIMAL(4,2)): 1.234 (expected: at most 2 digits after the point)");
    assertThatThrownBy(() -> dec.encode(new Object[] {new BigDecimal("100")}))
        .hasMessage(
            "key column 0 (DECIMAL(4,2)): 100 (expected: at most 2 digits before the point)");
    assertThat(dec.encode(new Object[] {new BigDecimal("99.990")}))
        .isEqualTo(dec.encode(new Object[] {new BigDecimal("99.99")}));

    KeyEncoder date = new KeyEncoder(KeyLayout.ascending(ColumnType.of(TypeKind.DATE)));
    assertThatThrownBy(() -> date.encode(new Object[] {LocalDate.MAX}))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("key column 0 (DATE): +999999999-12-31 (expected: -");

    KeyEncoder ts = new KeyEncoder(KeyLayout.ascending(ColumnType.of(TypeKind.TIMESTAMP)));
    assertThatThrownBy(() -> ts.encode(new Object[] {LocalDateTime.of(2020, 1, 1, 0, 0, 0, 1)}))
        .hasMessage(
            "key column 0 (TIMESTAMP): 2020-01-01T00:00:00.000000001"
                + " (expected: whole microseconds, got 1 ns)");
    assertThatThrownBy(() -> ts.encode(new Object[] {LocalDateTime.MAX.withNano(0)}))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> ts.encode(new Object[] {ColumnValues.MIN_TIMESTAMP.minusNanos(1000)}))
        .isInstanceOf(InvalidInputException.class);
    assertThat(ts.decode(ts.encode(new Object[] {ColumnValues.MIN_TIMESTAMP}), 0, 9))
        .containsExactly(ColumnValues.MIN_TIMESTAMP);

    KeyEncoder text = new KeyEncoder(KeyLayout.ascending(TEXT));
    assertThatThrownBy(() -> text.encode(new Object[] {"ab\uD800"}))
        .hasMessage(
            "key column 0 (TEXT): unpaired surrogate U+D800 at index 2"
                + " (expected: a valid UTF-16 string)");
  }

  @Test
  void failedAppendLeavesTheBufferAsItWas() {
    KeyEncoder enc = new KeyEncoder(KeyLayout.ascending(TEXT, INT));
    GrowableBytes out = new GrowableBytes(1);
    out.append(0x42);
    assertThatThrownBy(() -> enc.encode(new Object[] {"long enough to grow", "x"}, out))
        .isInstanceOf(InvalidInputException.class);
    assertThat(out.toByteArray()).containsExactly(0x42);
  }

  @Test
  void decodeRefusesMalformedKeys() {
    KeyEncoder enc = new KeyEncoder(KeyLayout.ascending(TEXT, INT));
    byte[] k = enc.encode(new Object[] {"ab", 3});
    assertThatThrownBy(() -> enc.decode(k, 0, k.length - 1))
        .isInstanceOf(MalformedKeyException.class)
        .hasMessage("malformed key at byte 6 of 9: key column 1 (INT): value cut short");
    assertThatThrownBy(() -> enc.decode(new byte[] {1, 'a', 0, 7}, 0, 4))
        .hasMessage(
            "malformed key at byte 3 of 4: key column 0 (TEXT):"
                + " 0x00 followed by 0x07 (expected: 0x00 or 0xff)");
    assertThatThrownBy(() -> enc.decode(new byte[] {2}, 0, 1))
        .hasMessage(
            "malformed key at byte 0 of 1: key column 0 (TEXT):"
                + " NULL marker 0x02 (expected: 0x00 or 0x01)");
    byte[] longer = java.util.Arrays.copyOf(k, k.length + 1);
    assertThatThrownBy(() -> enc.decode(longer, 0, longer.length))
        .hasMessage("malformed key at byte 10 of 11: 1 bytes after the last column");
  }

  @Test
  void entriesEndWithTheRid() {
    KeyEncoder enc = new KeyEncoder(KeyLayout.ascending(TEXT));
    long rid = Rid.of(123_456_789L, 4242);
    byte[] e = enc.encodeEntry(new Object[] {"k"}, rid);
    assertThat(Keys.rid(e, 0, e.length)).isEqualTo(rid);
    assertThat(enc.decode(e, 0, Keys.keyLength(e.length))).containsExactly("k");
    byte[] manual = new byte[e.length];
    System.arraycopy(e, 0, manual, 0, e.length - 8);
    Keys.putRid(manual, manual.length, rid);
    assertThat(manual).isEqualTo(e);
    assertThat(Keys.compare(enc.encodeEntry(new Object[] {"k"}, Rid.of(1, 2)), e)).isNegative();
  }

  @Test
  void successorAndPrefix8() {
    assertThat(Keys.successor(new byte[] {1, 2, (byte) 0xFF})).containsExactly(1, 3);
    assertThat(Keys.successor(new byte[] {(byte) 0xFF, (byte) 0xFF})).isNull();
    assertThat(Keys.successor(new byte[0])).isNull();
    assertThat(Keys.successor(new byte[] {0x7F})).containsExactly(0x80);
    assertThat(Keys.prefix8(new byte[] {1, 2}, 0, 2)).isEqualTo(0x0102_0000_0000_0000L);
    assertThat(Keys.prefix8(new byte[] {9, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 1, 9))
        .isEqualTo(0x0102_0304_0506_0708L);
    assertThat(
            Long.compareUnsigned(
                Keys.prefix8(new byte[] {(byte) 0x80}, 0, 1),
                Keys.prefix8(new byte[] {0x7F}, 0, 1)))
        .isPositive();
  }

  @Test
  void layoutFromSchema() {
    TableDef t =
        new TableDef(
            7,
            "t",
            List.of(
                new ColumnDef("a", INT, false),
                new ColumnDef("b", TEXT, true),
                new ColumnDef("c", DOUBLE, true)),
            1);
    IndexDef ix =
        new IndexDef(
            3, "ix", 7, List.of(new IndexColumn(2, true), new IndexColumn(0, false)), false, 2);
    KeyLayout layout = KeyLayout.of(t, ix);
    assertThat(layout.columns())
        .containsExactly(new KeyLayout.Column(DOUBLE, true), new KeyLayout.Column(INT, false));
    assertThat(layout).hasToString("(DOUBLE DESC, INT)");
    IndexDef bad = new IndexDef(4, "bad", 7, List.of(new IndexColumn(3, false)), false, 2);
    assertThatThrownBy(() -> KeyLayout.of(t, bad))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("index bad column : 3 (expected: 0..2, the columns of table t)");
    IndexDef other = new IndexDef(5, "other", 8, List.of(new IndexColumn(0, false)), false, 2);
    assertThatThrownBy(() -> KeyLayout.of(t, other))
        .hasMessage("index other : table id 8 (expected: 7, table t)");
  }

  @Test
  void bufferEscapesInPlace() {
    GrowableBytes b = new GrowableBytes(0);
    b.append(9);
    int start = b.length();
    b.append(new byte[] {0, 1, 0, 0, 2, 0}, 0, 6);
    b.escapeAndTerminate(start);
    assertThat(hex(b.toByteArray())).isEqualTo("0900ff0100ff00ff0200ff0000");
  }
}
