package dev.idxkit.jmh.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Runs every kernel of {@link SortMergeBench} once on a small input; they check themselves. */
class SortMergeBenchTest {
  @Test
  void everyKernelProducesAllEntriesInOrderAndTearDownDeletesItsFiles() throws Exception {
    SortMergeBench b = new SortMergeBench();
    b.entries = 4_096;
    b.setup();
    Path dir = b.dir.path();
    try {
      assertThat(b.prefixRadixSort()).isEqualTo(4_096);
      assertThat(b.comparatorSort()).isEqualTo(4_096);
      b.arraysSortPrefixes();
      assertThat(b.loserTreeMerge()).isEqualTo(4_096);
      assertThat(b.runWrite()).isEqualTo(4_096);
      assertThat(b.runRead()).isEqualTo(4_096);
    } finally {
      b.tearDown();
    }
    assertThat(Files.exists(dir)).isFalse();
  }
}
