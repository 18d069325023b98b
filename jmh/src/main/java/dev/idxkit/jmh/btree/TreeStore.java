package dev.idxkit.jmh.btree;

import dev.idxkit.core.Durability;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.internal.txn.StoreOptions;
import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.KeyEncoder;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageSink;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.jmh.BenchDir;
import java.nio.file.Path;
import java.util.Map;

/**
 * A store with one B+tree of {@link TreeEntries} in it, built bottom-up the way the rebuilder
 * builds an index: the fixture of the B+tree benchmarks.
 *
 * <p>Call order: {@link #create} a store in an empty directory, {@link #build} the tree once (one
 * bulk session: a {@link TreeBuilder} writes leaves sequentially through {@link
 * BulkWrite#stream(int)}, and one publish makes the root live as the state of index {@value
 * #INDEX_ID}); then readers take {@code store().readLock()} and read {@code
 * store().committedPages(AREA)} from {@link #root()}, and writers open {@code store().begin(...)}
 * transactions and record the new root with {@code setRoot(INDEX_ID, root)}. {@link #close()}
 * closes the store (unmapping its files); the caller deletes the directory, unless the store was
 * made by {@link #createTemporary}, whose directory {@code close()} deletes too.
 *
 * <p>Disk: about 18 bytes per entry in leaves packed to 100 % (node format 2: the 6 key bytes a
 * leaf's entries share stored once, a 10-byte suffix and an 8-byte slot per entry), so 10 million
 * entries take some 183 MB in {@value #AREA_NAME}.area. Memory: the builder's O(height) pages and
 * the bulk writer's 16 MiB of buffers.
 */
public final class TreeStore implements AutoCloseable {
  public static final int AREA = 0;
  public static final String AREA_NAME = "tree";
  public static final int INDEX_ID = 0;
  public static final String INDEX_NAME = "bench_tree";

  private final Store store;
  private final BenchDir owned;

  private TreeStore(Store store, BenchDir owned) {
    this.store = store;
    this.owned = owned;
  }

  /**
   * A new store in {@code dir} (absent or empty) with one area. Transactions on it default to
   * {@link Durability#OFF}: the benchmarks measure the tree and the log writes, not fsync latency.
   */
  public static TreeStore create(Path dir) {
    return new TreeStore(newStore(dir), null);
  }

  /**
   * A new store as {@link #create} makes it, in a fresh {@link BenchDir} named after {@code
   * prefix}; {@link #close()} deletes that directory after closing the store.
   */
  public static TreeStore createTemporary(String prefix) {
    BenchDir dir = BenchDir.create(prefix);
    try {
      return new TreeStore(newStore(dir.resolve("db")), dir);
    } catch (RuntimeException e) {
      dir.close();
      throw e;
    }
  }

  private static Store newStore(Path dir) {
    StoreOptions options = StoreOptions.defaults().withDurability(Durability.OFF);
    return Store.create(dir, options, Map.of(AREA, AREA_NAME), new byte[0]);
  }

  public Store store() {
    return store;
  }

  /** The published root of the tree. */
  public long root() {
    IndexState s = store.meta().index(INDEX_ID);
    if (s == null) {
      throw new IllegalStateException("no tree in " + store.dir() + " (build it first)");
    }
    return s.root();
  }

  /**
   * Builds the tree of entries {@code 0 .. n-1} (see {@link TreeEntries}) with leaves filled to
   * {@code leafFillPercent}, and publishes it. Replaces nothing: call once per store.
   */
  public BuildResult build(long n, int leafFillPercent) {
    return build(n, leafFillPercent, TreeStore::addEntries);
  }

  /** How a build's entries reach the builder: {@link #addEntries} or {@link #addEntryBatches}. */
  @FunctionalInterface
  interface Feed {
    void add(TreeBuilder builder, long n);
  }

  /** {@link #build(long, int)} with the entries given by {@code feed}. */
  BuildResult build(long n, int leafFillPercent, Feed feed) {
    if (n < 0) {
      throw new IllegalArgumentException("n : " + n + " (expected: >= 0)");
    }
    try (BulkWrite bulk = store.beginBulk()) {
      BuildResult r;
      try (BulkWrite.Stream stream = bulk.stream(AREA)) {
        TreeBuilder builder =
            new TreeBuilder(sinkOf(stream), store.pageSize(), AREA, leafFillPercent, INDEX_NAME);
        feed.add(builder, n);
        r = builder.finish();
      }
      bulk.meta().index(INDEX_ID, new IndexState(r.root(), IndexStatus.ACTIVE));
      bulk.publish();
      return r;
    }
  }

  /** Adds the entries {@code 0 .. n-1} in order; the build benchmark's inner loop. */
  static void addEntries(TreeBuilder builder, long n) {
    byte[] e = new byte[TreeEntries.ENTRY_BYTES];
    for (long i = 0; i < n; i++) {
      TreeEntries.entry(TreeEntries.keyOf(i), i, e);
      builder.add(e, 0, TreeEntries.ENTRY_BYTES);
    }
  }

  /** Entries in a batch of {@link #addEntryBatches}, as the rebuilder's packed merge gives them. */
  static final int BATCH = 64;

  /**
   * {@link #addEntries} the way the rebuilder feeds its builders: the first entry with {@code add},
   * the rest {@value #BATCH} at a time into one array with what each shares with the one before it
   * ({@link TreeBuilder#addNextAll}), computed from the keys as the merge computes it from its
   * longs.
   */
  static void addEntryBatches(TreeBuilder builder, long n) {
    if (n == 0) {
      return;
    }
    int len = TreeEntries.ENTRY_BYTES;
    byte[] e = new byte[len];
    TreeEntries.entry(TreeEntries.keyOf(0), 0, e);
    builder.add(e, 0, len);
    byte[] batch = new byte[BATCH * len];
    int[] shared = new int[BATCH];
    long previous = KeyEncoder.signFlip(TreeEntries.keyOf(0));
    for (long i = 1; i < n; ) {
      int count = (int) Math.min(BATCH, n - i);
      for (int j = 0; j < count; j++, i++) {
        TreeEntries.entry(TreeEntries.keyOf(i), i, batch, j * len);
        long key = KeyEncoder.signFlip(TreeEntries.keyOf(i)); // the key's bytes as a number
        shared[j] = Long.numberOfLeadingZeros(previous ^ key) >>> 3; // keys always differ
        previous = key;
      }
      builder.addNextAll(batch, count, len, shared);
    }
  }

  /** A bulk stream as the builder's page sink. */
  static PageSink sinkOf(BulkWrite.Stream stream) {
    return new PageSink() {
      @Override
      public long allocate() {
        return stream.allocate();
      }

      @Override
      public void write(long pageNo, Page page) {
        stream.write(pageNo, page);
      }
    };
  }

  @Override
  public void close() {
    try {
      store.close();
    } finally {
      if (owned != null) {
        owned.close();
      }
    }
  }
}
