package dev.idxkit.core.internal.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.testing.Seeds;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link PageDiff} against a brute-force model: every differing word is covered, no range starts or
 * ends on an equal word, ranges are ascending and disjoint, and ranges are split exactly where more
 * than {@value PageDiff#MERGE_GAP_WORDS} equal word separates them.
 */
class PageDiffTest {
  @Test
  void workedExampleOfTheClassComment() {
    Page before = RedoPages.page(4096);
    Page after = RedoPages.page(4096);
    after.putLong(8, 0x5858_5858L);
    after.putLong(24, 0x5959_5959L);
    PageDiff d = new PageDiff();
    assertThat(d.compute(before, after)).isEqualTo(1);
    assertThat(d.offset(0)).isEqualTo(8);
    assertThat(d.length(0)).isEqualTo(24);

    after.putLong(24, 0);
    after.putLong(32, 1);
    assertThat(d.compute(before, after)).as("two equal words between: apart").isEqualTo(2);
    assertThat(d.offset(1)).isEqualTo(32);
    assertThat(d.length(1)).isEqualTo(8);
    assertThat(d.changedBytes()).isEqualTo(16);
  }

  @Test
  void equalPagesHaveNoRanges() {
    PageDiff d = new PageDiff();
    assertThat(d.compute(RedoPages.page(8192), RedoPages.page(8192))).isZero();
    assertThat(d.changedBytes()).isZero();
  }

  @Test
  void randomEditsAgainstTheModel() {
    long seed = Seeds.seed();
    String why = Seeds.reproduce(seed, getClass());
    SplittableRandom r = Seeds.random(seed);
    PageDiff d = new PageDiff();
    for (int round = 0; round < 3000; round++) {
      int size = RedoPages.SIZES[r.nextInt(RedoPages.SIZES.length)];
      Page before = RedoPages.randomPage(r, size, 7, 1 + r.nextInt(100));
      Page after = RedoPages.copy(before);
      if (r.nextBoolean()) {
        // A transaction's copy: only the blocks written after the copy are compared (and, with
        // assertions on, checked against the whole-page comparison).
        after.trackChanges();
      }
      RedoPages.randomEdits(r, after);
      int n = d.compute(before, after);
      int words = size / 8;
      boolean[] covered = new boolean[words];
      int prevEnd = -1;
      int total = 0;
      for (int i = 0; i < n; i++) {
        int off = d.offset(i);
        int len = d.length(i);
        assertThat(off % 8).as(why).isZero();
        assertThat(len % 8).as(why).isZero();
        assertThat(len).as(why).isPositive();
        assertThat(off + len).as(why).isLessThanOrEqualTo(size);
        if (prevEnd >= 0) {
          assertThat(off - prevEnd)
              .as("%s: gap before range %d", why, i)
              .isGreaterThan(8 * PageDiff.MERGE_GAP_WORDS);
        }
        assertThat(before.getLong(off)).as(why).isNotEqualTo(after.getLong(off));
        assertThat(before.getLong(off + len - 8))
            .as(why)
            .isNotEqualTo(after.getLong(off + len - 8));
        for (int w = off / 8; w < (off + len) / 8; w++) {
          covered[w] = true;
        }
        prevEnd = off + len;
        total += len;
      }
      assertThat(d.changedBytes()).as(why).isEqualTo(total);
      for (int w = 0; w < words; w++) {
        if (!covered[w]) {
          assertThat(after.getLong(w * 8))
              .as("%s: word %d", why, w)
              .isEqualTo(before.getLong(w * 8));
        }
      }
    }
  }
}
