package dev.idxkit.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.testing.ForwardingPageAccess;
import dev.idxkit.core.testing.MemoryPageAccess;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Overflow chains round-trip at lengths around page boundaries, give every page back on free, clean
 * up after a failed allocation, and turn every kind of damage into a {@link CorruptPageException}
 * naming the area and page.
 */
class OverflowTest {

  @ParameterizedTest
  @ValueSource(ints = {4096, 65536})
  void roundTripAndFreeEverything(int pageSize) {
    long seed = Seeds.seed();
    try {
      SplittableRandom rnd = Seeds.random(seed);
      MemoryPageAccess access = new MemoryPageAccess(pageSize);
      int cap = Overflow.capacity(pageSize);
      int[] lengths = {1, cap - 1, cap, cap + 1, 3 * cap, 3 * cap + 7, 1 + rnd.nextInt(400_000)};
      List<long[]> chains = new ArrayList<>();
      List<byte[]> records = new ArrayList<>();
      for (int len : lengths) {
        byte[] rec = new byte[len + 10];
        rnd.nextBytes(rec);
        int before = access.livePages();
        long first = Overflow.write(access, rec, 5, len);
        assertThat(access.livePages() - before).isEqualTo(Overflow.pagesFor(pageSize, len));
        chains.add(new long[] {first, len});
        records.add(java.util.Arrays.copyOfRange(rec, 5, 5 + len));
      }
      for (int i = 0; i < chains.size(); i++) {
        long[] c = chains.get(i);
        assertThat(Overflow.read(access, c[0], (int) c[1])).isEqualTo(records.get(i));
      }
      for (long[] c : chains) {
        Overflow.free(access, c[0]);
      }
      assertThat(access.livePages()).isZero();
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(Seeds.reproduce(seed, getClass()) + ": " + e.getMessage(), e);
    }
  }

  @Test
  void stubInHeapSlotReadsTheWholeRecord() {
    MemoryPageAccess access = new MemoryPageAccess(4096);
    Page heap = access.allocate(PageType.HEAP);
    HeapPage.init(heap);
    byte[] big = new byte[10_000];
    new SplittableRandom(1).nextBytes(big);
    long first = Overflow.write(access, big, 0, big.length);
    byte[] stub = Overflow.stub(first, big.length);
    int slot = HeapPage.insert(heap, stub, 0, stub.length, true);
    byte[] small = {1, 2, 3};
    int inline = HeapPage.insert(heap, small, 0, small.length);
    assertThat(Overflow.stubLength(heap, slot)).isEqualTo(10_000);
    assertThat(Overflow.stubFirstPage(heap, slot)).isEqualTo(first);
    assertThat(Overflow.readRecord(access, heap, slot)).isEqualTo(big);
    assertThat(Overflow.readRecord(access, heap, inline)).isEqualTo(small);
    assertThatThrownBy(() -> Overflow.stubLength(heap, inline))
        .isInstanceOf(IllegalArgumentException.class);
    Overflow.free(access, first);
    HeapPage.delete(heap, slot);
    assertThat(access.livePages()).isEqualTo(1); // the heap page
  }

  /** A three-page chain of a 4 KiB area: pages 1, 2, 3, the record filling 2.5 pages. */
  private static long[] chain(MemoryPageAccess access) {
    int len = Overflow.capacity(4096) * 5 / 2;
    long first = Overflow.write(access, new byte[len], 0, len);
    Page p1 = access.read(first);
    long second = p1.getLong(Overflow.OFF_NEXT);
    long third = access.read(second).getLong(Overflow.OFF_NEXT);
    return new long[] {first, second, third, len};
  }

  @Test
  void wrongPageTypeIsCorruption() {
    MemoryPageAccess access = new MemoryPageAccess(4096);
    long[] c = chain(access);
    access.write(c[1]).setType(PageType.LEAF);
    assertThatThrownBy(() -> Overflow.read(access, c[0], (int) c[3]))
        .isInstanceOf(CorruptPageException.class)
        .hasMessage(
            "corrupt page 2 in memory: overflow chain from page 1: page 2 has type LEAF,"
                + " overflow version 1 (expected: OVERFLOW, 1)")
        .extracting(e -> ((CorruptPageException) e).page())
        .isEqualTo(2L);
    assertThatThrownBy(() -> Overflow.free(access, c[0])).isInstanceOf(CorruptPageException.class);
    assertThat(access.livePages()).as("nothing freed from a damaged chain").isEqualTo(3);
  }

  @Test
  void chainLongerThanTheLengthIsCorruption() {
    MemoryPageAccess access = new MemoryPageAccess(4096);
    long[] c = chain(access);
    long extra = Overflow.write(access, new byte[10], 0, 10);
    access.write(c[2]).putLong(Overflow.OFF_NEXT, extra);
    assertThatThrownBy(() -> Overflow.read(access, c[0], (int) c[3]))
        .isInstanceOf(CorruptPageException.class)
        .hasMessage(
            "corrupt page 3 in memory: overflow chain from page 1: page 3 links on to page 4"
                + " after all "
                + c[3]
                + " bytes (expected: the end)");
  }

  @Test
  void chainShorterThanTheLengthIsCorruption() {
    MemoryPageAccess access = new MemoryPageAccess(4096);
    long[] c = chain(access);
    access.write(c[1]).putLong(Overflow.OFF_NEXT, 0);
    assertThatThrownBy(() -> Overflow.read(access, c[0], (int) c[3]))
        .isInstanceOf(CorruptPageException.class)
        .hasMessage(
            "corrupt page 2 in memory: overflow chain from page 1: page 2 ends the chain after"
                + " 8112 of "
                + c[3]
                + " bytes");
    access.write(c[1]).putLong(Overflow.OFF_NEXT, c[2]);
    access.write(c[1]).putInt(Overflow.OFF_USED, 100);
    assertThatThrownBy(() -> Overflow.read(access, c[0], (int) c[3]))
        .isInstanceOf(CorruptPageException.class)
        .hasMessage(
            "corrupt page 2 in memory: overflow chain from page 1: page 2 holds 100 bytes"
                + " (expected: 4056, at byte 4056 of "
                + c[3]
                + ")");
  }

  @Test
  void cycleIsCorruption() {
    MemoryPageAccess access = new MemoryPageAccess(4096);
    long[] c = chain(access);
    access.write(c[1]).putLong(Overflow.OFF_NEXT, c[0]);
    assertThatThrownBy(() -> Overflow.read(access, c[0], (int) c[3]))
        .isInstanceOf(CorruptPageException.class)
        .hasMessage(
            "corrupt page 1 in memory: overflow chain from page 1: page 1 is reached twice"
                + " (a cycle in the chain)");
    assertThatThrownBy(() -> Overflow.free(access, c[0]))
        .isInstanceOf(CorruptPageException.class)
        .hasMessageContaining("a cycle");
    assertThat(access.livePages()).isEqualTo(3);
  }

  @Test
  void failedAllocationFreesThePagesAlreadyTaken() {
    MemoryPageAccess memory = new MemoryPageAccess(4096);
    PageAccess failing = new FailingAllocation(memory, 3);
    int len = Overflow.capacity(4096) * 4;
    assertThatThrownBy(() -> Overflow.write(failing, new byte[len], 0, len))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("disk full (test)");
    assertThat(memory.livePages()).isZero();
  }

  /** Lets {@code allowed} allocations through, then fails every one. */
  private static final class FailingAllocation extends ForwardingPageAccess {
    private int allowed;

    FailingAllocation(PageAccess delegate, int allowed) {
      super(delegate);
      this.allowed = allowed;
    }

    @Override
    public Page allocate(PageType type) {
      if (allowed-- <= 0) {
        throw new IllegalStateException("disk full (test)");
      }
      return in.allocate(type);
    }
  }
}
