package dev.idxkit.jmh.btree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.TreeStats;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.TreeCursor;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.jmh.BenchRoot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TreeStoreTest {
  @TempDir Path dir;

  /** The build benchmark's two feeds, one entry per call and batches, give the same tree. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void buildPublishesACheckedTreeOfEveryEntryInOrder(boolean batches) {
    long n = 50_000;
    try (TreeStore ts = TreeStore.create(dir.resolve("db"))) {
      BuildResult r =
          ts.build(n, 100, batches ? TreeStore::addEntryBatches : TreeStore::addEntries);
      assertThat(r.entries()).isEqualTo(n);
      assertThat(ts.root()).isEqualTo(r.root());
      Store s = ts.store();
      Lock l = s.readLock();
      l.lock();
      try {
        BTree tree = new BTree(s.committedPages(TreeStore.AREA), ts.root(), "t");
        List<String> problems = new ArrayList<>();
        TreeStats stats = tree.check(problems::add);
        assertThat(problems).isEmpty();
        assertThat(stats.entries()).isEqualTo(n);
        assertThat(stats.height()).isGreaterThanOrEqualTo(2);
        assertThat(stats.averageEntrySize()).isEqualTo(TreeEntries.ENTRY_BYTES);

        TreeCursor c = tree.cursor();
        long i = 0;
        byte[] e = new byte[TreeEntries.ENTRY_BYTES];
        for (boolean on = c.first(); on; on = c.next(), i++) {
          c.copyEntry(e, 0);
          assertThat(TreeEntries.keyOfEntry(e)).isEqualTo(TreeEntries.keyOf(i));
          assertThat(c.rid()).isEqualTo(i);
        }
        assertThat(i).isEqualTo(n);
      } finally {
        l.unlock();
      }
    }
  }

  @Test
  void treeSurvivesReopen() {
    long root;
    try (TreeStore ts = TreeStore.create(dir.resolve("db"))) {
      root = ts.build(1000, 90).root();
    }
    try (Store s =
        Store.open(dir.resolve("db"), dev.idxkit.core.internal.txn.StoreOptions.defaults())) {
      assertThat(s.meta().index(TreeStore.INDEX_ID).root()).isEqualTo(root);
    }
  }

  @Test
  void aTemporaryStoreDeletesItsDirectoryOnClose() {
    Path made;
    try (BenchRoot r = BenchRoot.at(dir);
        TreeStore ts = TreeStore.createTemporary("t")) {
      made = ts.store().dir();
      assertThat(made).startsWith(dir);
      ts.build(1000, 100);
    }
    assertThat(made).doesNotExist();
    assertThat(dir).isEmptyDirectory();
  }
}
