package dev.idxkit.jmh.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.jmh.BenchRoot;
import dev.idxkit.jmh.OneThread;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexLookupBenchTest {
  @TempDir Path root;

  @Test
  void lookupsReturnTheRowAskedForAndTearDownLeavesNoFiles() {
    try (BenchRoot r = BenchRoot.at(root)) {
      IndexLookupBench bench = new IndexLookupBench();
      IndexLookupBench.Db db = new IndexLookupBench.Db();
      db.rows = 50_500; // two load transactions, the second partial
      db.setup();
      try {
        assertThat(db.db.table("kv").rowCount()).isEqualTo(db.rows);
        IndexLookupBench.Keys keys = new IndexLookupBench.Keys();
        keys.setup(OneThread.PARAMS);
        for (int i = 0; i < 2_000; i++) {
          long v = bench.indexGet(db, keys);
          assertThat(v % 3).isZero();
          assertThat(v / 3).isBetween(0L, db.rows - 1);
        }
        assertThat(db.index.get(db.rows)).isEmpty();
      } finally {
        db.tearDown();
      }
    }
    assertThat(root).isEmptyDirectory();
  }
}
