package dev.idxkit.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongMapTest {
  @Test
  void agreesWithHashMap() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    LongMap<Long> m = new LongMap<>();
    Map<Long, Long> model = new HashMap<>();
    for (int i = 0; i < 300_000; i++) {
      // Small key ranges force long probe runs and wrap-around at the table's end.
      long k = r.nextInt(4) == 0 ? r.nextLong(1L << 50) : r.nextInt(2000);
      switch (r.nextInt(3)) {
        case 0 -> assertThat(m.put(k, (long) i)).isEqualTo(model.put(k, (long) i));
        case 1 ->
            assertThat(m.remove(k))
                .as(Seeds.reproduce(seed, getClass()))
                .isEqualTo(model.remove(k));
        default ->
            assertThat(m.get(k)).as(Seeds.reproduce(seed, getClass())).isEqualTo(model.get(k));
      }
      assertThat(m.size()).isEqualTo(model.size());
    }
    for (long k : m.keys()) {
      assertThat(m.get(k)).isEqualTo(model.get(k));
    }
    m.clear();
    assertThat(m.isEmpty()).isTrue();
  }
}
