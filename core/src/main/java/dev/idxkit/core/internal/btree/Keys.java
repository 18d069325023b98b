package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte-string helpers the tree needs beyond {@link Page#compare}: the length of prefix-truncated
 * separators, and keys of node pages read as a whole (in format 2 a key is the page prefix followed
 * by the suffix in its cell, see {@link Node}): compared, copied, tested for a prefix, and their
 * heads.
 *
 * <p>A separator between a left page whose last entry is {@code a} and a right page whose first
 * entry is {@code b} ({@code a < b}) is the shortest prefix of {@code b} that is greater than
 * {@code a}: {@code b[0, mismatch(a, b) + 1)}. It is {@code > a} (it differs from {@code a} upwards
 * at the mismatch, or extends all of {@code a}) and {@code <= b} (a prefix of it), so every entry
 * of the left page sorts below it and every entry of the right page at or above it.
 */
public final class Keys {
  private static final VarHandle BIG_ENDIAN_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private Keys() {}

  /**
   * Length of the separator between {@code a} (a left page's last key) and {@code b > a}: the
   * shortest prefix of {@code b} above {@code a}.
   */
  public static int separatorLength(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    return commonPrefix(a, aOff, aLen, b, bOff, bLen) + 1;
  }

  /**
   * Length of the longest common prefix of {@code a[aOff, aOff + aLen)} and {@code b[bOff, bOff +
   * bLen)}: the index of the first byte that differs, or the shorter length. Eight bytes at a time;
   * for the short keys of an index this is cheaper than {@link java.util.Arrays#mismatch}, whose
   * vectorized loop pays a setup per call. The last bytes of a length that is not a multiple of
   * eight are one more word, the one ending at the shorter length: it overlaps bytes already found
   * equal, so its first difference is the first difference. Index entries are such lengths (a date
   * index's are 13 bytes as the tree builder compares them: NOT NULL marker, date, RID), and
   * neighbours in sorted order often differ only in the RID at their end, where a byte loop would
   * take up to seven unpredictable steps.
   */
  public static int commonPrefix(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    int n = Math.min(aLen, bLen);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long x = (long) BIG_ENDIAN_LONG.get(a, aOff + i) ^ (long) BIG_ENDIAN_LONG.get(b, bOff + i);
      if (x != 0) {
        return i + (Long.numberOfLeadingZeros(x) >>> 3);
      }
    }
    if (i == n) {
      return n;
    }
    if (n >= 8) {
      // The last 8 bytes, overlapping those compared: equal ones give 64 leading zeros, so j + 8
      // = n without a branch (a tie here is rare per call but certain per rebuild: a branch for
      // it was compiled away, then trapped).
      int j = n - 8;
      long x = (long) BIG_ENDIAN_LONG.get(a, aOff + j) ^ (long) BIG_ENDIAN_LONG.get(b, bOff + j);
      return j + (Long.numberOfLeadingZeros(x) >>> 3);
    }
    for (; i < n; i++) {
      if (a[aOff + i] != b[bOff + i]) {
        return i;
      }
    }
    return n;
  }

  // ---- keys of node pages as a whole: page prefix and suffix ({@link Node}) ----

  /**
   * Compares the page prefix (its first {@code pfx} bytes) with the start of {@code key}: negative
   * when every key of the page sorts below {@code key}, positive when every one sorts above it
   * (also when {@code key} is a proper prefix of the page prefix), zero when {@code key} starts
   * with it.
   */
  static int comparePrefix(Page p, int pfx, byte[] key, int kOff, int kLen) {
    int n = Math.min(pfx, kLen);
    int i = 0;
    // Eight bytes at a time; the page side may read a whole word past the prefix, whose area is
    // padded to 8 bytes (Node), and the last word is masked to the bytes compared.
    for (; i < n; i += 8) {
      long a = Long.reverseBytes(p.getLong(Node.HEADER_SIZE + i));
      long b;
      if (kOff + i + 8 <= key.length) {
        b = (long) BIG_ENDIAN_LONG.get(key, kOff + i);
      } else {
        b = 0;
        for (int j = 0; j < 8 && kOff + i + j < key.length; j++) {
          b |= (key[kOff + i + j] & 0xFFL) << (56 - 8 * j);
        }
      }
      if (n - i < 8) {
        long mask = -1L << (64 - 8 * (n - i));
        a &= mask;
        b &= mask;
      }
      if (a != b) {
        return Long.compareUnsigned(a, b);
      }
    }
    return kLen < pfx ? 1 : 0;
  }

  /** Unsigned comparison of key {@code i} with {@code key[kOff, kOff + kLen)}. */
  static int compareKey(Page p, int i, byte[] key, int kOff, int kLen) {
    int s = Node.slot(p, i);
    return compareKey(
        p, Node.prefixLength(p), (s & 0xFFFF) + Node.keyShift(p), s >>> 16, key, kOff, kLen);
  }

  /** Compares the key made of the page prefix ({@code pfx} bytes) and a suffix with {@code key}. */
  static int compareKey(Page p, int pfx, int sOff, int sLen, byte[] key, int kOff, int kLen) {
    if (pfx > 0) {
      int c = comparePrefix(p, pfx, key, kOff, kLen);
      if (c != 0) {
        return c;
      }
    }
    return p.compare(sOff, sLen, key, kOff + pfx, kLen - pfx);
  }

  /** Whether key {@code i} starts with {@code prefix}. */
  static boolean startsWith(Page p, int i, byte[] prefix) {
    int s = Node.slot(p, i);
    return startsWith(p, Node.prefixLength(p), (s & 0xFFFF) + Node.keyShift(p), s >>> 16, prefix);
  }

  /** Whether the key made of the page prefix and a suffix starts with {@code prefix}. */
  static boolean startsWith(Page p, int pfx, int sOff, int sLen, byte[] prefix) {
    int n = prefix.length;
    if (pfx + sLen < n) {
      return false;
    }
    if (n <= pfx) {
      return p.compare(Node.HEADER_SIZE, n, prefix, 0, n) == 0;
    }
    return (pfx == 0 || p.compare(Node.HEADER_SIZE, pfx, prefix, 0, pfx) == 0)
        && p.compare(sOff, n - pfx, prefix, pfx, n - pfx) == 0;
  }

  /** Copies key {@code i} (prefix and suffix) to {@code dst[dstOff..)}; returns its length. */
  static int copyKey(Page p, int i, byte[] dst, int dstOff) {
    int pfx = Node.prefixLength(p);
    int s = Node.slot(p, i);
    copyKey(p, pfx, (s & 0xFFFF) + Node.keyShift(p), s >>> 16, dst, dstOff);
    return pfx + (s >>> 16);
  }

  /** Copies the key made of the page prefix and a suffix to {@code dst[dstOff..)}. */
  static void copyKey(Page p, int pfx, int sOff, int sLen, byte[] dst, int dstOff) {
    if (pfx > 0) {
      p.getBytes(Node.HEADER_SIZE, dst, dstOff, pfx);
    }
    p.getBytes(sOff, dst, dstOff + pfx, sLen);
  }

  /** Key {@code i} as a new array. */
  public static byte[] keyBytes(Page p, int i) {
    byte[] k = new byte[Node.keyLength(p, i)];
    copyKey(p, i, k, 0);
    return k;
  }

  /** The head of {@code k[off, off + len)}: its first 4 bytes, big-endian, zero-padded. */
  static int head(byte[] k, int off, int len) {
    if (len >= Node.HEAD_SIZE) {
      return (int) BIG_ENDIAN_INT.get(k, off);
    }
    int h = 0;
    for (int i = 0; i < Node.HEAD_SIZE; i++) {
      h = (h << 8) | (i < len ? k[off + i] & 0xFF : 0);
    }
    return h;
  }

  /** The head of the {@code len} page bytes at {@code off}. */
  static int head(Page p, int off, int len) {
    if (len >= Node.HEAD_SIZE) {
      return Integer.reverseBytes(p.getInt(off));
    }
    int h = 0;
    for (int i = 0; i < Node.HEAD_SIZE; i++) {
      h = (h << 8) | (i < len ? p.getU8(off + i) : 0);
    }
    return h;
  }

  /**
   * Up to 8 leading bytes of the key made of a node's prefix ({@code pfx} bytes) and the suffix at
   * {@code off}, as a big-endian long, zero-padded; with the length, a prefix id.
   */
  static long prefix8(Page p, int pfx, int off, int len) {
    if (pfx == 0 && len >= 8) {
      return Long.reverseBytes(p.getLong(off));
    }
    // The prefix area is padded to 8 bytes (Node), so its first word can always be read whole.
    long v = pfx == 0 ? 0 : Long.reverseBytes(p.getLong(Node.HEADER_SIZE));
    if (pfx >= 8) {
      return v;
    }
    v &= pfx == 0 ? 0 : -1L << (64 - 8 * pfx);
    int need = Math.min(8 - pfx, len);
    if (need > 0 && off + 8 <= p.size()) {
      long w = Long.reverseBytes(p.getLong(off)) & (-1L << (64 - 8 * need));
      return v | (w >>> (8 * pfx));
    }
    for (int i = 0; i < need; i++) {
      v |= (long) p.getU8(off + i) << (56 - 8 * (pfx + i));
    }
    return v;
  }

  public static String hex(byte[] b, int off, int len) {
    StringBuilder sb = new StringBuilder(Math.min(len, 32) * 2 + 3);
    for (int i = 0; i < Math.min(len, 32); i++) {
      sb.append(Character.forDigit((b[off + i] >> 4) & 0xF, 16))
          .append(Character.forDigit(b[off + i] & 0xF, 16));
    }
    if (len > 32) {
      sb.append("...");
    }
    return sb.toString();
  }
}
