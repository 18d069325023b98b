package dev.idxkit.core.spi;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.MalformedKeyException;
import dev.idxkit.core.internal.key.ColumnValues;
import dev.idxkit.core.internal.key.KeyLayout;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;

/**
 * Encodes index keys into bytes whose unsigned lexicographic order (memcmp) is the SQL order of the
 * values, so that sort, merge and B+tree search compare keys with one byte compare and never look
 * at types again. Decoding is for display and checks only.
 *
 * <p>Call order: build one encoder per {@link KeyLayout} and thread, then {@link #encode} (or
 * {@link #encodePrefix} for the leading columns of a range bound) per key. Not thread-safe: it
 * keeps a scratch buffer.
 *
 * <h2>Format (version {@value #FORMAT_VERSION})</h2>
 *
 * A key is its columns' encodings concatenated. Each column is self-delimiting, so the order of the
 * concatenation is the order of the first column, then the second, and so on.
 *
 * <pre>
 *  +--------+---------------------------+--------+-------------------- ...
 *  | marker | value (absent when NULL)  | marker | value
 *  +--------+---------------------------+--------+-------------------- ...
 *  marker  0x00 NULL, 0x01 a value. Never inverted, so NULL sorts first in ASC and DESC
 *          columns alike (PostgreSQL's NULLS FIRST for both; its default is NULLS LAST for
 *          ASC, ours is the same in both directions so that a NULL lookup is one prefix).
 *
 *  kind       value bytes (big-endian)
 *  BIGINT     8  v ^ 0x8000_0000_0000_0000        (sign bit flipped: negatives first)
 *  INT        4  v ^ 0x8000_0000
 *  SMALLINT   2  v ^ 0x8000
 *  DOUBLE     8  IEEE bits b of v, -0.0 as 0.0, every NaN as the canonical one;
 *                b &gt;= 0 ? b ^ 0x8000_.. : ~b    (so NaN sorts above +Infinity, as in
 *                PostgreSQL)
 *  DECIMAL    8  (p &lt;= 18) unscaled value at scale s, two's complement, sign bit flipped
 *            16  (p &lt;= 38) the same in 128 bits
 *  DATE       4  epoch day ^ 0x8000_0000
 *  TIMESTAMP  8  epoch microseconds (UTC) ^ 0x8000_0000_0000_0000
 *  BOOLEAN    1  0x00 false, 0x01 true
 *  VARCHAR,   n  UTF-8 (VARBINARY: the bytes) with every 0x00 written as 0x00 0xFF, then the
 *  TEXT,         terminator 0x00 0x00. The terminator is below every escaped or plain byte, so a
 *  VARBINARY     string sorts before every longer string it is a prefix of.
 * </pre>
 *
 * A DESC column has every value byte inverted (marker excluded). Because variable-width values
 * carry their terminator, inverting them still orders prefixes correctly: "ab" DESC sorts before
 * "a" DESC.
 *
 * <p>Index entries are {@code key || rid} with the RID as 8 big-endian bytes ({@link
 * dev.idxkit.core.Rid#write}); see {@link #encodeEntry} and {@link Keys#rid}.
 */
public final class KeyEncoder {
  public static final int FORMAT_VERSION = 1;
  public static final int NULL = 0x00;
  public static final int NOT_NULL = 0x01;

  static final String ROLE = "key column";

  private final KeyLayout layout;
  private final GrowableBytes scratch = new GrowableBytes();
  private byte[] scratchString = new byte[64];
  private int scratchLength;

  public KeyEncoder(KeyLayout layout) {
    this.layout = layout;
  }

  public KeyLayout layout() {
    return layout;
  }

  /** The key of a full row of key values, in key-column order. */
  public byte[] encode(Object[] keyValues) {
    scratch.reset();
    encode(keyValues, scratch);
    return scratch.toByteArray();
  }

  /** Appends the key of {@code keyValues} to {@code out}; on error {@code out} is unchanged. */
  public void encode(Object[] keyValues, GrowableBytes out) {
    if (keyValues.length != layout.size()) {
      throw new InvalidInputException(
          "key values : " + keyValues.length + " (expected: " + layout.size() + ")");
    }
    appendColumns(keyValues, out);
  }

  /**
   * The encoding of the first {@code firstValues.length} key columns: every key whose leading
   * columns equal these values starts with these bytes. With {@link Keys#successor} it bounds a
   * range scan on a leading part of a composite key.
   */
  public byte[] encodePrefix(Object[] firstValues) {
    scratch.reset();
    encodePrefix(firstValues, scratch);
    return scratch.toByteArray();
  }

  public void encodePrefix(Object[] firstValues, GrowableBytes out) {
    if (firstValues.length > layout.size()) {
      throw new InvalidInputException(
          "key prefix values : " + firstValues.length + " (expected: 0.." + layout.size() + ")");
    }
    appendColumns(firstValues, out);
  }

  /** The index entry {@code key || rid}. */
  public byte[] encodeEntry(Object[] keyValues, long rid) {
    scratch.reset();
    encode(keyValues, scratch);
    scratch.appendRid(rid);
    return scratch.toByteArray();
  }

  private void appendColumns(Object[] values, GrowableBytes out) {
    int mark = out.length();
    try {
      for (int i = 0; i < values.length; i++) {
        appendColumn(i, values[i], out);
      }
    } catch (RuntimeException e) {
      out.truncate(mark);
      throw e;
    }
  }

  private void appendColumn(int i, Object v, GrowableBytes out) {
    if (v == null) {
      out.append(NULL);
      return;
    }
    ColumnType t = layout.type(i);
    ColumnValues.checkClass(v, t, ROLE, i);
    out.append(NOT_NULL);
    int start = out.length();
    switch (t.kind()) {
      case BIGINT -> out.appendLong(signFlip((Long) v));
      case INT -> out.appendInt((Integer) v ^ Integer.MIN_VALUE);
      case SMALLINT -> out.appendShort((Short) v ^ 0x8000);
      case DOUBLE -> out.appendLong(sortableDouble(Double.doubleToRawLongBits((Double) v)));
      case DECIMAL -> appendDecimal(ColumnValues.unscaled((BigDecimal) v, t, ROLE, i), t, out);
      case DATE ->
          out.appendInt(ColumnValues.epochDay((LocalDate) v, t, ROLE, i) ^ Integer.MIN_VALUE);
      case TIMESTAMP ->
          out.appendLong(signFlip(ColumnValues.epochMicros((LocalDateTime) v, t, ROLE, i)));
      case BOOLEAN -> out.append((Boolean) v ? 1 : 0);
      case VARCHAR, TEXT -> {
        String s = (String) v;
        int n = ColumnValues.utf8Length(s, t, ROLE, i);
        int p = out.reserve(n);
        ColumnValues.writeUtf8(s, out.array(), p);
        out.advance(n);
        out.escapeAndTerminate(start);
      }
      case VARBINARY -> {
        byte[] b = (byte[]) v;
        out.append(b, 0, b.length);
        out.escapeAndTerminate(start);
      }
      default -> throw new IllegalStateException("unhandled type " + t);
    }
    if (layout.descending(i)) {
      out.invert(start);
    }
  }

  // ---- the value transforms, shared with record.KeyExtractor so both give the same bytes ----

  public static long signFlip(long v) {
    return v ^ Long.MIN_VALUE;
  }

  /**
   * The order-preserving form of a double given by its raw IEEE bits: -0.0 becomes 0.0 and every
   * NaN the canonical NaN first, so values equal in SQL get equal keys.
   */
  public static long sortableDouble(long rawBits) {
    long b = rawBits;
    if (b == Long.MIN_VALUE) {
      b = 0L; // -0.0
    } else if ((b & Long.MAX_VALUE) > 0x7FF0_0000_0000_0000L) {
      b = 0x7FF8_0000_0000_0000L; // any NaN
    }
    return b >= 0 ? b ^ Long.MIN_VALUE : ~b;
  }

  /** Inverse of {@link #sortableDouble} (giving the canonical NaN and 0.0 for -0.0). */
  public static double unsortableDouble(long sortable) {
    return Double.longBitsToDouble(sortable < 0 ? sortable ^ Long.MIN_VALUE : ~sortable);
  }

  private static void appendDecimal(BigInteger unscaled, ColumnType t, GrowableBytes out) {
    if (t.precision() <= 18) {
      out.appendLong(signFlip(unscaled.longValue()));
    } else {
      appendDecimal128(unscaled.shiftRight(64).longValue(), unscaled.longValue(), out);
    }
  }

  /** A 128-bit two's complement decimal {@code hi:lo}: flipped high half, then the low half. */
  public static void appendDecimal128(long hi, long lo, GrowableBytes out) {
    out.appendLong(signFlip(hi));
    out.appendLong(lo);
  }

  // ---- decoding ----

  /**
   * The values of the key in {@code key[off, off+len)}, in key-column order; for display and
   * checks. DOUBLE -0.0 and non-canonical NaNs come back as 0.0 and the canonical NaN. Throws
   * {@link MalformedKeyException} when the bytes are not exactly one key of this layout.
   */
  public Object[] decode(byte[] key, int off, int len) {
    Object[] values = new Object[layout.size()];
    int end = off + len;
    int p = off;
    for (int i = 0; i < values.length; i++) {
      need(p, 1, end, off, len, i);
      int marker = key[p++] & 0xFF;
      if (marker == NULL) {
        continue;
      }
      if (marker != NOT_NULL) {
        throw malformed(
            p - 1 - off,
            len,
            i,
            String.format("NULL marker 0x%02x (expected: 0x00 or 0x01)", marker));
      }
      ColumnType t = layout.type(i);
      int flip = layout.descending(i) ? 0xFF : 0;
      if (t.isVariableWidth()) {
        p = decodeVariable(key, p, end, flip, off, len, i);
        values[i] =
            t.kind() == TypeKind.VARBINARY
                ? Arrays.copyOf(scratchString, scratchLength)
                : ColumnValues.readUtf8(scratchString, 0, scratchLength);
        continue;
      }
      int w = t.fixedWidth();
      need(p, w, end, off, len, i);
      values[i] = decodeFixed(t, key, p, flip);
      p += w;
    }
    if (p != end) {
      throw new MalformedKeyException(p - off, len, (end - p) + " bytes after the last column");
    }
    return values;
  }

  private static Object decodeFixed(ColumnType t, byte[] key, int p, int flip) {
    switch (t.kind()) {
      case BIGINT:
        return signFlip(readBE(key, p, 8, flip));
      case INT:
        return (int) readBE(key, p, 4, flip) ^ Integer.MIN_VALUE;
      case SMALLINT:
        return (short) (readBE(key, p, 2, flip) ^ 0x8000);
      case DOUBLE:
        return unsortableDouble(readBE(key, p, 8, flip));
      case DECIMAL:
        if (t.precision() <= 18) {
          return ColumnValues.decimal(signFlip(readBE(key, p, 8, flip)), t);
        }
        return ColumnValues.decimal(
            signFlip(readBE(key, p, 8, flip)), readBE(key, p + 8, 8, flip), t);
      case DATE:
        return ColumnValues.date((int) readBE(key, p, 4, flip) ^ Integer.MIN_VALUE);
      case TIMESTAMP:
        return ColumnValues.timestamp(signFlip(readBE(key, p, 8, flip)));
      case BOOLEAN:
        return ((key[p] ^ flip) & 0xFF) != 0;
      default:
        throw new IllegalStateException("not a fixed-width type: " + t);
    }
  }

  /** Unescapes a string column into {@link #scratchString}; returns the offset after it. */
  private int decodeVariable(byte[] key, int p, int end, int flip, int off, int len, int col) {
    scratchLength = 0;
    while (true) {
      need(p, 1, end, off, len, col);
      int b = (key[p++] ^ flip) & 0xFF;
      if (b == 0) {
        need(p, 1, end, off, len, col);
        int c = (key[p++] ^ flip) & 0xFF;
        if (c == 0) {
          return p;
        }
        if (c != 0xFF) {
          throw malformed(
              p - 1 - off,
              len,
              col,
              String.format("0x00 followed by 0x%02x (expected: 0x00 or 0xff)", c));
        }
      }
      if (scratchLength == scratchString.length) {
        scratchString = Arrays.copyOf(scratchString, scratchLength * 2);
      }
      scratchString[scratchLength++] = (byte) b;
    }
  }

  private static long readBE(byte[] b, int p, int width, int flip) {
    long v = 0;
    for (int i = 0; i < width; i++) {
      v = (v << 8) | ((b[p + i] ^ flip) & 0xFF);
    }
    return v;
  }

  private void need(int p, int n, int end, int off, int len, int col) {
    if (p + n > end) {
      throw malformed(p - off, len, col, "value cut short");
    }
  }

  private MalformedKeyException malformed(int at, int len, int col, String what) {
    return new MalformedKeyException(
        at, len, "key column " + col + " (" + layout.type(col).sql() + "): " + what);
  }
}
