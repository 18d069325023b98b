package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.testing.Seeds;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A RID in an index entry is 8 big-endian bytes (page, then slot), so that entries with equal keys
 * sort by RID: written and read back at any offset, byte by byte as that order needs, and nothing
 * outside the 8 bytes touched.
 */
class RidTest {
  @Test
  void eightBigEndianBytesAtAnyOffset() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    for (int round = 0; round < 1000; round++) {
      long rid = Rid.of(r.nextLong(Rid.MAX_PAGE + 1), r.nextInt(0x10000));
      int off = r.nextInt(9);
      byte[] b = new byte[off + 8 + r.nextInt(3)];
      java.util.Arrays.fill(b, (byte) 0x5A);
      Rid.write(rid, b, off);
      for (int i = 0; i < b.length; i++) {
        byte want = i < off || i >= off + 8 ? 0x5A : (byte) (rid >>> (8 * (7 - (i - off))));
        assertThat(b[i])
            .as("byte %d of %x at %d, %s", i, rid, off, Seeds.reproduce(seed, getClass()))
            .isEqualTo(want);
      }
      assertThat(Rid.read(b, off)).isEqualTo(rid);
      assertThat(Rid.page(rid) << 16 | Rid.slot(rid)).isEqualTo(rid);
    }
  }

  @Test
  void theLargestRidAndTheBounds() {
    long max = Rid.of(Rid.MAX_PAGE, 0xFFFF);
    byte[] b = new byte[8];
    Rid.write(max, b, 0);
    assertThat(b).containsOnly((byte) 0xFF);
    assertThat(Rid.read(b, 0)).isEqualTo(max);
    assertThatThrownBy(() -> Rid.read(b, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> Rid.write(1, b, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> Rid.of(Rid.MAX_PAGE + 1, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Rid.of(0, 0x10000)).isInstanceOf(IllegalArgumentException.class);
  }
}
