package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Byte-string helpers the tree needs beyond {@link Page#compare}: comparison with off-page memory
 * (the rebuilder's buffers) and the length of prefix-truncated separators.
 *
 * <p>A separator between a left page whose last entry is {@code a} and a right page whose first
 * entry is {@code b} ({@code a < b}) is the shortest prefix of {@code b} that is greater than
 * {@code a}: {@code b[0, mismatch(a, b) + 1)}. It is {@code > a} (it differs from {@code a} upwards
 * at the mismatch, or extends all of {@code a}) and {@code <= b} (a prefix of it), so every entry
 * of the left page sorts below it and every entry of the right page at or above it.
 */
public final class Keys {
  private Keys() {}

  /** Length of the separator between {@code a} (a left page's last entry) and {@code b > a}. */
  public static int separatorLength(Page a, int aOff, int aLen, Page b, int bOff, int bLen) {
    int n = Math.min(aLen, bLen);
    int i = 0;
    while (i < n && a.getU8(aOff + i) == b.getU8(bOff + i)) {
      i++;
    }
    return i + 1;
  }

  public static int separatorLength(Page a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    int n = Math.min(aLen, bLen);
    int i = 0;
    while (i < n && a.getU8(aOff + i) == (b[bOff + i] & 0xFF)) {
      i++;
    }
    return i + 1;
  }

  public static int separatorLength(
      Page a, int aOff, int aLen, BytesStore<?, ?> b, long bOff, int bLen) {
    int n = Math.min(aLen, bLen);
    int i = 0;
    while (i < n && a.getU8(aOff + i) == b.readUnsignedByte(bOff + i)) {
      i++;
    }
    return i + 1;
  }

  /** Unsigned comparison of {@code a}'s bytes with {@code b[bOff, bOff + bLen)}, like Page's. */
  public static int compare(Page a, int aOff, int aLen, BytesStore<?, ?> b, long bOff, int bLen) {
    BytesStore<?, ?> as = a.store();
    long ap = a.base() + aOff;
    int n = Math.min(aLen, bLen);
    int i = 0;
    while (i + 8 <= n) {
      long x = Long.reverseBytes(as.readLong(ap + i));
      long y = Long.reverseBytes(b.readLong(bOff + i));
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
      i += 8;
    }
    while (i < n) {
      int x = as.readUnsignedByte(ap + i);
      int y = b.readUnsignedByte(bOff + i);
      if (x != y) {
        return x - y;
      }
      i++;
    }
    return Integer.compare(aLen, bLen);
  }

  /** Up to 8 leading bytes as a big-endian long, zero-padded; with the length, a prefix id. */
  static long prefix8(Page p, int off, int len) {
    if (len >= 8) {
      return Long.reverseBytes(p.getLong(off));
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (i < len ? p.getU8(off + i) : 0);
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
