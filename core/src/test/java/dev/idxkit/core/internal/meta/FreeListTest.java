package dev.idxkit.core.internal.meta;

import static org.assertj.core.api.Assertions.assertThat;

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
}
