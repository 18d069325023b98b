package dev.idxkit.idxbuild.sort;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The byte layout of a sort run: a sequence of self-checking blocks, written by {@link RunWriter}
 * and read by {@link RunReader}. A run may span several segment files (when its directory reaches
 * its limit); a block never spans two.
 *
 * <pre>
 * block (format version 1), integers big-endian:
 *
 *  0       4       5       6       8              12             16             20
 *  +-------+-------+-------+-------+--------------+--------------+--------------+----------...
 *  | magic | vers. | flags | rsvd  | entry count  | payload len  |   CRC32C     | payload
 *  | IXRB  |  = 1  |  = 0  |  = 0  |   (>= 1)     |  (bytes)     |              |
 *  +-------+-------+-------+-------+--------------+--------------+--------------+----------...
 *
 *  CRC32C covers bytes [0, 16) of the header, then the payload.
 *
 * payload: entry count entries, each
 *
 *  +-----------------+-----------------+-------------------+
 *  | shared (varint) | suffix (varint) | suffix bytes      |
 *  +-----------------+-----------------+-------------------+
 *
 *  entry = first {@code shared} bytes of the previous entry of the block || suffix bytes.
 *  The first entry of every block has shared = 0, so each block decodes on its own.
 *  varint: unsigned LEB128, 7 bits per byte, low group first, at most 5 bytes.
 * </pre>
 *
 * Prefix compression pays because entries are sorted: neighbours share the index id and usually
 * most of the key. A block holds {@code blockSize} bytes at most, except a block holding a single
 * entry larger than that.
 *
 * <p>Where blocks are and what they start with is not in the file: the writer keeps it in memory
 * (the run's sparse index), because runs only live as long as the rebuild that wrote them.
 */
final class RunFormat {
  static final int MAGIC = 0x49585242; // "IXRB"
  static final byte VERSION = 1;
  static final int HEADER = 20;
  static final int CRC_OFFSET = 16;

  /** Largest encoded entry overhead: two 5-byte varints. */
  static final int MAX_ENTRY_OVERHEAD = 10;

  private static final VarHandle BE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  private RunFormat() {}

  static void writeHeader(byte[] block, int count, int payloadLength) {
    BE_INT.set(block, 0, MAGIC);
    block[4] = VERSION;
    block[5] = 0;
    block[6] = 0;
    block[7] = 0;
    BE_INT.set(block, 8, count);
    BE_INT.set(block, 12, payloadLength);
    BE_INT.set(block, CRC_OFFSET, crc(block, payloadLength));
  }

  static int crc(byte[] block, int payloadLength) {
    CRC32C c = new CRC32C();
    c.update(block, 0, CRC_OFFSET);
    c.update(block, HEADER, payloadLength);
    return (int) c.getValue();
  }

  static int readInt(byte[] b, int off) {
    return (int) BE_INT.get(b, off);
  }

  /** Writes {@code v} (>= 0) as a varint at {@code b[pos]}; returns the position after it. */
  static int putVarint(byte[] b, int pos, int v) {
    while ((v & ~0x7F) != 0) {
      b[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b[pos++] = (byte) v;
    return pos;
  }

  static int varintLength(int v) {
    int n = 1;
    while ((v & ~0x7F) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }
}
