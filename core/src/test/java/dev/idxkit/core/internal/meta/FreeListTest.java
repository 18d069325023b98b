package dev.idxkit.core.internal.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.testing.Seeds;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class FreeListTest {
  @Test
  void matchesASetModel() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    FreeList f = new FreeList();
    TreeSet<Long> model = new TreeSet<>();
    PageRuns runs = PageRuns.EMPTY;
    TreeSet<Long> runModel = new TreeSet<>();
    for (int i = 0; i < 50_000; i++) {
      long p = 1 + r.nextInt(2000);
      switch (r.nextInt(4)) {
        case 0 -> {
          if (!model.contains(p)) {
            f.add(p);
            model.add(p);
          }
        }
        case 1 ->
            assertThat(f.remove(p))
                .as(Seeds.reproduce(seed, getClass()))
                .isEqualTo(model.remove(p));
        case 2 -> {
          long t = f.takeFirst();
          Long m = model.pollFirst();
          assertThat(t).as(Seeds.reproduce(seed, getClass())).isEqualTo(m == null ? -1 : m);
        }
        default -> {
          if (runModel.contains(p)) {
            runs = runs.remove(p);
            runModel.remove(p);
          } else {
            runs = runs.add(p);
            runModel.add(p);
          }
        }
      }
      assertThat(f.pageCount()).isEqualTo(model.size());
    }
    assertThat(runs.pageCount()).isEqualTo(runModel.size());
    long prev = -1;
    for (long p : runModel) {
      assertThat(runs.next(prev)).as(Seeds.reproduce(seed, getClass())).isEqualTo(p);
      prev = p;
    }
    assertThat(runs.next(prev)).isEqualTo(-1);
  }

  @Test
  void sortedPagesAreAddedAsTheRunsTheyForm() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    FreeList bulk = new FreeList();
    FreeList oneByOne = new FreeList();
    bulk.addRun(5_000, 10);
    oneByOne.addRun(5_000, 10);
    long[] pages = new long[3_000];
    int n = 0;
    for (long p = 0; p < 10_000 && n < pages.length; p++) {
      if ((p < 5_000 || p >= 5_010) && r.nextInt(4) != 0) {
        pages[n++] = p;
      }
    }
    bulk.addSorted(pages, 0, n);
    for (int i = 0; i < n; i++) {
      oneByOne.add(pages[i]);
    }
    assertThat(bulk).as(Seeds.reproduce(seed, FreeListTest.class)).isEqualTo(oneByOne);
    assertThat(bulk.runCount()).isLessThan(n / 2);
  }

  @Test
  void aSortedPageAlreadyFreeOrGivenTwiceIsRefused() {
    FreeList f = new FreeList();
    f.add(7);
    assertThatThrownBy(() -> f.addSorted(new long[] {5, 6, 7, 8}, 0, 4))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already (partly) free");
    FreeList g = new FreeList();
    assertThatThrownBy(() -> g.addSorted(new long[] {3, 4, 4, 5}, 0, 4))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("page run 4+2 is already (partly) free");
  }
}
