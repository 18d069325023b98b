package dev.idxkit.jmh.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Runs {@link ScanSortBench} and {@link ScanMergeBench} once per shape on small buffers; their
 * checks fail on a bad sort or merge.
 */
class ScanSortBenchTest {
  @Test
  void everyShapeSortsAFullBufferAndTheCheckPasses() {
    for (String shape : new String[] {"pk", "partkey", "suppkey", "shipdate", "part_supp"}) {
      ScanSortBench b = new ScanSortBench();
      b.shape = shape;
      b.bufferBytes = 64 * 1024;
      b.setup();
      b.fill();
      assertThat(b.sort()).as(shape).isEqualTo(b.entries()).isGreaterThan(1_000);
      b.check();
    }
  }

  @Test
  void theCheckFailsOnAnUnsortedBuffer() {
    ScanSortBench b = new ScanSortBench();
    b.shape = "partkey";
    b.bufferBytes = 64 * 1024;
    b.setup();
    b.fill();
    // Not sorted: the source refuses, and the check with it.
    assertThatThrownBy(b::check).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void everyShapeMergesAllItsBuffersInOrder() {
    for (String shape : new String[] {"pk", "partkey", "suppkey", "shipdate", "part_supp"}) {
      ScanMergeBench b = new ScanMergeBench();
      b.shape = shape;
      b.bufferBytes = 64 * 1024;
      b.setup();
      assertThat(b.total).as(shape).isGreaterThan(16 * 1_000L);
      assertThat(b.merge()).as(shape).isEqualTo(b.total);
    }
  }
}
