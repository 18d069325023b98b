package dev.idxkit.core.spi;

import dev.idxkit.core.Rid;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Helpers over encoded keys and index entries, all in terms of unsigned byte order: comparison, the
 * upper bound of a prefix range, the 8-byte normalized prefix the rebuilder sorts on, and the RID
 * at the end of an entry.
 */
public final class Keys {
  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private Keys() {}

  /** Unsigned lexicographic comparison; a proper prefix sorts first. Like {@code memcmp}. */
  public static int compare(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    return Arrays.compareUnsigned(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
  }

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /**
   * The smallest byte string greater than every string that starts with {@code prefix}, or null
   * when there is none (the prefix is empty or all 0xFF). A scan of keys starting with {@code p} is
   * then {@code [p, successor(p))}: drop trailing 0xFF bytes and add one to the last byte left.
   */
  public static byte[] successor(byte[] prefix) {
    int n = prefix.length;
    while (n > 0 && prefix[n - 1] == (byte) 0xFF) {
      n--;
    }
    if (n == 0) {
      return null;
    }
    byte[] s = Arrays.copyOf(prefix, n);
    s[n - 1]++;
    return s;
  }

  /**
   * The first 8 bytes of {@code b[off, off+len)} as a big-endian long, zero padded when shorter.
   * Where two keys' prefixes differ, {@link Long#compareUnsigned} of them gives the keys' order;
   * where they are equal the keys must be compared in full (one may be a zero-padded shorter key).
   */
  public static long prefix8(byte[] b, int off, int len) {
    if (len >= 8) {
      return (long) BE_LONG.get(b, off);
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (i < len ? b[off + i] & 0xFF : 0);
    }
    return v;
  }

  /** The RID in the last 8 bytes of the index entry {@code entry[off, off+len)}. */
  public static long rid(byte[] entry, int off, int len) {
    if (len < Rid.BYTES) {
      throw new IllegalArgumentException("entry length : " + len + " (expected: >= 8)");
    }
    return (long) BE_LONG.get(entry, off + len - Rid.BYTES);
  }

  /** Length of the key part of an index entry of {@code entryLength} bytes. */
  public static int keyLength(int entryLength) {
    return entryLength - Rid.BYTES;
  }

  /** Writes {@code rid} in place as the last 8 bytes of an entry that ends at {@code end}. */
  public static void putRid(byte[] entry, int end, long rid) {
    Rid.write(rid, entry, end - Rid.BYTES);
  }
}
