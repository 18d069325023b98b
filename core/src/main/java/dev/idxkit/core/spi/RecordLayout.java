package dev.idxkit.core.spi;

import dev.idxkit.core.CorruptRecordException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.internal.key.ColumnValues;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * Converts a table's rows ({@code Object[]} of the {@link dev.idxkit.core.schema.TypeKind} Java
 * classes) to record bytes and back. The format lets one column be read without decoding the
 * others, which is what the rebuilder's {@link KeyExtractor} needs: a fixed-width column sits at an
 * offset known from the layout alone, a variable-width one is found with one offset-table read.
 *
 * <h2>Format (version {@value #FORMAT_VERSION}), all integers little-endian</h2>
 *
 * <pre>
 *  0       1               1+B                 1+B+F              V
 *  +-------+---------------+-------------------+------------------+------------------------ ...
 *  | flags | null bitmap   | fixed-width       | var end offsets  | var data, back to back
 *  |       | B = ceil(n/8) | columns, F bytes  | u16 or u32 each  | in column order
 *  +-------+---------------+-------------------+------------------+------------------------ ...
 *
 *  flags        bits 0-3 format version; bit 7 set: the end offsets are u32 (the record is
 *               longer than 65535 bytes), else u16; bits 4-6 zero
 *  null bitmap  bit (i % 8) of byte (i / 8) set: column i is NULL
 *  fixed-width  every fixed-width column, in column order, at an offset fixed by the layout;
 *               a NULL one keeps its place and is zero
 *                 BIGINT 8, INT 4, SMALLINT 2, DOUBLE 8 (raw IEEE bits, -0.0 kept),
 *                 DECIMAL unscaled at scale s: 8 (p &lt;= 18) or 16 (p &lt;= 38, low 8 bytes
 *                 first), DATE 4 (epoch day), TIMESTAMP 8 (epoch micros, UTC), BOOLEAN 1 (0/1)
 *  end offsets  for the k-th variable-width column, the offset (from the record start) just past
 *               its data; it starts where the previous one ends, the first at V. A NULL one has
 *               no data (start = end)
 *  var data     VARCHAR/TEXT as UTF-8, VARBINARY as is
 * </pre>
 *
 * <p>Narrow offsets keep the common record 2 bytes per variable column smaller; only records too
 * long to be inline (they live on overflow pages) ever need u32. Records are little-endian for
 * cheap native reads through Chronicle Bytes; keys ({@link dev.idxkit.core.spi.KeyEncoder}) are
 * big-endian for memcmp order. The two are converted, never shared. idxkit runs on little-endian
 * hosts only (x86-64, aarch64), like {@link dev.idxkit.core.spi.Page}.
 *
 * <p>Nullability is not checked here: the layout knows types only, the catalog knows NOT NULL.
 */
public final class RecordLayout {
  public static final int FORMAT_VERSION = 1;

  /** Largest record this layout encodes; larger rows are refused, not truncated. */
  public static final int MAX_LENGTH = 1 << 30;

  static final int FLAGS_VERSION_MASK = 0x0F;
  static final int FLAG_WIDE = 0x80;
  static final int NULL_BITMAP = 1;

  private static final String ROLE = "column";

  private final List<ColumnType> types;
  private final ColumnType[] typeArray;

  /** For a fixed-width column its offset in the record; for a variable-width one -1-k (k-th). */
  private final int[] place;

  private final int varCount;
  private final int varTable;

  public RecordLayout(List<ColumnType> types) {
    if (types.isEmpty()) {
      throw new InvalidInputException("record columns : 0 (expected: at least 1)");
    }
    this.types = List.copyOf(types);
    this.typeArray = this.types.toArray(new ColumnType[0]);
    this.place = new int[typeArray.length];
    int fixedAt = NULL_BITMAP + (typeArray.length + 7) / 8;
    int vars = 0;
    for (int i = 0; i < typeArray.length; i++) {
      if (typeArray[i].isVariableWidth()) {
        place[i] = -1 - vars++;
      } else {
        place[i] = fixedAt;
        fixedAt += typeArray[i].fixedWidth();
      }
    }
    this.varCount = vars;
    this.varTable = fixedAt;
  }

  public static RecordLayout of(TableDef table) {
    return new RecordLayout(table.columnTypes());
  }

  public List<ColumnType> types() {
    return types;
  }

  public int columnCount() {
    return typeArray.length;
  }

  /** Length of a record with narrow offsets and no variable-width data: the shortest possible. */
  public int minLength() {
    return varTable + 2 * varCount;
  }

  // ---- encoding ----

  /** The record of {@code row} as a new array. */
  public byte[] encode(Object[] row) {
    GrowableBytes out = new GrowableBytes(minLength() + 64);
    encode(row, out);
    return out.toByteArray();
  }

  /**
   * Replaces the content of {@code out} with the record of {@code row}. A value of the wrong class
   * or one its column cannot hold exactly throws {@link InvalidInputException}; {@code out} is then
   * unspecified.
   */
  public void encode(Object[] row, GrowableBytes out) {
    if (row.length != typeArray.length) {
      throw new InvalidInputException(
          "row values : " + row.length + " (expected: " + typeArray.length + ")");
    }
    long varBytes = 0;
    for (int i = 0; i < row.length; i++) {
      Object v = row[i];
      if (v == null) {
        continue;
      }
      ColumnType t = typeArray[i];
      ColumnValues.checkClass(v, t, ROLE, i);
      if (place[i] < 0) {
        varBytes +=
            v instanceof String s ? ColumnValues.utf8Length(s, t, ROLE, i) : ((byte[]) v).length;
      }
    }
    long narrow = minLength() + varBytes;
    boolean wide = narrow > 0xFFFF;
    long total = wide ? narrow + 2L * varCount : narrow;
    if (total > MAX_LENGTH) {
      throw new InvalidInputException(
          "record : " + total + " bytes (expected: <= " + MAX_LENGTH + ")");
    }
    int offWidth = wide ? 4 : 2;
    out.start((int) total, varTable);
    out.putByte(0, FORMAT_VERSION | (wide ? FLAG_WIDE : 0));
    int end = varTable + offWidth * varCount;
    for (int i = 0; i < row.length; i++) {
      Object v = row[i];
      if (v == null) {
        int b = NULL_BITMAP + (i >> 3);
        out.putByte(b, out.array()[b] | 1 << (i & 7));
      } else if (place[i] >= 0) {
        writeFixed(typeArray[i], i, v, place[i], out);
      } else if (v instanceof String s) {
        end = ColumnValues.writeUtf8(s, out.array(), end);
      } else {
        out.putBytes(end, (byte[]) v);
        end += ((byte[]) v).length;
      }
      if (place[i] < 0) {
        int at = varTable + offWidth * (-1 - place[i]);
        if (wide) {
          out.putInt(at, end);
        } else {
          out.putShort(at, end);
        }
      }
    }
  }

  /**
   * A writer of records of this layout from primitives and byte slices, for bulk paths that parse
   * input straight into records (see {@link RecordWriter}); one per thread.
   */
  public RecordWriter writer() {
    return new RecordWriter(this);
  }

  static void writeFixed(ColumnType t, int col, Object v, int at, GrowableBytes out) {
    switch (t.kind()) {
      case BIGINT -> out.putLong(at, (Long) v);
      case INT -> out.putInt(at, (Integer) v);
      case SMALLINT -> out.putShort(at, (Short) v);
      case DOUBLE -> out.putLong(at, Double.doubleToRawLongBits((Double) v));
      case DECIMAL -> {
        BigInteger u = ColumnValues.unscaled((BigDecimal) v, t, ROLE, col);
        out.putLong(at, u.longValue());
        if (t.precision() > 18) {
          out.putLong(at + 8, u.shiftRight(64).longValue());
        }
      }
      case DATE -> out.putInt(at, ColumnValues.epochDay((LocalDate) v, t, ROLE, col));
      case TIMESTAMP -> out.putLong(at, ColumnValues.epochMicros((LocalDateTime) v, t, ROLE, col));
      case BOOLEAN -> out.putByte(at, (Boolean) v ? 1 : 0);
      default -> throw new IllegalStateException("not a fixed-width type: " + t);
    }
  }

  // ---- decoding ----

  /** Every column of the record at {@code store[off, off+len)}. */
  public Object[] decode(BytesStore<?, ?> store, long off, int len) {
    checkHeader(store, off, len);
    Object[] row = new Object[typeArray.length];
    for (int i = 0; i < row.length; i++) {
      row[i] = readColumn(store, off, len, i);
    }
    return row;
  }

  /** One column of the record at {@code store[off, off+len)}, without decoding the others. */
  public Object decodeColumn(BytesStore<?, ?> store, long off, int len, int column) {
    checkColumn(column);
    checkHeader(store, off, len);
    return readColumn(store, off, len, column);
  }

  public boolean isNull(BytesStore<?, ?> store, long off, int len, int column) {
    checkColumn(column);
    checkHeader(store, off, len);
    return isNullUnchecked(store, off, column);
  }

  private Object readColumn(BytesStore<?, ?> store, long off, int len, int i) {
    if (isNullUnchecked(store, off, i)) {
      return null;
    }
    ColumnType t = typeArray[i];
    if (place[i] < 0) {
      long bounds = varBounds(store, off, len, -1 - place[i]);
      int start = (int) (bounds >>> 32);
      int n = (int) bounds - start;
      byte[] b = new byte[n];
      if (store.read(off + start, b, 0, n) != n) {
        throw new CorruptRecordException(len, "column " + i + " extends past the end of memory");
      }
      return t.kind() == TypeKind.VARBINARY ? b : ColumnValues.readUtf8(b, 0, n);
    }
    long at = off + place[i];
    switch (t.kind()) {
      case BIGINT:
        return store.readLong(at);
      case INT:
        return store.readInt(at);
      case SMALLINT:
        return store.readShort(at);
      case DOUBLE:
        return Double.longBitsToDouble(store.readLong(at));
      case DECIMAL:
        return t.precision() <= 18
            ? ColumnValues.decimal(store.readLong(at), t)
            : ColumnValues.decimal(store.readLong(at + 8), store.readLong(at), t);
      case DATE:
        return ColumnValues.date(store.readInt(at));
      case TIMESTAMP:
        return ColumnValues.timestamp(store.readLong(at));
      case BOOLEAN:
        return store.readByte(at) != 0;
      default:
        throw new IllegalStateException("not a fixed-width type: " + t);
    }
  }

  // ---- navigation, shared with KeyExtractor ----

  /** Offset of a fixed-width column in every record, or -1 for a variable-width one. */
  int fixedOffset(int column) {
    return place[column] >= 0 ? place[column] : -1;
  }

  /** How many variable-width columns a record has. */
  int varCount() {
    return varCount;
  }

  /** Offset of the variable-width offset table: the end of the fixed-width columns. */
  int varTable() {
    return varTable;
  }

  /** Which variable-width column (0-based among them) {@code column} is, or -1 if fixed. */
  int varIndex(int column) {
    return place[column] < 0 ? -1 - place[column] : -1;
  }

  static boolean isNullUnchecked(BytesStore<?, ?> store, long off, int column) {
    return (store.readByte(off + NULL_BITMAP + (column >> 3)) & (1 << (column & 7))) != 0;
  }

  /** {@link #isNullUnchecked} for a record in native memory at {@code address}. */
  static boolean isNullAt(long address, int column) {
    return (UnsafeMemory.MEMORY.readByte(address + NULL_BITMAP + (column >> 3))
            & (1 << (column & 7)))
        != 0;
  }

  /** Checks the flags byte and that the record is long enough for its fixed part. */
  void checkHeader(BytesStore<?, ?> store, long off, int len) {
    checkLength(len);
    checkFlags(store.readUnsignedByte(off), len);
  }

  /** {@link #checkHeader} for a record in native memory at {@code address}. */
  void checkHeaderAt(long address, int len) {
    checkLength(len);
    checkFlags(UnsafeMemory.MEMORY.readByte(address) & 0xFF, len);
  }

  private void checkLength(int len) {
    if (len < minLength()) {
      throw new CorruptRecordException(
          len, "shorter than the fixed part (expected: >= " + minLength() + " bytes)");
    }
  }

  private void checkFlags(int flags, int len) {
    if ((flags & ~FLAG_WIDE) != FORMAT_VERSION) {
      throw new CorruptRecordException(
          len,
          String.format(
              "flags 0x%02x (expected: version %d, bit 7 optional)", flags, FORMAT_VERSION));
    }
    if ((flags & FLAG_WIDE) != 0 && len < varTable + 4 * varCount) {
      throw new CorruptRecordException(
          len,
          "shorter than the fixed part with wide offsets (expected: >= "
              + (varTable + 4 * varCount)
              + " bytes)");
    }
  }

  /**
   * Start (high 32 bits) and end (low 32 bits) of the data of the {@code k}-th variable-width
   * column, checked to lie within the record. Packed into a long so the hot path allocates nothing.
   */
  long varBounds(BytesStore<?, ?> store, long off, int len, int k) {
    boolean wide = (store.readByte(off) & FLAG_WIDE) != 0;
    int w = wide ? 4 : 2;
    long table = off + varTable;
    int start =
        k == 0 ? varTable + w * varCount : readOffset(store, table + (long) w * (k - 1), wide);
    int end = readOffset(store, table + (long) w * k, wide);
    if (start < varTable + w * varCount || end < start || end > len) {
      throw new CorruptRecordException(
          len,
          "variable-width column "
              + k
              + " at ["
              + start
              + ", "
              + end
              + ") (expected: within ["
              + (varTable + w * varCount)
              + ", "
              + len
              + "])");
    }
    return (long) start << 32 | end;
  }

  private static int readOffset(BytesStore<?, ?> store, long at, boolean wide) {
    return wide ? store.readInt(at) : store.readUnsignedShort(at);
  }

  private void checkColumn(int column) {
    if (column < 0 || column >= typeArray.length) {
      throw new IndexOutOfBoundsException(
          "column : " + column + " (expected: 0.." + (typeArray.length - 1) + ")");
    }
  }
}
