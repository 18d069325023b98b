package dev.idxkit.core.spi;

import dev.idxkit.core.CorruptRecordException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.internal.key.KeyLayout;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TypeKind;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Writes an index key straight from record bytes, for the rebuilder's scan: millions of records per
 * second, each read where it lies (a mapped heap page or an overflow record's array), without
 * decoding the row into objects.
 *
 * <p>For each key column it reads the record's null bit, then either the fixed-width value at its
 * layout offset, converting little-endian record form to the big-endian sortable key form in
 * registers (e.g. BIGINT: read 8 LE bytes, flip the sign bit, write 8 BE bytes), or the
 * variable-width bytes, copied in one bulk read into the key buffer and escaped in place. It
 * allocates nothing unless the key buffer grows. The result is byte for byte what {@link
 * KeyEncoder#encode} gives for the decoded key values; both use the same transforms from {@link
 * KeyEncoder}.
 *
 * <p>Immutable and thread-safe; each thread passes its own {@link GrowableBytes}.
 */
public final class KeyExtractor {
  private final RecordLayout record;
  private final KeyLayout key;
  private final int[] columns;
  private final TypeKind[] kinds;
  private final boolean[] wideDecimal;
  private final boolean[] descending;

  /** Fixed offset in the record, or for a variable-width column its index among them. */
  private final int[] where;

  /**
   * @param tableColumnsOfKey for each key column, the position of its column in the record
   */
  public KeyExtractor(RecordLayout record, KeyLayout key, int[] tableColumnsOfKey) {
    if (tableColumnsOfKey.length != key.size()) {
      throw new InvalidInputException(
          "key columns : " + tableColumnsOfKey.length + " (expected: " + key.size() + ")");
    }
    this.record = record;
    this.key = key;
    this.columns = tableColumnsOfKey.clone();
    int n = columns.length;
    this.kinds = new TypeKind[n];
    this.wideDecimal = new boolean[n];
    this.descending = new boolean[n];
    this.where = new int[n];
    for (int i = 0; i < n; i++) {
      int c = columns[i];
      if (c < 0 || c >= record.columnCount()) {
        throw new InvalidInputException(
            "key column "
                + i
                + " : record column "
                + c
                + " (expected: 0.."
                + (record.columnCount() - 1)
                + ")");
      }
      ColumnType rt = record.types().get(c);
      ColumnType kt = key.type(i);
      if (!sameEncoding(rt, kt)) {
        throw new InvalidInputException(
            "key column "
                + i
                + " : "
                + kt.sql()
                + " (expected: "
                + rt.sql()
                + ", the type of record column "
                + c
                + ")");
      }
      kinds[i] = kt.kind();
      wideDecimal[i] = kt.kind() == TypeKind.DECIMAL && kt.precision() > 18;
      descending[i] = key.descending(i);
      where[i] = rt.isVariableWidth() ? record.varIndex(c) : record.fixedOffset(c);
    }
  }

  /** VARCHAR(n) and TEXT store and sort alike; everything else must match exactly. */
  private static boolean sameEncoding(ColumnType a, ColumnType b) {
    if (a.isVariableWidth() && b.isVariableWidth()) {
      return (a.kind() == TypeKind.VARBINARY) == (b.kind() == TypeKind.VARBINARY);
    }
    return a.kind() == b.kind() && a.precision() == b.precision() && a.scale() == b.scale();
  }

  public KeyLayout keyLayout() {
    return key;
  }

  public RecordLayout recordLayout() {
    return record;
  }

  /** For each key column, the record column it is read from. */
  public int[] tableColumns() {
    return columns.clone();
  }

  /**
   * Appends the encoded key of the record at {@code store[off, off+len)} to {@code out}. Throws
   * {@link CorruptRecordException} when the record's header or offsets do not hold together, and
   * leaves {@code out} as it was.
   */
  public void extract(BytesStore<?, ?> store, long off, int len, GrowableBytes out) {
    int mark = out.length();
    try {
      appendKey(store, off, len, out);
    } catch (RuntimeException e) {
      out.truncate(mark);
      throw e;
    }
  }

  private void appendKey(BytesStore<?, ?> store, long off, int len, GrowableBytes out) {
    record.checkHeader(store, off, len);
    for (int i = 0; i < columns.length; i++) {
      if (RecordLayout.isNullUnchecked(store, off, columns[i])) {
        out.append(KeyEncoder.NULL);
        continue;
      }
      out.append(KeyEncoder.NOT_NULL);
      int start = out.length();
      long at = off + where[i];
      switch (kinds[i]) {
        case BIGINT, TIMESTAMP -> out.appendLong(KeyEncoder.signFlip(store.readLong(at)));
        case INT, DATE -> out.appendInt(store.readInt(at) ^ Integer.MIN_VALUE);
        case SMALLINT -> out.appendShort(store.readShort(at) ^ 0x8000);
        case DOUBLE -> out.appendLong(KeyEncoder.sortableDouble(store.readLong(at)));
        case DECIMAL -> {
          if (wideDecimal[i]) {
            KeyEncoder.appendDecimal128(store.readLong(at + 8), store.readLong(at), out);
          } else {
            out.appendLong(KeyEncoder.signFlip(store.readLong(at)));
          }
        }
        case BOOLEAN -> out.append(store.readByte(at) != 0 ? 1 : 0);
        case VARCHAR, TEXT, VARBINARY -> copyVariable(store, off, len, i, out, start);
        default -> throw new IllegalStateException("unhandled type " + kinds[i]);
      }
      if (descending[i]) {
        out.invert(start);
      }
    }
  }

  private void copyVariable(
      BytesStore<?, ?> store, long off, int len, int i, GrowableBytes out, int start) {
    long bounds = record.varBounds(store, off, len, where[i]);
    int from = (int) (bounds >>> 32);
    int n = (int) bounds - from;
    int p = out.reserve(n);
    if (store.read(off + from, out.array(), p, n) != n) {
      throw new CorruptRecordException(
          len, "column " + columns[i] + " extends past the end of memory");
    }
    out.advance(n);
    out.escapeAndTerminate(start);
  }
}
