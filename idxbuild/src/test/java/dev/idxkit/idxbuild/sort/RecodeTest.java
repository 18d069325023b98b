package dev.idxkit.idxbuild.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Recode#isIdentity}, which lets the one-part merge skip {@code moveRid}: true exactly when
 * {@code moveRid} gives every long back unchanged, for layouts that differ in nothing, in the first
 * page, the slot width or the RID width (checked on random longs of the source layout).
 */
class RecodeTest {
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());

  @Test
  void identityExactlyWhenMoveRidChangesNothing() {
    SplittableRandom r = Seeds.random(seed);
    byte[] template = {0, 7, 0, 0};
    int[] at = {2, 3};
    int identities = 0;
    for (int round = 0; round < 200; round++) {
      int slotBits = 4 + r.nextInt(10);
      int ridBits = slotBits + 1 + r.nextInt(20);
      long firstPage = 1 + r.nextInt(1000);
      PackedEntries.Layout from =
          new PackedEntries.Layout(template, at, ridBits, slotBits, firstPage);
      PackedEntries.Layout to =
          switch (round % 4) {
            case 0 -> new PackedEntries.Layout(template, at, ridBits, slotBits, firstPage);
            case 1 -> new PackedEntries.Layout(template, at, ridBits, slotBits, firstPage - 1);
            case 2 -> new PackedEntries.Layout(template, at, ridBits + 1, slotBits + 1, firstPage);
            default -> new PackedEntries.Layout(template, at, ridBits + 3, slotBits, firstPage);
          };
      Recode rc = new Recode(from, to);
      boolean unchanged = true;
      for (int i = 0; i < 100; i++) {
        long key = r.nextLong() & 0xFFFF;
        long page = r.nextLong(1L << (ridBits - slotBits));
        long slot = r.nextLong(1L << slotBits);
        long k = key << ridBits | page << slotBits | slot;
        unchanged &= rc.moveRid(k) == k;
      }
      String what = "round " + round + " (case " + round % 4 + "); " + repro;
      assertThat(rc.isIdentity()).as(what).isEqualTo(unchanged);
      identities += unchanged ? 1 : 0;
    }
    assertThat(identities).as(repro).isEqualTo(50);
  }
}
