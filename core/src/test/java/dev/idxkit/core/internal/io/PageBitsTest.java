package dev.idxkit.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.util.BitSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link PageBits} against {@link BitSet}: single pages and ranges, across words and growth. */
class PageBitsTest {
  @Test
  void marksWhatWasMarkedAndNothingElse() {
    long seed = Seeds.seed();
    SplittableRandom random = Seeds.random(seed);
    PageBits bits = new PageBits();
    BitSet model = new BitSet();
    int span = 5_000;
    for (int step = 0; step < 400; step++) {
      int first = random.nextInt(span);
      if (random.nextBoolean()) {
        bits.set(first);
        model.set(first);
      } else {
        // Lengths from 0 past a few words, so ranges start, end and lie within one word anywhere.
        int count = random.nextInt(200);
        bits.set(first, count);
        model.set(first, first + count);
      }
    }
    for (int p = 0; p < span + 300; p++) {
      assertThat(bits.get(p))
          .as("page %d; %s", p, Seeds.reproduce(seed, PageBitsTest.class))
          .isEqualTo(model.get(p));
    }
  }

  @Test
  void rangesOnWordBoundariesSetExactlyTheirPages() {
    PageBits bits = new PageBits();
    bits.set(64, 64); // exactly the second word
    bits.set(191, 2); // the last page of the third word and the first of the fourth
    bits.set(300, 0); // nothing
    for (int p = 0; p < 320; p++) {
      boolean expected = p >= 64 && p < 128 || p == 191 || p == 192;
      assertThat(bits.get(p)).as("page %d", p).isEqualTo(expected);
    }
  }
}
