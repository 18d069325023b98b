package dev.idxkit.core.spi;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.internal.key.ColumnValues;
import dev.idxkit.core.schema.ColumnType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Builds one record of a {@link RecordLayout} column by column from primitives and byte slices, so
 * a bulk loader can go from input bytes to record bytes without a Java object per value. The result
 * is byte for byte what {@link RecordLayout#encode(Object[], GrowableBytes)} gives for the same
 * values.
 *
 * <p>How: the fixed part (flags, null bitmap, fixed-width columns) is written in place as columns
 * are set, in any order; variable-width data is copied into a side buffer and laid out in column
 * order by {@link #finish}, which also picks narrow or wide offsets. Columns not set since {@link
 * #begin()} are NULL.
 *
 * <p>The caller has checked each value against its column (range, precision, length): the typed
 * setters only store. Not thread-safe; one per thread, reused record after record.
 */
public final class RecordWriter {
  private static final String ROLE = "column";
  private static final VarHandle LE_SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final RecordLayout layout;
  private final ColumnType[] types;
  private final int columns;
  private final int varTable;
  private final int varCount;
  private final GrowableBytes head;
  private final GrowableBytes var = new GrowableBytes(256);
  private final int[] varStart;
  private final int[] varLength;
  // The fixed part of a record whose columns are all NULL: what begin() starts from.
  private final byte[] allNull;
  // Per column: its offset in the fixed part (-1 if variable-width), its place among the
  // variable-width ones (-1 if fixed); looked up once here rather than in the layout per value.
  private final int[] fixedOffset;
  private final int[] varIndex;
  // head.array() for the record being built: the typed setters write into it directly.
  private byte[] h;

  RecordWriter(RecordLayout layout) {
    this.layout = layout;
    this.types = layout.types().toArray(new ColumnType[0]);
    this.columns = types.length;
    this.varTable = layout.varTable();
    this.varCount = layout.varCount();
    this.head = new GrowableBytes(varTable);
    this.varStart = new int[varCount];
    this.varLength = new int[varCount];
    head.start(varTable, varTable);
    for (int i = 0; i < columns; i++) {
      setNull(i);
    }
    this.allNull = Arrays.copyOf(head.array(), varTable);
    this.fixedOffset = new int[columns];
    this.varIndex = new int[columns];
    for (int c = 0; c < columns; c++) {
      fixedOffset[c] = layout.fixedOffset(c);
      varIndex[c] = layout.varIndex(c);
    }
    begin();
  }

  /** Starts a new record: every column NULL. */
  public void begin() {
    head.start(varTable, 0);
    h = head.array();
    System.arraycopy(allNull, 0, h, 0, varTable);
    var.reset();
    Arrays.fill(varLength, -1);
  }

  private int fixedAt(int column) {
    clearNull(column);
    return fixedOffset[column];
  }

  /** A BIGINT column. */
  public void setLong(int column, long v) {
    LE_LONG.set(h, fixedAt(column), v);
  }

  /** An INT column. */
  public void setInt(int column, int v) {
    LE_INT.set(h, fixedAt(column), v);
  }

  /** A SMALLINT column. */
  public void setShort(int column, short v) {
    LE_SHORT.set(h, fixedAt(column), v);
  }

  /** A DECIMAL column of precision up to 18: its unscaled value at the column's scale. */
  public void setDecimal(int column, long unscaled) {
    LE_LONG.set(h, fixedAt(column), unscaled);
  }

  /** A DATE column: days since 1970-01-01. */
  public void setEpochDay(int column, int day) {
    LE_INT.set(h, fixedAt(column), day);
  }

  /** A VARCHAR, TEXT or VARBINARY column: {@code src[off, off + len)}, UTF-8 for text, copied. */
  public void setBytes(int column, byte[] src, int off, int len) {
    int k = varIndex[column];
    clearNull(column);
    varStart[k] = var.length();
    varLength[k] = len;
    var.append(src, off, len);
  }

  /**
   * Any column from its Java value (the classes of {@link dev.idxkit.core.schema.TypeKind}), null
   * for NULL; the slow path for what the typed setters do not cover. Checked as {@link
   * RecordLayout#encode(Object[], GrowableBytes)} checks it.
   *
   * @throws InvalidInputException for a value of the wrong class or one the column cannot hold
   */
  public void set(int column, Object v) {
    if (v == null) {
      setNull(column);
      int k = layout.varIndex(column);
      if (k >= 0) {
        varLength[k] = -1;
      }
      return;
    }
    ColumnType t = types[column];
    ColumnValues.checkClass(v, t, ROLE, column);
    if (!t.isVariableWidth()) {
      RecordLayout.writeFixed(t, column, v, fixedAt(column), head);
    } else if (v instanceof String s) {
      int n = ColumnValues.utf8Length(s, t, ROLE, column);
      int k = layout.varIndex(column);
      clearNull(column);
      int at = var.reserve(n);
      ColumnValues.writeUtf8(s, var.array(), at);
      var.advance(n);
      varStart[k] = at;
      varLength[k] = n;
    } else {
      byte[] b = (byte[]) v;
      setBytes(column, b, 0, b.length);
    }
  }

  private void setNull(int column) {
    int b = RecordLayout.NULL_BITMAP + (column >> 3);
    head.putByte(b, head.array()[b] | 1 << (column & 7));
  }

  private void clearNull(int column) {
    h[RecordLayout.NULL_BITMAP + (column >> 3)] &= (byte) ~(1 << (column & 7));
  }

  /**
   * Replaces the content of {@code out} with the record.
   *
   * @throws InvalidInputException if the record would be longer than {@link
   *     RecordLayout#MAX_LENGTH}
   */
  public void finish(GrowableBytes out) {
    long varBytes = var.length();
    long narrow = varTable + 2L * varCount + varBytes;
    boolean wide = narrow > 0xFFFF;
    long total = wide ? narrow + 2L * varCount : narrow;
    if (total > RecordLayout.MAX_LENGTH) {
      throw new InvalidInputException(
          "record : " + total + " bytes (expected: <= " + RecordLayout.MAX_LENGTH + ")");
    }
    int offWidth = wide ? 4 : 2;
    out.start((int) total, 0);
    byte[] dst = out.array();
    System.arraycopy(head.array(), 0, dst, 0, varTable);
    out.putByte(0, RecordLayout.FORMAT_VERSION | (wide ? RecordLayout.FLAG_WIDE : 0));
    int end = varTable + offWidth * varCount;
    byte[] src = var.array();
    for (int k = 0; k < varCount; k++) {
      int len = varLength[k];
      if (len > 0) {
        System.arraycopy(src, varStart[k], dst, end, len);
        end += len;
      }
      int at = varTable + offWidth * k;
      if (wide) {
        out.putInt(at, end);
      } else {
        out.putShort(at, end);
      }
    }
  }
}
