package dev.idxkit.core.spi;

import dev.idxkit.core.CorruptRecordException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.internal.key.KeyLayout;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TypeKind;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.UnsafeMemory;

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
 * <p>A key of fixed-width columns only has a known longest form ({@link #maxFixedLength()}), and
 * {@link #extractInto} writes it into the caller's array where it is wanted (the rebuilder's sort
 * buffer), saving the copy out of a {@link GrowableBytes}; both paths take the same per-column
 * writer.
 *
 * <p>Immutable and thread-safe; each thread passes its own {@link GrowableBytes}.
 */
public final class KeyExtractor {
  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE_SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;

  private final RecordLayout record;
  private final KeyLayout key;
  private final int[] columns;
  private final TypeKind[] kinds;
  private final boolean[] wideDecimal;
  private final boolean[] descending;

  /** Fixed offset in the record, or for a variable-width column its index among them. */
  private final int[] where;

  /** For a fixed-width key column the bytes of its value in the key, else 0. */
  private final int[] width;

  /** The longest key (every column NOT NULL), or -1 when a column is variable-width. */
  private final int maxFixedLength;

  /** Every column an ascending INT, DATE, BIGINT or TIMESTAMP: what {@link #extractAt} serves. */
  private final boolean extractsAtAddress;

  // The first two key columns' record column, offset and width for extractAt, as fields. Read from
  // the arrays, the scan's loop over a page's records hit a profile_predicate trap at its head in
  // every cold rebuild (its compiled code thrown away and compiled again); likely column 1's range
  // checks, hoisted by C2 and failing for a key of one column. With fields the trap went. -1 when
  // absent.
  private final int column0;
  private final int where0;
  private final int width0;
  private final int column1;
  private final int where1;
  private final int width1;

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
    this.width = new int[n];
    int longest = 0;
    for (int i = 0; i < n; i++) {
      if (kinds[i].isVariableWidth()) {
        longest = -1;
      } else {
        width[i] = valueWidth(kinds[i], wideDecimal[i]);
        longest = longest < 0 ? -1 : longest + 1 + width[i];
      }
    }
    this.maxFixedLength = longest;
    boolean integers = n > 0;
    for (int i = 0; i < n; i++) {
      integers &=
          !descending[i]
              && switch (kinds[i]) {
                case BIGINT, TIMESTAMP, INT, DATE -> true;
                default -> false;
              };
    }
    this.extractsAtAddress = integers;
    this.column0 = n > 0 ? columns[0] : -1;
    this.where0 = n > 0 ? where[0] : -1;
    this.width0 = n > 0 ? width[0] : -1;
    this.column1 = n > 1 ? columns[1] : -1;
    this.where1 = n > 1 ? where[1] : -1;
    this.width1 = n > 1 ? width[1] : -1;
  }

  /** The bytes of a fixed-width value of {@code kind} in a key. */
  private static int valueWidth(TypeKind kind, boolean wideDecimal) {
    return switch (kind) {
      case BIGINT, TIMESTAMP, DOUBLE -> 8;
      case DECIMAL -> wideDecimal ? 16 : 8;
      case INT, DATE -> 4;
      case SMALLINT -> 2;
      case BOOLEAN -> 1;
      default -> throw new IllegalStateException("unhandled type " + kind);
    };
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
      if (kinds[i].isVariableWidth()) {
        appendVariable(store, off, len, i, out);
      } else {
        int at = out.reserve(1 + width[i]);
        out.advance(writeFixed(store, off, i, out.array(), at) - at);
      }
    }
  }

  /**
   * The longest key this extractor writes (every column NOT NULL; a NULL column takes one byte), or
   * -1 when a key column is variable-width: then only {@link #extract} serves.
   */
  public int maxFixedLength() {
    return maxFixedLength;
  }

  /**
   * Checks the header of the record at {@code store[off, off+len)}: that it is long enough for
   * every fixed-width column, so {@link #extractInto} reads within it. Once per record serves every
   * extractor of its table (they share one {@link RecordLayout}).
   *
   * @throws CorruptRecordException when it is not
   */
  public void checkRecord(BytesStore<?, ?> store, long off, int len) {
    record.checkHeader(store, off, len);
  }

  /** {@link #checkRecord} for a record of {@code len} bytes in native memory at {@code address}. */
  public void checkRecordAt(long address, int len) {
    record.checkHeaderAt(address, len);
  }

  /**
   * Writes the encoded key of the record at {@code store[off, off+len)}, {@link #checkRecord
   * checked} before, to {@code dst} from {@code at}, which must have {@link #maxFixedLength()}
   * bytes of room (a key of fixed-width columns only), and returns where the key ends.
   */
  public int extractInto(BytesStore<?, ?> store, long off, byte[] dst, int at) {
    if (maxFixedLength < 0) {
      throw new IllegalStateException("the key has a variable-width column: use extract");
    }
    int end = at;
    for (int i = 0; i < columns.length; i++) {
      end = writeFixed(store, off, i, dst, end);
    }
    return end;
  }

  /**
   * Whether {@link #extractAt} serves this key: every column an ascending INT, DATE, BIGINT or
   * TIMESTAMP (lineitem's indexes; the others take {@link #extractInto}).
   */
  public boolean extractsAtAddress() {
    return extractsAtAddress;
  }

  /**
   * {@link #extractInto} for a record in native memory at {@code address} (a mapped heap page's,
   * {@link BytesStore#addressForRead}), {@link #checkRecord checked} before, for a key {@link
   * #extractsAtAddress} serves. The scan's hottest code: {@code KeyExtractBench.scanAtAddress}
   * takes 1.7-2.0x the keys a second of {@code scanThroughStore}. What cost was the loop over the
   * columns and the switch over their kinds, not the store's accessors (reading native memory in
   * that loop changed nothing). The reads stay within the record's fixed part, whose length the
   * check proved.
   */
  public int extractAt(long address, byte[] dst, int at) {
    if (!extractsAtAddress) {
      throw new IllegalStateException(
          "the key has a column that is not an ascending integer or date: use extractInto");
    }
    int n = columns.length;
    // The first two columns outside a loop: as a loop, even over one column, a key took 10 ns more
    // (scan-shaped harness, 4,096 cache-resident lineitem records: 13 ns against 2-3 ns).
    int end = columnAt(address, column0, where0, width0, dst, at);
    if (n > 1) {
      end = columnAt(address, column1, where1, width1, dst, end);
      for (int i = 2; i < n; i++) {
        end = columnAt(address, columns[i], where[i], width[i], dst, end);
      }
    }
    return end;
  }

  /**
   * The key column that is record column {@code column}, at {@code where} in the record at {@code
   * address}, {@code width} bytes wide, written at {@code dst[at]}; returns its end. The column is
   * an ascending integer or date (extractsAtAddress): 4 bytes wide or 8.
   */
  private static int columnAt(long address, int column, int where, int width, byte[] dst, int at) {
    if (RecordLayout.isNullAt(address, column)) {
      dst[at] = (byte) KeyEncoder.NULL;
      return at + 1;
    }
    dst[at] = (byte) KeyEncoder.NOT_NULL;
    long src = address + where;
    if (width == 4) {
      BE_INT.set(dst, at + 1, MEMORY.readInt(src) ^ Integer.MIN_VALUE);
      return at + 5;
    }
    BE_LONG.set(dst, at + 1, KeyEncoder.signFlip(MEMORY.readLong(src)));
    return at + 9;
  }

  /**
   * Writes fixed-width key column {@code i} (its NULL marker and value) at {@code dst[at]}. The
   * common kinds are written here and the rest in {@link #writeOther}, so that this method stays
   * under C2's inlining limit for hot methods (325 bytecodes): written as one switch over every
   * kind it took 405 and was compiled as a call of its own per key column. Inlined, {@code
   * KeyExtractBench.extract} is 20-35 % faster; in a rebuild, extraction stays about a third of the
   * scan threads' CPU either way (it waits on something else, not found yet).
   */
  private int writeFixed(BytesStore<?, ?> store, long off, int i, byte[] dst, int at) {
    if (RecordLayout.isNullUnchecked(store, off, columns[i])) {
      dst[at] = (byte) KeyEncoder.NULL;
      return at + 1;
    }
    dst[at] = (byte) KeyEncoder.NOT_NULL;
    int start = at + 1;
    long src = off + where[i];
    switch (kinds[i]) {
      case BIGINT, TIMESTAMP -> BE_LONG.set(dst, start, KeyEncoder.signFlip(store.readLong(src)));
      case INT, DATE -> BE_INT.set(dst, start, store.readInt(src) ^ Integer.MIN_VALUE);
      default -> writeOther(store, src, i, dst, start);
    }
    int end = start + width[i];
    if (descending[i]) {
      invert(dst, start, end);
    }
    return end;
  }

  /** The value of fixed-width key column {@code i} of a kind {@link #writeFixed} leaves out. */
  private void writeOther(BytesStore<?, ?> store, long src, int i, byte[] dst, int start) {
    switch (kinds[i]) {
      case SMALLINT -> BE_SHORT.set(dst, start, (short) (store.readShort(src) ^ 0x8000));
      case DOUBLE -> BE_LONG.set(dst, start, KeyEncoder.sortableDouble(store.readLong(src)));
      case DECIMAL -> {
        if (wideDecimal[i]) {
          // The 128-bit form KeyEncoder.appendDecimal128 writes: high word sign-flipped, then low.
          BE_LONG.set(dst, start, KeyEncoder.signFlip(store.readLong(src + 8)));
          BE_LONG.set(dst, start + 8, store.readLong(src));
        } else {
          BE_LONG.set(dst, start, KeyEncoder.signFlip(store.readLong(src)));
        }
      }
      case BOOLEAN -> dst[start] = (byte) (store.readByte(src) != 0 ? 1 : 0);
      default -> throw new IllegalStateException("unhandled type " + kinds[i]);
    }
  }

  /** A descending column's bytes, inverted so that the key's byte order is the column's reverse. */
  private static void invert(byte[] dst, int from, int to) {
    for (int k = from; k < to; k++) {
      dst[k] = (byte) ~dst[k];
    }
  }

  private void appendVariable(BytesStore<?, ?> store, long off, int len, int i, GrowableBytes out) {
    if (RecordLayout.isNullUnchecked(store, off, columns[i])) {
      out.append(KeyEncoder.NULL);
      return;
    }
    out.append(KeyEncoder.NOT_NULL);
    int start = out.length();
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
    if (descending[i]) {
      out.invert(start);
    }
  }
}
