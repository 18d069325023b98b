package dev.idxkit.core.internal.btree;

import dev.idxkit.core.Rid;
import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;

/**
 * Random index entries ({@code key || rid}) shaped to stress a B+tree: short keys from a tiny
 * alphabet (many equal keys with different RIDs), keys sharing long prefixes (long separators),
 * entries at or near the maximum length, and plain random ones.
 */
final class EntryGen {
  static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

  private static final byte[] ALPHABET = {0, 1, 2, 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};

  private final SplittableRandom rnd;
  private final int maxEntry;
  private final byte[][] prefixes;
  private final byte[][] dupKeys;

  EntryGen(SplittableRandom rnd, int maxEntry) {
    this.rnd = rnd;
    this.maxEntry = maxEntry;
    prefixes = new byte[6][];
    for (int i = 0; i < prefixes.length; i++) {
      // Long shared prefixes, one of them nearly the whole maximum entry.
      int len = i == 0 ? maxEntry - 20 : 20 + rnd.nextInt(Math.min(300, maxEntry / 2));
      prefixes[i] = randomBytes(len);
      prefixes[i][0] = (byte) (i * 40);
    }
    dupKeys = new byte[40][];
    for (int i = 0; i < dupKeys.length; i++) {
      dupKeys[i] = randomBytes(1 + rnd.nextInt(24));
    }
  }

  byte[] next() {
    int kind = rnd.nextInt(100);
    byte[] key;
    if (kind < 25) {
      key = new byte[rnd.nextInt(7)];
      for (int i = 0; i < key.length; i++) {
        key[i] = ALPHABET[rnd.nextInt(ALPHABET.length)];
      }
    } else if (kind < 45) {
      key = dupKeys[rnd.nextInt(dupKeys.length)];
    } else if (kind < 70) {
      byte[] p = prefixes[1 + rnd.nextInt(prefixes.length - 1)];
      key = Arrays.copyOf(p, p.length + rnd.nextInt(5));
      for (int i = p.length; i < key.length; i++) {
        key[i] = ALPHABET[rnd.nextInt(ALPHABET.length)];
      }
    } else if (kind < 96) {
      key = randomBytes(1 + rnd.nextInt(40));
    } else {
      // At or a little under the maximum: a shared near-max prefix and a short random tail.
      int len = maxEntry - 8 - rnd.nextInt(4);
      key = Arrays.copyOf(prefixes[0], len);
      for (int i = prefixes[0].length; i < len; i++) {
        key[i] = (byte) rnd.nextInt(3);
      }
    }
    return withRid(key, Rid.of(rnd.nextInt(200), rnd.nextInt(4)));
  }

  byte[] randomBytes(int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) rnd.nextInt(256);
    }
    return b;
  }

  static byte[] withRid(byte[] key, long rid) {
    byte[] e = Arrays.copyOf(key, key.length + Rid.BYTES);
    Rid.write(rid, e, key.length);
    return e;
  }

  static boolean startsWith(byte[] e, byte[] prefix) {
    return e.length >= prefix.length
        && Arrays.equals(e, 0, prefix.length, prefix, 0, prefix.length);
  }
}
