package dev.idxkit.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.meta.MetaEdits;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.internal.txn.StoreOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bulk session's freed pages reach the published free lists as runs: whatever order they are
 * freed in, and across areas, the lists come out as if each page had been added on its own.
 */
class BulkWriteFreeTest {
  private static final int PAGE_SIZE = 8192;
  private static final StoreOptions OPTIONS = StoreOptions.defaults().withPageSize(PAGE_SIZE);

  @TempDir Path tmp;

  @Test
  void pagesFreedInAnyOrderArePublishedAsTheRunsTheyForm() {
    long seed = new Random().nextLong();
    System.out.println("BulkWriteFreeTest seed " + seed);
    Random random = new Random(seed);
    Path dir = tmp.resolve("db");
    List<FreeList> expected;
    try (Store s = Store.create(dir, OPTIONS, Map.of(0, "data", 1, "index"), new byte[0])) {
      long[][] written = {write(s, 0, 300), write(s, 1, 200)};
      // Every page but a scattered few, so that the freed pages form runs of many lengths; shuffled
      // and the two areas interleaved.
      List<long[]> freed = new ArrayList<>();
      for (int area = 0; area < 2; area++) {
        for (long page : written[area]) {
          if (random.nextInt(7) != 0) {
            freed.add(new long[] {area, page});
          }
        }
      }
      Collections.shuffle(freed, random);
      expected = s.inspect(lists -> lists);
      for (long[] f : freed) {
        MetaEdits.freeList(expected, (int) f[0]).add(f[1]);
      }
      try (BulkWrite bulk = s.beginBulk()) {
        for (long[] f : freed) {
          bulk.freePage((int) f[0], f[1]);
        }
        bulk.publish();
      }
      assertFreeLists(s, expected, "published", seed);
      assertThat(MetaEdits.freeList(expected, 0).runCount()).isGreaterThan(1);
    }
    try (Store s = Store.open(dir, OPTIONS)) {
      assertFreeLists(s, expected, "after reopening", seed);
    }
  }

  @Test
  void aPageFreedTwiceFailsThePublishAndLeavesThePublishedStateAsItWas() {
    Path dir = tmp.resolve("db");
    try (Store s = Store.create(dir, OPTIONS, Map.of(0, "data"), new byte[0])) {
      long[] pages = write(s, 0, 10);
      List<FreeList> before = s.inspect(lists -> lists);
      try (BulkWrite bulk = s.beginBulk()) {
        bulk.freePage(0, pages[3]);
        bulk.freePage(0, pages[4]);
        bulk.freePage(0, pages[3]);
        assertThatThrownBy(bulk::publish)
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("page run " + pages[3] + "+2") // the second 3 with 4
            .hasMessageContaining("already (partly) free");
      }
      List<FreeList> after = s.inspect(lists -> lists);
      assertThat(after).isEqualTo(before);
    }
  }

  /** Writes {@code count} heap pages into {@code area} in one published bulk session. */
  /** Each of the two areas' free lists in {@code s} is the one in {@code expected}. */
  private static void assertFreeLists(Store s, List<FreeList> expected, String when, long seed) {
    for (int area = 0; area < 2; area++) {
      int a = area;
      FreeList actual = s.inspect(lists -> MetaEdits.freeList(lists, a));
      assertThat(actual)
          .as("area %d %s, seed %d", area, when, seed)
          .isEqualTo(MetaEdits.freeList(expected, area));
    }
  }

  private static long[] write(Store s, int area, int count) {
    long[] pageNos = new long[count];
    try (BulkWrite bulk = s.beginBulk();
        BulkWrite.Stream out = bulk.stream(area)) {
      Page page = new Page(BytesStore.wrap(ByteBuffer.allocateDirect(PAGE_SIZE)), 0, PAGE_SIZE);
      for (int i = 0; i < count; i++) {
        pageNos[i] = out.allocate();
        page.format(PageType.HEAP, pageNos[i], 0);
        out.write(pageNos[i], page);
      }
      bulk.publish();
    }
    return pageNos;
  }
}
