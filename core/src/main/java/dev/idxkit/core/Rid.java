package dev.idxkit.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A record id: the heap page and slot of a record, packed into a long.
 *
 * <pre>
 *  63                                              16 15             0
 *  +-------------------------------------------------+---------------+
 *  | page number (48 bits, area-relative)            | slot (16 bits)|
 *  +-------------------------------------------------+---------------+
 * </pre>
 *
 * In index entries a RID follows the key as 8 big-endian bytes, so entries with equal keys sort by
 * RID and every entry is unique.
 */
public final class Rid {
  public static final int BYTES = 8;
  public static final long MAX_PAGE = (1L << 48) - 1;
  // One 8-byte access instead of a byte loop: a unique index's build reads every entry's RID.
  private static final VarHandle BIG_ENDIAN =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private Rid() {}

  public static long of(long page, int slot) {
    if (page < 0 || page > MAX_PAGE) {
      throw new IllegalArgumentException("page : " + page + " (expected: 0.." + MAX_PAGE + ")");
    }
    if (slot < 0 || slot > 0xFFFF) {
      throw new IllegalArgumentException("slot : " + slot + " (expected: 0..65535)");
    }
    return (page << 16) | slot;
  }

  public static long page(long rid) {
    return rid >>> 16;
  }

  public static int slot(long rid) {
    return (int) (rid & 0xFFFF);
  }

  /** Writes {@code rid} as 8 big-endian bytes at {@code b[off]}. */
  public static void write(long rid, byte[] b, int off) {
    BIG_ENDIAN.set(b, off, rid);
  }

  /** Reads 8 big-endian bytes at {@code b[off]}. */
  public static long read(byte[] b, int off) {
    return (long) BIG_ENDIAN.get(b, off);
  }

  public static String toString(long rid) {
    return page(rid) + ":" + slot(rid);
  }
}
