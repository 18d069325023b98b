package dev.idxkit.jmh.btree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.TreeStats;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.jmh.BenchRoot;
import dev.idxkit.jmh.OneThread;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the B+tree benchmarks' set-up, kernels and tear-down on small trees, outside JMH: the
 * kernels must do the work they claim (find the key asked for, scan the range, insert every entry)
 * and the tear-down must leave no files.
 */
class BTreeBenchTest {
  @TempDir Path root;

  @Test
  void readKernelsFindWhatTheyLookFor() {
    try (BenchRoot r = BenchRoot.at(root)) {
      BTreeReadBench bench = new BTreeReadBench();
      BTreeReadBench.Tree tree = new BTreeReadBench.Tree();
      tree.keys = 20_000;
      tree.setup();
      try {
        BTreeReadBench.Reader reader = new BTreeReadBench.Reader();
        reader.setup(tree, OneThread.PARAMS);
        for (int i = 0; i < 5_000; i++) {
          assertThat(bench.pointLookup(tree, reader)).isBetween(0L, tree.keys - 1);
        }
        for (int i = 0; i < 500; i++) {
          long sum = bench.rangeScan(tree, reader);
          // RIDs i .. i + 99 sum to 100 * i + 4950 for some start i.
          assertThat((sum - 4950) % BTreeReadBench.RANGE).isZero();
          assertThat((sum - 4950) / BTreeReadBench.RANGE)
              .isBetween(0L, tree.keys - BTreeReadBench.RANGE);
        }
      } finally {
        tree.tearDown();
      }
    }
    assertThat(root).isEmptyDirectory();
  }

  @Test
  void insertKernelsInsertEveryEntryAndCommitInBatches() {
    try (BenchRoot r = BenchRoot.at(root)) {
      BTreeInsertBench bench = new BTreeInsertBench();
      bench.keys = 20_000;
      bench.batch = 300;
      bench.fill = 100;
      bench.setup();
      try {
        int randoms = 4_000;
        int ordered = 2_000;
        for (int i = 0; i < randoms; i++) {
          bench.randomInsert();
        }
        bench.endIteration();
        for (int i = 0; i < ordered; i++) {
          bench.orderedInsert();
        }
        bench.endIteration();
        assertThat(bench.commits).isEqualTo(14 + 7);

        Lock l = bench.store.store().readLock();
        l.lock();
        try {
          BTree tree =
              new BTree(
                  bench.store.store().committedPages(TreeStore.AREA),
                  bench.store.root(),
                  TreeStore.INDEX_NAME);
          List<String> problems = new ArrayList<>();
          TreeStats stats = tree.check(problems::add);
          assertThat(problems).isEmpty();
          assertThat(stats.entries()).isEqualTo(bench.keys + randoms + ordered);
          // Replay the benchmark's key stream: every entry it inserted is committed.
          SplittableRandom replay = new SplittableRandom(BTreeInsertBench.SEED);
          byte[] e = new byte[TreeEntries.ENTRY_BYTES];
          long rid = bench.keys;
          for (int i = 0; i < randoms; i++) {
            TreeEntries.entry(replay.nextLong(TreeEntries.keyOf(bench.keys)), rid++, e);
            assertThat(tree.contains(e)).as("random entry %d", i).isTrue();
          }
          for (int i = 0; i < ordered; i++) {
            TreeEntries.entry(TreeEntries.keyOf(bench.keys) + i, rid++, e);
            assertThat(tree.contains(e)).as("ordered entry %d", i).isTrue();
          }
        } finally {
          l.unlock();
        }
      } finally {
        bench.tearDown();
      }
    }
    assertThat(root).isEmptyDirectory();
  }

  @Test
  void buildIntoTheStoreAndIntoMemoryAgree() {
    try (BenchRoot r = BenchRoot.at(root)) {
      BuildResult[] results = new BuildResult[4];
      String[] sinks = {"store", "memory"};
      String[] feeds = {"add", "batch"};
      for (int i = 0; i < 4; i++) {
        BTreeBuildBench bench = new BTreeBuildBench();
        bench.keys = 30_000;
        bench.sink = sinks[i % 2];
        bench.feed = feeds[i / 2];
        for (int iteration = 0; iteration < 2; iteration++) {
          bench.setup();
          try {
            results[i] = bench.build();
          } finally {
            bench.tearDown();
          }
        }
        assertThat(root).isEmptyDirectory();
      }
      for (BuildResult result : results) {
        assertThat(result.entries()).isEqualTo(30_000);
        assertThat(result.height()).isEqualTo(results[0].height());
        assertThat(result.pagesWritten()).isEqualTo(results[0].pagesWritten());
      }
    }
  }
}
