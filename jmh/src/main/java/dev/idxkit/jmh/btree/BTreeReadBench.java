package dev.idxkit.jmh.btree;

import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.TreeCursor;
import dev.idxkit.jmh.BenchDir;
import dev.idxkit.jmh.BenchmarkBase;
import java.util.SplittableRandom;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Reads of a B+tree of {@code keys} entries (10,000,000 by default) in the real store: point lookup
 * of random existing keys (ops/s = lookups/s) and range scans of {@value #RANGE} consecutive
 * entries from a random start (ops/s = entries/s).
 *
 * <p>Setup, once per trial: a store in a fresh {@link BenchDir}, the tree built bottom-up with full
 * leaves and published ({@link TreeStore#build}), so reads go through the store's mapped area file
 * ({@code PageFile}), not through log images. Each thread opens one {@link BTree} over {@code
 * store.committedPages(area)}; every operation takes {@code store.readLock()}, positions a fresh
 * {@link TreeCursor}, and releases the lock, as the {@code Index} API does per batch.
 *
 * <p>Both kernels check what they read (the RID of the entry found is the key's index; a scan sees
 * exactly {@value #RANGE} entries below its upper bound) and throw if not, so a broken tree cannot
 * produce a fast wrong figure. Tear-down closes the store (unmapping its file) and deletes the
 * directory.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar BTreeReadBench} ({@code -p keys=1000000} for a
 * smaller tree).
 */
public class BTreeReadBench extends BenchmarkBase {
  static final int RANGE = 100;

  /** Seed of thread 0's key stream; thread {@code t} uses {@code SEED + t}. */
  static final long SEED = 20_240_601L;

  /** The store and its tree, shared by every benchmark thread. */
  @State(Scope.Benchmark)
  public static class Tree {
    @Param("10000000")
    public long keys;

    TreeStore store;

    @Setup(Level.Trial)
    public void setup() {
      if (keys < RANGE) {
        throw new IllegalArgumentException("keys : " + keys + " (expected: >= " + RANGE + ")");
      }
      store = TreeStore.createTemporary("btree-read");
      try {
        store.build(keys, 100);
      } catch (RuntimeException e) {
        tearDown();
        throw e;
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      if (store != null) {
        store.close();
        store = null;
      }
    }
  }

  /** One thread's tree object, probe buffers and random stream (fixed seed per thread). */
  @State(Scope.Thread)
  public static class Reader {
    BTree tree;
    SplittableRandom random;
    final byte[] probe = new byte[TreeEntries.KEY_BYTES];
    final byte[] upper = new byte[TreeEntries.KEY_BYTES];

    @Setup(Level.Trial)
    public void setup(Tree t, ThreadParams params) {
      Lock l = t.store.store().readLock();
      l.lock();
      try {
        tree =
            new BTree(
                t.store.store().committedPages(TreeStore.AREA),
                t.store.root(),
                TreeStore.INDEX_NAME);
      } finally {
        l.unlock();
      }
      random = new SplittableRandom(SEED + params.getThreadIndex());
    }
  }

  /** One lookup of a random existing key; returns the RID found. */
  @Benchmark
  public long pointLookup(Tree t, Reader r) {
    long i = r.random.nextLong(t.keys);
    TreeEntries.key(TreeEntries.keyOf(i), r.probe);
    Lock l = t.store.store().readLock();
    l.lock();
    try {
      TreeCursor c = r.tree.cursor();
      if (!c.seek(r.probe) || !c.startsWith(r.probe)) {
        throw new IllegalStateException("key #" + i + " not found");
      }
      long rid = c.rid();
      if (rid != i) {
        throw new IllegalStateException("key #" + i + " found with rid " + rid);
      }
      return rid;
    } finally {
      l.unlock();
    }
  }

  /**
   * The entries of {@code [key(i), key(i + RANGE))} for a random {@code i}, each compared with the
   * upper bound as a range scan does; returns the sum of their RIDs.
   */
  @Benchmark
  @OperationsPerInvocation(RANGE)
  public long rangeScan(Tree t, Reader r) {
    long i = r.random.nextLong(t.keys - RANGE + 1);
    TreeEntries.key(TreeEntries.keyOf(i), r.probe);
    TreeEntries.key(TreeEntries.keyOf(i + RANGE), r.upper);
    Lock l = t.store.store().readLock();
    l.lock();
    try {
      TreeCursor c = r.tree.cursor();
      long sum = 0;
      int n = 0;
      for (boolean on = c.seek(r.probe); on && c.compareTo(r.upper) < 0; on = c.next()) {
        sum += c.rid();
        n++;
      }
      if (n != RANGE) {
        throw new IllegalStateException("scan from key #" + i + " saw " + n + " entries");
      }
      return sum;
    } finally {
      l.unlock();
    }
  }
}
