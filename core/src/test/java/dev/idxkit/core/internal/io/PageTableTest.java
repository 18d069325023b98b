package dev.idxkit.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The page table against a {@link TreeMap} of the same keys: puts, removes, clears, iteration. */
class PageTableTest {
  @Test
  void agreesWithASortedMap() {
    long seed = Seeds.seed();
    String why = Seeds.reproduce(seed, getClass());
    SplittableRandom r = Seeds.random(seed);
    PageTable<Long> t = new PageTable<>();
    TreeMap<Long, Long> model = new TreeMap<>();
    for (int i = 0; i < 300_000; i++) {
      // Mostly dense pages of three areas, some far apart: new chunks, grown chunk arrays, and
      // chunks past the direct ones (from page 2^24), found through the hash map.
      int area = r.nextInt(3) == 0 ? r.nextInt(40) : r.nextInt(3);
      long page =
          switch (r.nextInt(10)) {
            case 0 -> r.nextLong(1L << 24);
            case 1 -> (1L << 24) + r.nextInt(50_000);
            case 2 -> r.nextLong(1L << 47);
            default -> r.nextInt(20_000);
          };
      long k = PageTable.key(area, page);
      switch (r.nextInt(10)) {
        case 0, 1, 2, 3 ->
            assertThat(t.put(area, page, (long) i)).as(why).isEqualTo(model.put(k, (long) i));
        case 4, 5 -> assertThat(t.remove(area, page)).as(why).isEqualTo(model.remove(k));
        case 6 -> {
          if (r.nextInt(2_000) == 0) {
            t.clear();
            model.clear();
          }
        }
        default -> assertThat(t.get(area, page)).as(why).isEqualTo(model.get(k));
      }
      assertThat(t.size()).as(why).isEqualTo(model.size());
      if (r.nextInt(20_000) == 0) {
        assertIterationMatches(t, model, why);
      }
    }
    assertIterationMatches(t, model, why);
    t.clear();
    assertThat(t.isEmpty()).isTrue();
    assertThat(t.sortedKeys()).isEmpty();
  }

  /** A page removed and put again is visited once, and sorted keys come out in key order. */
  @Test
  void aPageRemovedAndPutAgainIsVisitedOnce() {
    PageTable<String> t = new PageTable<>();
    for (int i = 0; i < 200; i++) {
      t.put(1, 5000 + i, "v" + i);
    }
    for (int i = 0; i < 200; i += 2) {
      t.remove(1, 5000 + i);
      t.put(1, 5000 + i, "again" + i);
    }
    t.put(0, 9, "first");
    List<String> seen = new ArrayList<>();
    t.forEachValue(seen::add);
    assertThat(seen).hasSize(201).doesNotHaveDuplicates();
    long[] keys = t.sortedKeys();
    assertThat(keys[0]).isEqualTo(PageTable.key(0, 9));
    assertThat(keys).isSorted().hasSize(201);
  }

  @Test
  void aNullValueOrANegativePageIsRefused() {
    PageTable<String> t = new PageTable<>();
    assertThatThrownBy(() -> t.put(0, 1, null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> t.put(0, -1, "x")).isInstanceOf(IllegalArgumentException.class);
    assertThat(t.get(7, 123_456_789L)).isNull();
  }

  private static void assertIterationMatches(
      PageTable<Long> t, TreeMap<Long, Long> model, String why) {
    assertThat(t.sortedKeys())
        .as(why)
        .containsExactly(model.keySet().stream().mapToLong(Long::longValue).toArray());
    List<Long> values = new ArrayList<>();
    t.forEachValue(values::add);
    assertThat(values).as(why).containsExactlyInAnyOrderElementsOf(model.values());
  }
}
