package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.testing.Seeds;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/**
 * The word-at-a-time byte helpers of {@link Keys} against plain byte-by-byte references, on random
 * inputs with a printed seed: lengths around the 8-byte word boundaries, keys at offsets in arrays
 * that end right after them, and a page prefix compared with keys that share all of it, part of it,
 * or are a prefix of it.
 */
class KeysTest {
  @Test
  void commonPrefixAndComparePrefixAgreeWithByteByByte() {
    long seed = Seeds.seed();
    String repro = Seeds.reproduce(seed, getClass());
    SplittableRandom rnd = Seeds.random(seed);
    Page page = new Page(BytesStore.wrap(new byte[4096]), 0, 4096);
    for (int round = 0; round < 20_000; round++) {
      byte[] prefix = bytes(rnd, rnd.nextInt(1, 40));
      page.format(PageType.LEAF, 1, 0);
      Node.init(page, 0);
      Node.reset(page, Node.FORMAT_2, prefix, 0, prefix.length);
      // A key that shares a random part of the prefix, then goes its own way, at an offset in an
      // array that may end right after it.
      int shared = rnd.nextInt(prefix.length + 1);
      byte[] tail = bytes(rnd, rnd.nextInt(0, 20));
      int kOff = rnd.nextInt(3);
      byte[] array = new byte[kOff + shared + tail.length + (rnd.nextBoolean() ? 0 : 5)];
      System.arraycopy(prefix, 0, array, kOff, shared);
      System.arraycopy(tail, 0, array, kOff + shared, tail.length);
      int kLen = shared + tail.length;
      byte[] key = Arrays.copyOfRange(array, kOff, kOff + kLen);

      int expected = referenceComparePrefix(prefix, key);
      int actual = Keys.comparePrefix(page, prefix.length, array, kOff, kLen);
      assertThat(Integer.signum(actual))
          .as("%s, prefix %s, key %s", repro, hex(prefix), hex(key))
          .isEqualTo(expected);

      int m = Arrays.mismatch(prefix, key);
      int lcp = m < 0 ? prefix.length : m;
      assertThat(Keys.commonPrefix(prefix, 0, prefix.length, array, kOff, kLen))
          .as(repro)
          .isEqualTo(lcp);
    }
  }

  @Test
  void prefix8AgreesWithTheKeysFirstBytes() {
    long seed = Seeds.seed();
    String repro = Seeds.reproduce(seed, getClass());
    SplittableRandom rnd = Seeds.random(seed);
    Page page = new Page(BytesStore.wrap(new byte[4096]), 0, 4096);
    Cells cells = new Cells(4096);
    for (int round = 0; round < 2_000; round++) {
      // Keys sharing a random prefix (0 to 12 bytes), then short random tails: suffixes of 0 to 9
      // bytes, the first of them written at the very end of the page.
      byte[] shared = bytes(rnd, rnd.nextInt(13));
      cells.clear();
      byte[] prev = null;
      for (int i = 0; i < 30; i++) {
        byte[] k = Arrays.copyOf(shared, shared.length + rnd.nextInt(10));
        for (int j = shared.length; j < k.length; j++) {
          k[j] = (byte) rnd.nextInt(256);
        }
        if (prev == null || Arrays.compareUnsigned(prev, k) < 0) {
          cells.add(k, 0, k.length, 0);
          prev = k;
        }
      }
      page.format(PageType.LEAF, 1, 0);
      Node.init(page, 0);
      cells.writeTo(page, rnd.nextBoolean() ? Node.FORMAT_2 : Node.FORMAT_1, 0, cells.size());
      int pfx = Node.prefixLength(page);
      for (int i = 0; i < Node.count(page); i++) {
        byte[] k = Keys.keyBytes(page, i);
        long expected = 0;
        for (int j = 0; j < 8; j++) {
          expected = (expected << 8) | (j < k.length ? k[j] & 0xFF : 0);
        }
        int s = Node.slot(page, i);
        assertThat(Keys.prefix8(page, pfx, s & 0xFFFF, s >>> 16))
            .as("%s, key %s, prefix length %d", repro, hex(k), pfx)
            .isEqualTo(expected);
      }
    }
  }

  /** Sign of (every key starting with prefix) vs key, as comparePrefix documents it. */
  private static int referenceComparePrefix(byte[] prefix, byte[] key) {
    int n = Math.min(prefix.length, key.length);
    int c = Arrays.compareUnsigned(prefix, 0, n, key, 0, n);
    if (c != 0) {
      return Integer.signum(c);
    }
    return key.length < prefix.length ? 1 : 0;
  }

  private static byte[] bytes(SplittableRandom rnd, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (rnd.nextInt(4) == 0 ? 0xFF : rnd.nextInt(3));
    }
    return b;
  }

  private static String hex(byte[] b) {
    return Keys.hex(b, 0, b.length);
  }
}
