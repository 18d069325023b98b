package dev.idxkit.jmh.btree;

import dev.idxkit.core.Durability;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.txn.StoreTxn;
import dev.idxkit.jmh.BenchmarkBase;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Transactional inserts into a B+tree of {@code keys} entries (10,000,000 by default) in the real
 * store: random keys (anywhere in the tree) and ordered keys (each above every key so far, the
 * append pattern of a sequence or a timestamp). One operation is one entry inserted; ops/s =
 * inserts/s.
 *
 * <p>Setup, once per trial: the tree is built bottom-up and published ({@link TreeStore#build}),
 * leaves filled to {@code fill} percent (100, as a rebuild leaves them, by default). The tree is
 * not rebuilt between iterations: every warmup and measurement iteration inserts into the tree the
 * previous ones left, so with the default 8 iterations a random-insert trial ends with roughly
 * {@code keys} plus a few million entries (the count is printed at tear-down).
 *
 * <p>Transactions: inserts go through {@code store.begin(Durability.OFF)}; every {@code batch}
 * inserts (1000 by default) the transaction records the root ({@code setRoot}) and commits, which
 * appends a redo record per page it changed to the write-ahead log (the page's operations, or the
 * changed bytes; a write, no fsync) and installs the images; when the log segment or the dirty
 * pages pass half the store's bounds (512 MiB of log, a sixteenth of the machine's memory up to 1
 * GiB of pages), that commit starts a checkpoint beside the commits (double write, pages home, area
 * fsync, meta write on a thread of its own), and a commit waits for it when the whole bound is
 * passed. All of that is inside the measured invocations, so the figure is what a loader inserting
 * row by row would see, not the in-memory tree alone. The transaction open at the end of an
 * iteration is committed in the iteration's tear-down, outside the measurement: one batch in the
 * hundreds an iteration runs.
 *
 * <p>Entries are {@link TreeEntries}: a random key is uniform in {@code [0, keys * STRIDE)}, so it
 * falls between or on built keys; its RID comes from a counter, so every entry is new. Single
 * threaded ({@link Threads}(1)): the store has one writer.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar BTreeInsertBench} ({@code -p batch=10000},
 * {@code -p fill=90}).
 */
@State(Scope.Benchmark)
@Threads(1)
public class BTreeInsertBench extends BenchmarkBase {
  static final long SEED = 20_240_602L;

  @Param("10000000")
  public long keys;

  /** Inserts per committed transaction. */
  @Param("1000")
  public int batch;

  /** Leaf fill of the initial bottom-up build, percent. */
  @Param("100")
  public int fill;

  TreeStore store;
  final SplittableRandom random = new SplittableRandom(SEED);
  final byte[] scratchEntry = new byte[TreeEntries.ENTRY_BYTES];
  long nextRid;
  long nextOrderedKey;
  long inserted;
  long commits;
  long root;
  StoreTxn txn;
  BTree tree;
  int inBatch;

  @Setup(Level.Trial)
  public void setup() {
    if (keys < 1 || batch < 1) {
      throw new IllegalArgumentException(
          "keys : " + keys + ", batch : " + batch + " (expected: >= 1)");
    }
    store = TreeStore.createTemporary("btree-insert");
    try {
      store.build(keys, fill);
      root = store.root();
    } catch (RuntimeException e) {
      tearDown();
      throw e;
    }
    nextRid = keys;
    nextOrderedKey = TreeEntries.keyOf(keys);
  }

  /** Inserts a random key. */
  @Benchmark
  public int randomInsert() {
    return insert(random.nextLong(TreeEntries.keyOf(keys)));
  }

  /** Inserts the next key above every key in the tree. */
  @Benchmark
  public int orderedInsert() {
    return insert(nextOrderedKey++);
  }

  /** Inserts one entry, committing every {@code batch}; returns the entries in the open batch. */
  int insert(long key) {
    if (txn == null) {
      txn = store.store().begin(Durability.OFF);
      tree = new BTree(txn.pages(TreeStore.AREA), root, TreeStore.INDEX_NAME);
    }
    TreeEntries.entry(key, nextRid++, scratchEntry);
    tree.insert(scratchEntry, 0, TreeEntries.ENTRY_BYTES);
    inserted++;
    if (++inBatch == batch) {
      commit();
    }
    return inBatch;
  }

  void commit() {
    txn.setRoot(TreeStore.INDEX_ID, tree.root());
    txn.commit();
    root = tree.root();
    txn = null;
    tree = null;
    inBatch = 0;
    commits++;
  }

  @TearDown(Level.Iteration)
  public void endIteration() {
    if (txn != null) {
      commit();
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    try {
      if (txn != null) {
        txn.close();
        txn = null;
      }
    } finally {
      if (store != null) {
        System.out.printf(
            "%n[tree: %d built + %d inserted entries in %d commits of <= %d]%n",
            keys, inserted, commits, batch);
        store.close();
        store = null;
      }
    }
  }
}
