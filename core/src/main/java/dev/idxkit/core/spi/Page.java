package dev.idxkit.core.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * A view of one page in memory: mapped file memory, a committed WAL image, or a transaction's
 * private copy. All multi-byte fields are little-endian; keys are compared as unsigned bytes.
 *
 * <p>Every page starts with the same 24-byte header:
 *
 * <pre>
 *  0        4      5         6      7      8                16               24
 *  +--------+------+---------+------+------+----------------+----------------+------ ...
 *  | crc32c | type | version | area | rsvd | page number    | lsn            | body
 *  +--------+------+---------+------+------+----------------+----------------+------ ...
 *  crc32c  CRC32C of bytes [4, pageSize), written last, checked on first read
 *  type    {@link PageType} code; version {@link #FORMAT_VERSION}; area the area id
 *  lsn     the commit (WAL) or publish generation that wrote the page
 * </pre>
 *
 * <p>A view is only valid while the caller holds what keeps its memory alive: the database's read
 * lock for committed pages, the transaction for private copies.
 *
 * <p>Change tracking ({@link #trackChanges}, for a transaction's private copies): every write
 * through this view marks the {@value #CHANGE_BLOCK}-byte blocks it touched in a bitmap (8 KiB: 128
 * blocks, two longs), so that a commit diffs only those blocks against the page's previous image
 * instead of the whole page. Writes that bypass the view (through {@link #store()}) are not seen: a
 * tracked page must only be written through its methods.
 */
public final class Page {
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  // Chronicle Bytes stores multi-byte values in the platform's order; the array path does too.
  private static final VarHandle U16 =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.nativeOrder());
  private static final VarHandle I32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
  private static final VarHandle I64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

  public static final int FORMAT_VERSION = 1;
  public static final int HEADER_SIZE = 24;
  public static final int MIN_SIZE = 4096;
  public static final int MAX_SIZE = 65536;
  public static final int DEFAULT_SIZE = 8192;

  static final int OFF_CRC = 0;
  static final int OFF_TYPE = 4;
  static final int OFF_VERSION = 5;
  static final int OFF_AREA = 6;
  static final int OFF_PAGE_NO = 8;
  static final int OFF_LSN = 16;

  private static final ThreadLocal<byte[]> SCRATCH_CRC =
      ThreadLocal.withInitial(() -> new byte[MAX_SIZE]);

  /** Bytes per block of {@link #trackChanges change tracking}. */
  public static final int CHANGE_BLOCK = 64;

  private static final int CHANGE_SHIFT = 6;

  private final BytesStore<?, ?> store;
  private final long base;
  private final int size;
  // The page's bytes when the store is a Java array (BytesStore.wrap(byte[]): the bottom-up tree
  // builder's and the bulk appender's pages), with the page at array[at]: fields are then read and
  // written with array accesses. Through the store, every bulk copy into a heap store asked the VM
  // for the array's base offset (a native call Chronicle makes with a class it does not know
  // statically): a ninth of the rebuild's tree building. Null for mapped and direct memory.
  private final byte[] array;
  private final int at;
  // One bit per CHANGE_BLOCK bytes written since forgetChanges(); null when not tracked.
  private long[] changed;
  // Told of every write, while a transaction's copy records its operations; null otherwise.
  private Writes writes;

  /**
   * Receives the writes made through a page view, in order, once {@link #recordWrites} is set: what
   * a transaction's copy of a page hands its redo record (the log's {@code PageOps}), so that the
   * record says what was done (move these slots, put this entry) rather than which bytes differ.
   */
  public interface Writes {
    /** Bytes {@code [off, off + len)} of {@code page} were just written; read them from it. */
    void put(Page page, int off, int len);

    /** {@code len} bytes were just moved from {@code from} to {@code to} (memmove). */
    void move(int from, int to, int len);

    /** Bytes {@code [off, off + len)} were just zeroed. */
    void zero(int off, int len);
  }

  public Page(BytesStore<?, ?> store, long base, int size) {
    this.store = store;
    this.base = base;
    this.size = size;
    this.array =
        store.underlyingObject() instanceof byte[] a
                && store.start() == 0
                && a.length == store.capacity()
                && base >= 0
                && base + size <= a.length
            ? a
            : null;
    this.at = array == null ? 0 : (int) base;
  }

  /** Checks a page size given by a user: a power of two in 4..64 KiB. */
  public static int checkSize(int pageSize) {
    if (pageSize < MIN_SIZE || pageSize > MAX_SIZE || Integer.bitCount(pageSize) != 1) {
      throw new dev.idxkit.core.InvalidInputException(
          "pageSize : "
              + pageSize
              + " (expected: a power of two in "
              + MIN_SIZE
              + ".."
              + MAX_SIZE
              + ")");
    }
    return pageSize;
  }

  public int size() {
    return size;
  }

  /** Starts tracking which blocks are written (see the class comment); returns this page. */
  public Page trackChanges() {
    changed = new long[((size >>> CHANGE_SHIFT) + 63) >>> 6];
    return this;
  }

  public boolean tracksChanges() {
    return changed != null;
  }

  /** Tells {@code w} of every later write through this view; null stops. */
  public void recordWrites(Writes w) {
    writes = w;
  }

  public Writes recordedWrites() {
    return writes;
  }

  /** Marks every block clean: the page now equals the image it will be diffed against. */
  public void forgetChanges() {
    java.util.Arrays.fill(changed, 0L);
  }

  /**
   * The first block at or after {@code block} written since {@link #forgetChanges}, or -1; a
   * block's bytes are {@code [block * CHANGE_BLOCK, (block + 1) * CHANGE_BLOCK)}.
   */
  public int nextChangedBlock(int block) {
    int blocks = size >>> CHANGE_SHIFT;
    if (block >= blocks) {
      return -1;
    }
    int i = block >>> 6;
    long w = changed[i] & (-1L << (block & 63));
    while (w == 0) {
      if (++i == changed.length) {
        return -1;
      }
      w = changed[i];
    }
    int b = (i << 6) + Long.numberOfTrailingZeros(w);
    return b < blocks ? b : -1;
  }

  private void wrote(int off, int len) {
    if (writes != null) {
      writes.put(this, off, len);
    }
  }

  private void changed(int off, int len) {
    long[] c = changed;
    if (c == null || len <= 0) {
      return;
    }
    int first = off >>> CHANGE_SHIFT;
    int last = (off + len - 1) >>> CHANGE_SHIFT;
    if (first == last) {
      c[first >>> 6] |= 1L << first;
      return;
    }
    for (int b = first; b <= last; b++) {
      c[b >>> 6] |= 1L << b;
    }
  }

  public BytesStore<?, ?> store() {
    return store;
  }

  /** The Java array holding the page when it is one ({@code BytesStore.wrap(byte[])}), or null. */
  byte[] array() {
    return array;
  }

  /** Where the page starts in {@link #array()}. */
  int arrayOffset() {
    return at;
  }

  public long base() {
    return base;
  }

  // ---- header ----

  public PageType type() {
    return PageType.ofCode(getU8(OFF_TYPE));
  }

  public int typeCode() {
    return getU8(OFF_TYPE);
  }

  public long pageNo() {
    return getLong(OFF_PAGE_NO);
  }

  public int areaId() {
    return getU8(OFF_AREA);
  }

  public long lsn() {
    return getLong(OFF_LSN);
  }

  public int storedChecksum() {
    return getInt(OFF_CRC);
  }

  /** Zeroes the page and writes a fresh header for a page of this type, number and area. */
  public void format(PageType type, long pageNo, int areaId) {
    zero(0, size);
    putU8(OFF_TYPE, type.code());
    putU8(OFF_VERSION, FORMAT_VERSION);
    putU8(OFF_AREA, areaId);
    putLong(OFF_PAGE_NO, pageNo);
  }

  /** Changes the page number in the header, keeping the rest (for relocating a page's copy). */
  public void renumber(long pageNo) {
    putLong(OFF_PAGE_NO, pageNo);
  }

  /** Changes the type byte, keeping the rest of the header. */
  public void setType(PageType type) {
    putU8(OFF_TYPE, type.code());
  }

  public void setLsn(long lsn) {
    putLong(OFF_LSN, lsn);
  }

  /** CRC32C of bytes [4, size) as stored now. */
  public int computeChecksum() {
    CRC32C crc = new CRC32C();
    if (store.underlyingObject() instanceof ByteBuffer b && b.isDirect()) {
      // Straight from the direct buffer (the usual case: a transaction's copy being sealed): the
      // intrinsic reads the memory in place, no copy into a scratch array first.
      return checksum(b, Math.toIntExact(base), size, crc);
    }
    if (array != null) {
      crc.update(array, at + 4, size - 4);
      return (int) crc.getValue();
    }
    byte[] scratch = SCRATCH_CRC.get();
    store.read(base + 4, scratch, 0, size - 4);
    crc.update(scratch, 0, size - 4);
    return (int) crc.getValue();
  }

  /**
   * Writes the checksum into the copy of a page image at {@code at} in {@code buf} (the
   * checkpoint's write buffers), as {@link #seal} would have written it into the image; {@code crc}
   * is reset and reused.
   */
  public static void sealCopy(ByteBuffer buf, int at, int size, CRC32C crc) {
    // The byte order putInt writes in (Chronicle Bytes: the platform's).
    buf.duplicate()
        .order(ByteOrder.nativeOrder())
        .putInt(at + OFF_CRC, checksum(buf, at, size, crc));
  }

  /** CRC32C of bytes [4, size) of the page image at {@code at} in {@code buf}. */
  private static int checksum(ByteBuffer buf, int at, int size, CRC32C crc) {
    crc.reset();
    crc.update(buf.duplicate().limit(at + size).position(at + 4));
    return (int) crc.getValue();
  }

  /** Stamps the lsn and the checksum; the last thing done before a page image leaves memory. */
  public void seal(long lsn) {
    setLsn(lsn);
    putInt(OFF_CRC, computeChecksum());
  }

  // ---- field access (offsets are within the page) ----

  public int getU8(int off) {
    return array != null ? array[at + off] & 0xFF : store.readUnsignedByte(base + off);
  }

  public void putU8(int off, int v) {
    changed(off, 1);
    if (array != null) {
      array[at + off] = (byte) v;
    } else {
      store.writeUnsignedByte(base + off, v);
    }
    wrote(off, 1);
  }

  public int getU16(int off) {
    return array != null
        ? (short) U16.get(array, at + off) & 0xFFFF
        : store.readUnsignedShort(base + off);
  }

  public void putU16(int off, int v) {
    changed(off, 2);
    if (array != null) {
      U16.set(array, at + off, (short) v);
    } else {
      store.writeUnsignedShort(base + off, v);
    }
    wrote(off, 2);
  }

  public int getInt(int off) {
    return array != null ? (int) I32.get(array, at + off) : store.readInt(base + off);
  }

  public void putInt(int off, int v) {
    changed(off, 4);
    if (array != null) {
      I32.set(array, at + off, v);
    } else {
      store.writeInt(base + off, v);
    }
    wrote(off, 4);
  }

  public long getLong(int off) {
    return array != null ? (long) I64.get(array, at + off) : store.readLong(base + off);
  }

  public void putLong(int off, long v) {
    changed(off, 8);
    if (array != null) {
      I64.set(array, at + off, v);
    } else {
      store.writeLong(base + off, v);
    }
    wrote(off, 8);
  }

  public void getBytes(int off, byte[] dst, int dstOff, int len) {
    if (array != null) {
      System.arraycopy(array, at + off, dst, dstOff, len);
    } else {
      store.read(base + off, dst, dstOff, len);
    }
  }

  /** Copies {@code len} bytes from {@code src} (any memory) to {@code off} in this page. */
  public void putBytes(int off, BytesStore<?, ?> src, long srcOff, int len) {
    changed(off, len);
    store.write(base + off, src, srcOff, len);
    wrote(off, len);
  }

  /** Copies {@code len} bytes at {@code srcPos} of {@code src} (heap or direct) to {@code off}. */
  public void putBytes(int off, ByteBuffer src, int srcPos, int len) {
    changed(off, len);
    store.write(base + off, src, srcPos, len);
    wrote(off, len);
  }

  public byte[] getBytes(int off, int len) {
    byte[] b = new byte[len];
    getBytes(off, b, 0, len);
    return b;
  }

  public void putBytes(int off, byte[] src, int srcOff, int len) {
    changed(off, len);
    if (array != null) {
      System.arraycopy(src, srcOff, array, at + off, len);
    } else {
      store.write(base + off, src, srcOff, len);
    }
    wrote(off, len);
  }

  /** Copies {@code len} bytes within the page; the ranges may overlap (memmove). */
  public void move(int from, int to, int len) {
    if (len == 0 || from == to) {
      return;
    }
    changed(to, len);
    if (array != null) {
      System.arraycopy(array, at + from, array, at + to, len);
    } else {
      store.move(base + from, base + to, len);
    }
    if (writes != null) {
      writes.move(from, to, len);
    }
  }

  /** Copies {@code len} bytes from another page (or another place in this one, not overlapping). */
  public void copyFrom(Page src, int srcOff, int dstOff, int len) {
    changed(dstOff, len);
    if (array != null && src.array != null) {
      System.arraycopy(src.array, src.at + srcOff, array, at + dstOff, len);
    } else {
      store.write(base + dstOff, src.store, src.base + srcOff, len);
    }
    wrote(dstOff, len);
  }

  /** Copies the whole of {@code src} over this page. */
  public void copyFrom(Page src) {
    copyFrom(src, 0, 0, size);
  }

  public void zero(int off, int len) {
    changed(off, len);
    if (array != null) {
      java.util.Arrays.fill(array, at + off, at + off + len, (byte) 0);
    } else {
      store.zeroOut(base + off, base + off + len);
    }
    if (writes != null) {
      writes.zero(off, len);
    }
  }

  /**
   * Unsigned lexicographic comparison of {@code len} bytes at {@code off} with {@code key[kOff,
   * kOff+kLen)}; a shorter prefix sorts first. Negative, zero or positive like {@link
   * java.util.Comparator}.
   */
  public int compare(int off, int len, byte[] key, int kOff, int kLen) {
    if (array != null) {
      return compareArrays(array, at + off, len, key, kOff, kLen);
    }
    int n = Math.min(len, kLen);
    int i = 0;
    long p = base + off;
    while (i + 8 <= n) {
      long a = Long.reverseBytes(store.readLong(p + i));
      long b = bigEndianLong(key, kOff + i);
      if (a != b) {
        return Long.compareUnsigned(a, b);
      }
      i += 8;
    }
    while (i < n) {
      int a = store.readUnsignedByte(p + i);
      int b = key[kOff + i] & 0xFF;
      if (a != b) {
        return a - b;
      }
      i++;
    }
    return Integer.compare(len, kLen);
  }

  /** Unsigned lexicographic comparison of two byte ranges of (possibly different) pages. */
  public int compare(int off, int len, Page other, int oOff, int oLen) {
    int n = Math.min(len, oLen);
    int i = 0;
    while (i + 8 <= n) {
      long a = Long.reverseBytes(store.readLong(base + off + i));
      long b = Long.reverseBytes(other.store.readLong(other.base + oOff + i));
      if (a != b) {
        return Long.compareUnsigned(a, b);
      }
      i += 8;
    }
    while (i < n) {
      int a = store.readUnsignedByte(base + off + i);
      int b = other.store.readUnsignedByte(other.base + oOff + i);
      if (a != b) {
        return a - b;
      }
      i++;
    }
    return Integer.compare(len, oLen);
  }

  /** {@link #compare(int, int, byte[], int, int)} when the page is an array: the same steps. */
  private static int compareArrays(byte[] a, int aOff, int len, byte[] key, int kOff, int kLen) {
    int n = Math.min(len, kLen);
    int i = 0;
    while (i + 8 <= n) {
      long x = bigEndianLong(a, aOff + i);
      long y = bigEndianLong(key, kOff + i);
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
      i += 8;
    }
    while (i < n) {
      int x = a[aOff + i] & 0xFF;
      int y = key[kOff + i] & 0xFF;
      if (x != y) {
        return x - y;
      }
      i++;
    }
    return Integer.compare(len, kLen);
  }

  private static long bigEndianLong(byte[] b, int i) {
    return (long) BIG_ENDIAN_LONG.get(b, i); // one load and a byte swap, not eight loads
  }
}
