package dev.idxkit.jmh.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.jmh.BenchRoot;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PageReadBenchTest {
  @TempDir Path root;

  @Test
  void everyRouteReadsTheRandomPageItAskedForAndTearDownReleasesAll() throws Exception {
    try (BenchRoot r = BenchRoot.at(root)) {
      PageReadBench bench = new PageReadBench();
      bench.fileMiB = 3;
      bench.setup();
      try {
        assertThat(bench.pages).isEqualTo(3 * 128);
        for (int i = 0; i < 2_000; i++) {
          assertThat(bench.mapped()).isBetween(0L, bench.pages - 1);
          assertThat(bench.mappedVerifyEveryRead()).isBetween(0L, bench.pages - 1);
          assertThat(bench.channelDirect()).isBetween(0L, bench.pages - 1);
          assertThat(bench.channelHeap()).isBetween(0L, bench.pages - 1);
        }
      } finally {
        bench.tearDown();
      }
      assertThat(bench.channel.isOpen()).isFalse();
      assertThat(bench.directStore.refCount()).isZero();
    }
    assertThat(root).isEmptyDirectory();
  }
}
