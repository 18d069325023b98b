package dev.idxkit.core.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable byte array, reused from key to key and record to record so that encoding allocates
 * only when a value is longer than any before it. One buffer serves the rebuilder's scan path for
 * millions of keys; {@link #array()} exposes the storage so callers can copy or compare without a
 * {@link #toByteArray()} copy. Not thread-safe.
 *
 * <p>Two ways of writing, one per kind of bytes, never mixed in one buffer:
 *
 * <ul>
 *   <li><b>Keys and index entries</b> are appended at the end, multi-byte values big-endian ({@link
 *       #appendLong} etc.): keys compare as unsigned bytes, so the most significant byte comes
 *       first. {@link #escapeAndTerminate} and {@link #invert} finish a string or DESC column in
 *       place.
 *   <li><b>Records</b> are laid out at absolute positions, little-endian, matching how they are
 *       read back through Chronicle Bytes (native order): {@code start} sizes the record, then
 *       {@code putInt(at, v)} and the like fill it ({@link RecordLayout}, same package).
 * </ul>
 */
public final class GrowableBytes {
  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE_SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE_SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] buf;
  private int length;

  public GrowableBytes() {
    this(64);
  }

  public GrowableBytes(int initialCapacity) {
    if (initialCapacity < 0) {
      throw new IllegalArgumentException(
          "initialCapacity : " + initialCapacity + " (expected: >= 0)");
    }
    buf = new byte[initialCapacity];
  }

  /** The backing array; valid bytes are {@code [0, length())}. Changes when the buffer grows. */
  public byte[] array() {
    return buf;
  }

  public int length() {
    return length;
  }

  public void reset() {
    length = 0;
  }

  /**
   * Cuts the buffer back to {@code newLength} bytes, e.g. to drop a suffix after a failed append.
   */
  public void truncate(int newLength) {
    if (newLength < 0 || newLength > length) {
      throw new IndexOutOfBoundsException(
          "newLength : " + newLength + " (expected: 0.." + length + ")");
    }
    length = newLength;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, length);
  }

  // ---- keys: appended, big-endian ----

  /** Makes room for {@code n} more bytes and returns the offset where they start. */
  public int reserve(int n) {
    int need = length + n;
    if (need > buf.length) {
      if (need < 0) {
        throw new IllegalStateException("byte buffer would exceed 2 GiB");
      }
      buf = Arrays.copyOf(buf, Math.max(need, buf.length * 2));
    }
    return length;
  }

  /** Marks {@code n} bytes written directly into {@link #array()} after {@link #reserve(int)}. */
  public void advance(int n) {
    length += n;
  }

  public void append(int b) {
    reserve(1);
    buf[length++] = (byte) b;
  }

  public void append(byte[] src, int off, int len) {
    reserve(len);
    System.arraycopy(src, off, buf, length, len);
    length += len;
  }

  public void appendShort(int v) {
    reserve(2);
    BE_SHORT.set(buf, length, (short) v);
    length += 2;
  }

  public void appendInt(int v) {
    reserve(4);
    BE_INT.set(buf, length, v);
    length += 4;
  }

  public void appendLong(long v) {
    reserve(8);
    BE_LONG.set(buf, length, v);
    length += 8;
  }

  /** Appends a RID as the 8 big-endian bytes that end every index entry. */
  public void appendRid(long rid) {
    appendLong(rid);
  }

  /**
   * Escapes every 0x00 in {@code [from, length())} as 0x00 0xFF and appends the terminator 0x00
   * 0x00, turning raw bytes already copied into the buffer into a self-delimiting key column. Works
   * in place: the common case (no zero byte) costs one scan and no copy.
   */
  public void escapeAndTerminate(int from) {
    int zeros = 0;
    for (int i = from; i < length; i++) {
      if (buf[i] == 0) {
        zeros++;
      }
    }
    if (zeros > 0) {
      reserve(zeros);
      // Walk backwards so every byte moves at most once and never overwrites unread input.
      int src = length - 1;
      int dst = length + zeros - 1;
      while (src >= from && src != dst) {
        byte b = buf[src--];
        if (b == 0) {
          buf[dst--] = (byte) 0xFF;
        }
        buf[dst--] = b;
      }
      length += zeros;
    }
    reserve(2);
    buf[length++] = 0;
    buf[length++] = 0;
  }

  /** Inverts every byte of {@code [from, length())}: how a DESC column is written. */
  public void invert(int from) {
    for (int i = from; i < length; i++) {
      buf[i] = (byte) ~buf[i];
    }
  }

  // ---- records: absolute positions, little-endian ----

  /**
   * Starts a record of {@code n} bytes: sets the length, growing if needed (the old bytes are not
   * kept), and zeroes {@code [0, zeroTo)}; a new array is all zeros already.
   */
  void start(int n, int zeroTo) {
    if (n > buf.length) {
      buf = new byte[Math.max(n, Math.min(Integer.MAX_VALUE - 8, buf.length * 2))];
    } else {
      Arrays.fill(buf, 0, zeroTo, (byte) 0);
    }
    length = n;
  }

  void putByte(int pos, int v) {
    buf[pos] = (byte) v;
  }

  void putShort(int pos, int v) {
    LE_SHORT.set(buf, pos, (short) v);
  }

  void putInt(int pos, int v) {
    LE_INT.set(buf, pos, v);
  }

  void putLong(int pos, long v) {
    LE_LONG.set(buf, pos, v);
  }

  void putBytes(int pos, byte[] src) {
    System.arraycopy(src, 0, buf, pos, src.length);
  }
}
