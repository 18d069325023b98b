package dev.idxkit.loader.input;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Eight bytes at a time ("SIMD within a register"), for the CSV scanner and splitter: a {@code
 * long} read from a byte array, and masks of the bytes in it that equal a given byte. To find byte
 * {@code c} in word {@code x}, XOR it with {@code c} in every byte ({@link #broadcast}): the bytes
 * that were {@code c} become zero, which {@link #zeroBytes} or {@link #exactZeros} mark with 0x80.
 */
final class Swar {
  static final long ONES = 0x0101_0101_0101_0101L;
  static final long HIGHS = 0x8080_8080_8080_8080L;
  static final long LOWS = 0x7F7F_7F7F_7F7F_7F7FL;
  static final long LFS = ONES * '\n';
  static final long CRS = ONES * '\r';

  private static final VarHandle WORD =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private Swar() {}

  /** The 8 bytes at {@code b[p]}, the first in the lowest byte. */
  static long word(byte[] b, int p) {
    return (long) WORD.get(b, p);
  }

  /** {@code c} in each of the 8 bytes. */
  static long broadcast(byte c) {
    return ONES * (c & 0xFF);
  }

  /**
   * A byte of 0x80 in each place where {@code y} has a zero byte, at least at the lowest such
   * place; places above it may be marked wrongly (a borrow), so only the lowest mark is used.
   */
  static long zeroBytes(long y) {
    return (y - ONES) & ~y & HIGHS;
  }

  /** 0x80 in each byte of {@code y} that is zero, and nowhere else (no borrow between bytes). */
  static long exactZeros(long y) {
    return ~(((y & LOWS) + LOWS) | y | LOWS);
  }
}
