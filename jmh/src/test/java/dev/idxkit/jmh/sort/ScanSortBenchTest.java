package dev.idxkit.jmh.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.idxbuild.sort.EntrySource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link ScanSortBench} and {@link ScanMergeBench} once per shape on small buffers; their
 * checks fail on a bad sort or merge.
 */
class ScanSortBenchTest {
  private static final List<String> SHAPES =
      List.of("pk", "partkey", "suppkey", "shipdate", "part_supp");

  @Test
  void everyShapeSortsAFullBufferAndTheCheckPasses() {
    for (String shape : SHAPES) {
      ScanSortBench b = filled(shape);
      assertThat(b.sort()).as(shape).isEqualTo(b.entries()).isGreaterThan(1_000);
      b.check();
    }
  }

  /** The counts the bench's description gives for its 16 MiB buffers. */
  @Test
  void aFullBufferHoldsTheEntriesTheDescriptionSays() {
    long full = ScanSortBench.BUFFER_BYTES;
    assertThat(ScanSortBench.entries("pk", full, 1).length).isEqualTo(419_430);
    assertThat(ScanSortBench.entries("partkey", full, 1).length).isEqualTo(541_200);
    assertThat(ScanSortBench.entries("shipdate", full, 1).length).isEqualTo(541_200);
    assertThat(ScanSortBench.entries("part_supp", full, 1).length).isEqualTo(466_033);
  }

  /** The check both benches' results go through: order and count. */
  @Test
  void theCheckFailsOnEntriesOutOfOrderOrMissing() {
    byte[] a = {0, 3, 1, 5};
    byte[] b = {0, 3, 1, 6};
    assertThat(SortMergeBench.checkSorted(source(a, b), 2)).isEqualTo(2);
    assertThatThrownBy(() -> SortMergeBench.checkSorted(source(b, a), 2))
        .hasMessage("entries out of order at 1");
    assertThatThrownBy(() -> SortMergeBench.checkSorted(source(a, b), 3))
        .hasMessage("2 entries (expected: 3)");
    // A buffer not sorted at all: its source refuses, and the bench's check with it.
    ScanSortBench unsorted = filled("partkey");
    assertThatThrownBy(unsorted::check).isInstanceOf(IllegalStateException.class);
  }

  /**
   * GroupSortBench's sort, twice per shape (the first rewrites the buffers, the next only sorts):
   * each result holds every entry, in order.
   */
  @Test
  void everyShapeSortsAsOneGroupEachTime() {
    for (String shape : SHAPES) {
      GroupSortBench b = new GroupSortBench();
      b.shape = shape;
      b.bufferBytes = 64 * 1024;
      b.setup();
      for (int round = 0; round < 2; round++) {
        assertThat(b.sort()).as(shape).isEqualTo(b.total).isGreaterThan(1_000);
        assertThat(SortMergeBench.checkSorted(b.group.merge(null, null), b.total))
            .as(shape + " in order")
            .isEqualTo(b.total);
      }
    }
  }

  @Test
  void everyShapeMergesAllItsBuffersInOrder() {
    for (String shape : SHAPES) {
      for (String source : new String[] {"buffers", "sorted"}) {
        ScanMergeBench b = new ScanMergeBench();
        b.shape = shape;
        b.source = source;
        b.bufferBytes = 64 * 1024;
        b.setup();
        assertThat(b.total).as(shape + " " + source).isGreaterThan(16 * 1_000L);
        assertThat(b.merge()).as(shape + " " + source).isEqualTo(b.total);
      }
    }
  }

  /** A sort bench of {@code shape} with one small buffer filled, not yet sorted. */
  private static ScanSortBench filled(String shape) {
    ScanSortBench b = new ScanSortBench();
    b.shape = shape;
    b.bufferBytes = 64 * 1024;
    b.setup();
    b.fill();
    return b;
  }

  /** The entries in the order given. */
  private static EntrySource source(byte[]... entries) {
    return new EntrySource() {
      private int i = -1;

      @Override
      public boolean next() {
        return ++i < entries.length;
      }

      @Override
      public byte[] array() {
        return entries[i];
      }

      @Override
      public int offset() {
        return 0;
      }

      @Override
      public int length() {
        return entries[i].length;
      }

      @Override
      public void close() {}
    };
  }
}
