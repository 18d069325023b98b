package dev.idxkit.jmh.btree;

import dev.idxkit.core.Rid;
import dev.idxkit.core.spi.KeyEncoder;

/**
 * The entries of the B+tree benchmarks: an 8-byte key followed by the 8-byte RID suffix every
 * idxkit index entry carries, 16 bytes in all.
 *
 * <pre>
 *  0                               8                               16
 *  +-------------------------------+-------------------------------+
 *  | key k ^ 0x8000_0000_0000_0000 | rid (Rid.write), big-endian   |
 *  | big-endian                    |                               |
 *  +-------------------------------+-------------------------------+
 * </pre>
 *
 * The key bytes are a BIGINT's value bytes as {@link KeyEncoder} writes them (sign bit flipped,
 * big-endian) without the one-byte NULL marker, so unsigned byte order is numeric order. The RID
 * makes every entry distinct even when two keys are equal, as in a non-unique index, which is what
 * lets the insert benchmarks draw random keys without checking for duplicates.
 *
 * <p>Key schedule: the tree of {@code n} entries holds keys {@code i * STRIDE} with RID {@code i}
 * for {@code i} in {@code [0, n)}. The gaps let random inserts land between existing keys; the RID
 * of a built entry says which {@code i} it was, so a lookup can check it found the right one.
 */
public final class TreeEntries {
  public static final int KEY_BYTES = 8;
  public static final int ENTRY_BYTES = 16;

  /** Distance between consecutive built keys. */
  public static final long STRIDE = 8;

  private TreeEntries() {}

  /** The key of the {@code i}-th built entry. */
  public static long keyOf(long i) {
    return i * STRIDE;
  }

  /** Writes the 8 key bytes of {@code key} at {@code out[0..8)}. */
  public static void key(long key, byte[] out) {
    putLongBigEndian(KeyEncoder.signFlip(key), out, 0);
  }

  /** Writes the 16-byte entry {@code key || rid} at {@code out[0..16)}. */
  public static void entry(long key, long rid, byte[] out) {
    entry(key, rid, out, 0);
  }

  /** Writes the 16-byte entry {@code key || rid} at {@code out[off..off+16)}. */
  public static void entry(long key, long rid, byte[] out, int off) {
    putLongBigEndian(KeyEncoder.signFlip(key), out, off);
    Rid.write(rid, out, off + KEY_BYTES);
  }

  /** The RID of an entry written by {@link #entry}. */
  public static long ridOfEntry(byte[] entry) {
    return Rid.read(entry, KEY_BYTES);
  }

  /** The key of an entry written by {@link #entry}. */
  public static long keyOfEntry(byte[] entry) {
    return KeyEncoder.signFlip(getLongBigEndian(entry, 0));
  }

  private static void putLongBigEndian(long v, byte[] out, int off) {
    for (int i = 7; i >= 0; i--) {
      out[off + i] = (byte) v;
      v >>>= 8;
    }
  }

  private static long getLongBigEndian(byte[] b, int off) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[off + i] & 0xFF);
    }
    return v;
  }
}
