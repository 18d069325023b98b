package dev.idxkit.core.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable byte array a record is encoded into, reused from row to row so that encoding allocates
 * only when a record is longer than any before it. Writes are little-endian at absolute positions,
 * matching how records are read back through Chronicle Bytes (native order). Not thread-safe.
 */
public final class RecordBuffer {
  private static final VarHandle LE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE_SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] buf;
  private int length;

  public RecordBuffer() {
    this(256);
  }

  public RecordBuffer(int initialCapacity) {
    if (initialCapacity < 0) {
      throw new IllegalArgumentException(
          "initialCapacity : " + initialCapacity + " (expected: >= 0)");
    }
    buf = new byte[initialCapacity];
  }

  /** The backing array; the record is {@code [0, length())}. Changes when the buffer grows. */
  public byte[] array() {
    return buf;
  }

  public int length() {
    return length;
  }

  public void reset() {
    length = 0;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, length);
  }

  /** Sets the length to {@code n}, growing if needed, and zeroes {@code [0, zeroTo)}. */
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
