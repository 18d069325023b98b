package dev.idxkit.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.testing.MemoryPageAccess;
import dev.idxkit.core.testing.Seeds;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random inserts, deletes, updates and compactions on one heap page against a model ({@code
 * TreeMap<slot, bytes>}): the page must hold exactly the model's records under the same slots
 * (compaction never renumbers), reuse the lowest deleted slot, refuse exactly the records the model
 * says cannot fit (leaving the page untouched), and pass {@link HeapPage#verify} after every
 * operation.
 */
class HeapPageTest {
  private static final int OPS = 4000;

  @ParameterizedTest
  @ValueSource(ints = {4096, 8192, 65536})
  void randomOperationsAgainstModel(int pageSize) {
    long seed = Seeds.seed();
    try {
      run(pageSize, Seeds.random(seed));
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(Seeds.reproduce(seed, getClass()) + ": " + e.getMessage(), e);
    }
  }

  private static void run(int pageSize, SplittableRandom rnd) {
    Page page = newPage(pageSize);
    int max = HeapPage.maxInlineLength(pageSize);
    TreeMap<Integer, byte[]> model = new TreeMap<>();
    TreeMap<Integer, Boolean> stubs = new TreeMap<>();
    int refusedInserts = 0;
    int compactingInserts = 0;
    for (int op = 0; op < OPS; op++) {
      int kind = rnd.nextInt(10);
      if (kind < 5 || model.isEmpty()) {
        byte[] rec = randomRecord(rnd, max);
        boolean stub = rnd.nextInt(8) == 0;
        int expectedSlot = lowestFreeSlot(model);
        boolean fits =
            rec.length + (expectedSlot == slotCount(model) ? 4 : 0) <= free(model, pageSize);
        int gapBefore = gap(page);
        byte[] before = bytes(page);
        int slot = HeapPage.insert(page, rec, 0, rec.length, stub);
        if (fits) {
          assertThat(slot).as("op %d insert %d bytes", op, rec.length).isEqualTo(expectedSlot);
          model.put(slot, rec);
          stubs.put(slot, stub);
          if (gapBefore < rec.length + 4) {
            compactingInserts++;
          }
        } else {
          assertThat(slot).as("op %d insert %d bytes", op, rec.length).isEqualTo(-1);
          assertThat(bytes(page)).as("page unchanged by a refused insert").isEqualTo(before);
          refusedInserts++;
        }
        int probe = 1 + rnd.nextInt(max);
        int probeSlot = lowestFreeSlot(model);
        assertThat(HeapPage.fits(page, probe))
            .as("fits %d bytes", probe)
            .isEqualTo(probe + (probeSlot == slotCount(model) ? 4 : 0) <= free(model, pageSize));
      } else if (kind < 7) {
        int slot = randomLive(model, rnd);
        HeapPage.delete(page, slot);
        model.remove(slot);
        stubs.remove(slot);
      } else if (kind < 9) {
        int slot = randomLive(model, rnd);
        byte[] rec = randomRecord(rnd, max);
        boolean stub = rnd.nextInt(8) == 0;
        boolean fits = rec.length <= free(model, pageSize) + model.get(slot).length;
        byte[] before = bytes(page);
        boolean done = HeapPage.update(page, slot, rec, 0, rec.length, stub);
        assertThat(done)
            .as("op %d update slot %d to %d bytes", op, slot, rec.length)
            .isEqualTo(fits);
        if (done) {
          model.put(slot, rec);
          stubs.put(slot, stub);
        } else {
          assertThat(bytes(page)).as("page unchanged by a refused update").isEqualTo(before);
        }
      } else {
        HeapPage.compact(page);
        assertThat(HeapPage.freeSpace(page)).isEqualTo(gap(page));
      }
      check(page, model, stubs, pageSize);
    }
    assertThat(refusedInserts).as("the page filled up").isPositive();
    assertThat(compactingInserts).as("some inserts needed compaction").isPositive();
    for (int slot : model.keySet().toArray(new Integer[0])) {
      HeapPage.delete(page, slot);
      model.remove(slot);
      check(page, model, stubs, pageSize);
    }
    assertThat(HeapPage.isEmpty(page)).isTrue();
    assertThat(HeapPage.slotCount(page)).isZero();
    assertThat(HeapPage.freeSpace(page)).isEqualTo(pageSize - HeapPage.HEADER_SIZE);
  }

  /** Mostly small records (many slots), sometimes up to the inline maximum. */
  private static byte[] randomRecord(SplittableRandom rnd, int max) {
    int len = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(max) : 1 + rnd.nextInt(Math.min(max, 60));
    byte[] b = new byte[len];
    rnd.nextBytes(b);
    return b;
  }

  private static void check(
      Page page, Map<Integer, byte[]> model, Map<Integer, Boolean> stubs, int pageSize) {
    HeapPage.verify(page, "test");
    assertThat(HeapPage.liveCount(page)).isEqualTo(model.size());
    assertThat(HeapPage.slotCount(page)).isEqualTo(slotCount(model));
    assertThat(HeapPage.freeSpace(page)).isEqualTo(free(model, pageSize));
    // Plain comparisons: this runs after every operation, AssertJ per slot would dominate.
    for (int s = 0; s < HeapPage.slotCount(page); s++) {
      byte[] want = model.get(s);
      if (HeapPage.isLive(page, s) != (want != null)) {
        throw new AssertionError("slot " + s + " live: " + HeapPage.isLive(page, s));
      }
      if (want != null
          && (!Arrays.equals(HeapPage.read(page, s), want)
              || HeapPage.isOverflow(page, s) != stubs.get(s)
              || HeapPage.recordLength(page, s) != want.length)) {
        throw new AssertionError("slot " + s + " differs from the model");
      }
    }
  }

  private static int slotCount(Map<Integer, byte[]> model) {
    return model.isEmpty() ? 0 : ((TreeMap<Integer, byte[]>) model).lastKey() + 1;
  }

  private static int free(Map<Integer, byte[]> model, int pageSize) {
    int used = model.values().stream().mapToInt(b -> b.length).sum();
    return pageSize - HeapPage.HEADER_SIZE - HeapPage.SLOT_SIZE * slotCount(model) - used;
  }

  private static int lowestFreeSlot(Map<Integer, byte[]> model) {
    int s = 0;
    while (model.containsKey(s)) {
      s++;
    }
    return s;
  }

  private static int randomLive(TreeMap<Integer, byte[]> model, SplittableRandom rnd) {
    Integer[] keys = model.keySet().toArray(new Integer[0]);
    return keys[rnd.nextInt(keys.length)];
  }

  private static int gap(Page page) {
    return page.getInt(HeapPage.OFF_DATA_START)
        - (HeapPage.HEADER_SIZE + HeapPage.SLOT_SIZE * HeapPage.slotCount(page));
  }

  private static byte[] bytes(Page page) {
    return page.getBytes(0, page.size());
  }

  static Page newPage(int pageSize) {
    Page page = new Page(BytesStore.wrap(new byte[pageSize]), 0, pageSize);
    page.format(PageType.HEAP, 9, 1);
    HeapPage.init(page);
    return page;
  }

  @ParameterizedTest
  @ValueSource(ints = {4096, 65536})
  void fillWithMaximalRecordsThenEmpty(int pageSize) {
    Page page = newPage(pageSize);
    int max = HeapPage.maxInlineLength(pageSize);
    byte[] rec = new byte[max];
    int n = 0;
    while (HeapPage.insert(page, rec, 0, max) >= 0) {
      n++;
    }
    assertThat(n).isEqualTo(4);
    assertThatThrownBy(() -> HeapPage.insert(page, new byte[max + 1], 0, max + 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "record length : "
                + (max + 1)
                + " (expected: 1.."
                + max
                + " on "
                + pageSize
                + "-byte pages; longer records overflow)");
    // One-byte records: as many as slots and bytes allow, and every slot fits the 16-bit RID.
    Page small = newPage(pageSize);
    int count = 0;
    while (HeapPage.insert(small, new byte[] {7}, 0, 1) >= 0) {
      count++;
    }
    assertThat(count).isEqualTo((pageSize - HeapPage.HEADER_SIZE) / 5);
    HeapPage.verify(small, "test");
    for (int s = 0; s < count; s++) {
      HeapPage.delete(small, s);
    }
    assertThat(HeapPage.isEmpty(small)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {4096})
  void damageIsReported(int pageSize) {
    Page page = newPage(pageSize);
    int s = HeapPage.insert(page, new byte[] {1, 2, 3}, 0, 3);
    page.putU16(HeapPage.HEADER_SIZE + 2, 200); // length past the page end
    assertThatThrownBy(() -> HeapPage.recordOffset(page, s))
        .isInstanceOf(CorruptPageException.class)
        .hasMessage(
            "corrupt page 9 in area 1: slot 0 at [4093, 4293) (expected: within [4093, 4096))");
    assertThatThrownBy(() -> HeapPage.verify(page, "data.area"))
        .isInstanceOf(CorruptPageException.class)
        .hasMessageStartingWith("corrupt page 9 in data.area: slot 0 at [4093, 4293)");
    assertThatThrownBy(() -> HeapPage.delete(page, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("slot : 5 (expected: a live slot of page 9, which has 1 slots)");
  }

  /**
   * The rebuild's scan reads a mapped page's slots from native memory ({@link HeapPage#slotWordAt})
   * once {@link HeapPage#checkSlotArray} found the array within the page: the same words as {@link
   * HeapPage#slotWord}, deleted and overflow slots included; a slot count past the page is refused.
   */
  @Test
  void slotWordsInNativeMemoryAreThePagesAndTheirArrayIsChecked() {
    int pageSize = 4096;
    Page page = newPage(pageSize);
    SplittableRandom rnd = Seeds.random(Seeds.seed());
    for (int i = 0; i < 40; i++) {
      byte[] rec = randomRecord(rnd, 60);
      HeapPage.insert(page, rec, 0, rec.length, i % 7 == 3); // slots 3, 10, ..., 38: stubs
    }
    HeapPage.delete(page, 5);
    HeapPage.delete(page, 18);
    int slots = HeapPage.slotCount(page);
    HeapPage.checkSlotArray(page, slots, new MemoryPageAccess(pageSize));
    BytesStore<?, ?> copy = BytesStore.nativeStoreWithFixedCapacity(pageSize);
    try {
      copy.write(0, bytes(page), 0, pageSize);
      long address = copy.addressForRead(0);
      int overflow = 0;
      int deleted = 0;
      for (int s = 0; s < slots; s++) {
        int w = HeapPage.slotWordAt(address, s);
        assertThat(w).as("slot %d", s).isEqualTo(HeapPage.slotWord(page, s));
        overflow += HeapPage.wordIsOverflow(w) ? 1 : 0;
        deleted += HeapPage.wordOffset(w) == 0 ? 1 : 0;
      }
      assertThat(overflow).isEqualTo(6);
      assertThat(deleted).isEqualTo(2);
    } finally {
      copy.releaseLast();
    }
    page.putU16(HeapPage.OFF_SLOTS, 1100);
    MemoryPageAccess pages = new MemoryPageAccess(pageSize); // named "memory"
    assertThatThrownBy(() -> HeapPage.checkSlotArray(page, HeapPage.slotCount(page), pages))
        .isInstanceOf(CorruptPageException.class)
        .hasMessage("corrupt page 9 in memory: 1100 slots end at byte 4440, past the page's 4096");
  }
}
