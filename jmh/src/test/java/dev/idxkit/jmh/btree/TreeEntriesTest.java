package dev.idxkit.jmh.btree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TreeEntriesTest {
  @Test
  void unsignedByteOrderOfEntriesIsKeyThenRidOrder() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    byte[] a = new byte[TreeEntries.ENTRY_BYTES];
    byte[] b = new byte[TreeEntries.ENTRY_BYTES];
    for (int i = 0; i < 100_000; i++) {
      long ka = r.nextInt(4) == 0 ? r.nextLong() : r.nextLong(1000) - 500;
      long kb = r.nextInt(4) == 0 ? ka : r.nextLong();
      long ra = r.nextLong(1L << 40);
      long rb = r.nextLong(1L << 40);
      TreeEntries.entry(ka, ra, a);
      TreeEntries.entry(kb, rb, b);
      int expected = ka != kb ? Long.compare(ka, kb) : Long.compare(ra, rb);
      int actual = Arrays.compareUnsigned(a, b);
      if (Integer.signum(actual) != Integer.signum(expected)) {
        throw new AssertionError(
            "entries ("
                + ka
                + ", "
                + ra
                + ") and ("
                + kb
                + ", "
                + rb
                + ") compare "
                + actual
                + "; "
                + Seeds.reproduce(seed, getClass()));
      }
      if (TreeEntries.keyOfEntry(a) != ka || TreeEntries.ridOfEntry(a) != ra) {
        throw new AssertionError(
            "entry ("
                + ka
                + ", "
                + ra
                + ") reads back wrong; "
                + Seeds.reproduce(seed, getClass()));
      }
    }
  }

  @Test
  void keyBytesArePrefixOfEntryBytes() {
    byte[] k = new byte[TreeEntries.KEY_BYTES];
    byte[] e = new byte[TreeEntries.ENTRY_BYTES];
    TreeEntries.key(TreeEntries.keyOf(12345), k);
    TreeEntries.entry(TreeEntries.keyOf(12345), 7, e);
    assertThat(Arrays.copyOf(e, TreeEntries.KEY_BYTES)).isEqualTo(k);
    // 12345 * 8 = 0x181C8, sign bit flipped, big-endian; then the rid.
    assertThat(k).containsExactly(0x80, 0, 0, 0, 0, 0x01, 0x81, 0xC8);
    assertThat(Arrays.copyOfRange(e, 8, 16)).containsExactly(0, 0, 0, 0, 0, 0, 0, 7);
  }
}
