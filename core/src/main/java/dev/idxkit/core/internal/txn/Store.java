package dev.idxkit.core.internal.txn;

import dev.idxkit.core.Durability;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.io.PageBuffer;
import dev.idxkit.core.internal.io.PageFile;
import dev.idxkit.core.internal.io.PagePool;
import dev.idxkit.core.internal.io.PageTable;
import dev.idxkit.core.internal.log.PageIndex;
import dev.idxkit.core.internal.log.PageOps;
import dev.idxkit.core.internal.log.WalReader;
import dev.idxkit.core.internal.log.WalSegments;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.meta.MetaCodec;
import dev.idxkit.core.internal.meta.MetaFile;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;

/**
 * One open database directory: a thin coordinator that opens the parts, owns the writer semaphore
 * (one {@link StoreTxn} or {@link BulkWrite} at a time), and routes each call to the part that does
 * the work:
 *
 * <ul>
 *   <li>{@link StoreDirectory}: create, lock and open the directory ({@code meta}, {@code wal},
 *       {@code lock}, {@code <area>.area});
 *   <li>{@link AreaFiles}: the page files; {@link CommittedState}: what readers see, under the read
 *       lock, including the log's {@link PageIndex};
 *   <li>{@link CommitPath}: commit into the log ({@link Wal}), {@link Checkpoint} out of it, bulk
 *       publish, and {@code Recovery} at open.
 * </ul>
 *
 * <p>A page is found in a transaction's own copy first, then in the page index (committed, not yet
 * home), then in the area file through its mapping. Memory: the page index (bounded by {@code
 * dirtyPageBytes}) and a pool that keeps as many idle page buffers, so that memory once used for
 * dirty pages is reused rather than allocated again after every checkpoint.
 */
public final class Store implements AutoCloseable {
  private final Path dir;
  private final StoreOptions options;
  private final DirectoryLock lock;
  private final MetaFile metaFile;
  private final AreaFiles areas;
  private final int pageSize;
  private final PagePool pool;
  private final CommittedState committed;
  private final CommitPath log;
  public final WriterGate writer;
  private final WalReader.Result recovery;
  // Recordings of page operations, reused: a transaction takes one per page it copies. Touched by
  // the writer only (one at a time, under the writer gate).
  private static final int MAX_IDLE_OPS = 4096;
  private final java.util.ArrayDeque<PageOps> idleOps = new java.util.ArrayDeque<>();
  private final PageTable<PageBuffer> txnPages = new PageTable<>();

  /** Takes over the lock and meta file {@link StoreDirectory#open} opened, and recovers. */
  Store(Path dir, StoreOptions options, DirectoryLock lock, MetaFile mf, MetaCodec.Decoded meta) {
    this.dir = dir;
    this.options = options;
    this.lock = lock;
    this.writer = new WriterGate(dir);
    this.metaFile = mf;
    this.pageSize = meta.state().pageSize();
    // Idle buffers kept for reuse: the whole dirty-page budget (up to 1 GiB by default) and a
    // margin
    // for one transaction's copies. A checkpoint empties the page index into the pool, and the
    // next interval fills it again: with a quarter kept, three in four of those pages were new
    // direct buffers, each zeroed and faulted in by the kernel and later freed by the collector,
    // 13 % of the CPU of random inserts into 10 M keys (async-profiler). The memory kept is what
    // the budget let the dirty pages use anyway.
    this.pool =
        new PagePool(
            pageSize,
            (int) Math.min(Integer.MAX_VALUE - 1024L, options.dirtyPageBytes() / pageSize) + 1024);
    MetaState m = meta.state();
    this.committed =
        new CommittedState(m, new ArrayList<>(meta.free()), new PageIndex(pool), pageSize);
    this.areas = new AreaFiles(dir, pageSize, m.dbId(), options.readOnly(), options.fileIo());
    areas.openAll(m);
    WalSegments wal =
        WalSegments.open(
            dir, pageSize, options.readOnly(), options.fileIo(), options.writeBehind());
    this.log = new CommitPath(dir, wal, metaFile, areas, committed, options, pageSize, pool);
    log.mergeBuffersWith(() -> mergeBuffers(0));
    try {
      this.recovery = log.recover();
    } catch (RuntimeException e) {
      closeFiles();
      throw e;
    }
  }

  /** Creates a database directory (absent or empty) with the given areas and catalog. */
  public static Store create(
      Path dir, StoreOptions options, Map<Integer, String> initialAreas, byte[] catalog) {
    StoreDirectory.create(dir, options, initialAreas, catalog);
    return open(dir, options);
  }

  /** Opens a database directory, recovering committed work from the log. */
  public static Store open(Path dir, StoreOptions options) {
    return StoreDirectory.open(dir, options);
  }

  public Path dir() {
    return dir;
  }

  public int pageSize() {
    return pageSize;
  }

  public boolean readOnly() {
    return options.readOnly();
  }

  public StoreOptions options() {
    return options;
  }

  /** The latest committed meta; take it under {@link #readLock()} for a consistent view. */
  public MetaState meta() {
    return committed.meta();
  }

  /** What recovery found in the log at open. */
  public WalReader.Result recovery() {
    return recovery;
  }

  /** Timings of the most recent checkpoint. */
  public CheckpointStats lastCheckpoint() {
    return log.lastCheckpoint();
  }

  public long lastLsn() {
    return log.lastLsn();
  }

  public long walBytes() {
    return log.logBytes();
  }

  /** Bytes of committed page images held in memory until the next checkpoint. */
  public long committedImages() {
    return committed.imageBytes();
  }

  /** Pages read from an area's file since open (not those served from the log); 0 if no area. */
  public long pagesRead(int area) {
    return areas.pagesRead(area);
  }

  /** Pages written to area {@code area}'s file since open; 0 for an area that does not exist. */
  public long pagesWritten(int area) {
    return areas.pagesWritten(area);
  }

  /** Free pages per area as of the last commit, publish or checkpoint. */
  public long freePages(int area) {
    return committed.freePages(area);
  }

  /** Held for the length of one read operation: commits and checkpoints wait for it. */
  public Lock readLock() {
    return committed.readLock();
  }

  /** A read-only view of an area's committed pages; valid under {@link #readLock()}. */
  public PageAccess committedPages(int area) {
    return new CommittedPages(this, area);
  }

  /** The committed state as of now: take it, and read through it, under {@link #readLock()}. */
  public View committedView() {
    return CommittedPages.view(this, committed.meta());
  }

  /** Runs {@code inspect} with the writer held, on copies of the free lists (for checks). */
  public <T> T inspect(Function<List<FreeList>, T> inspect) {
    writer.acquire();
    try {
      return inspect.apply(committed.freeListCopies());
    } finally {
      writer.release();
    }
  }

  /** Reads a page checking its checksum again; images in the log were checked when logged. */
  public void verifyPage(int area, long pageNo) {
    if (committed.inLog(area, pageNo) == null) {
      PageFile f = areaFile(area);
      f.verify(f.view(pageNo), pageNo);
    }
  }

  /** Starts the one write transaction; waits while another is open. */
  public StoreTxn begin(Durability durability) {
    checkWritable();
    writer.acquire();
    return new StoreTxn(this, durability == null ? options.durability() : durability);
  }

  /**
   * Starts a bulk write session: waits for the writer, checkpoints, holds the writer until closed.
   */
  public BulkWrite beginBulk() {
    checkWritable();
    writer.acquire();
    try {
      log.checkpoint();
      return new BulkWrite(this);
    } catch (RuntimeException e) {
      writer.release();
      throw e;
    }
  }

  /** Merges every change buffer into its index's tree now; waits for the writer. */
  public void mergeAllBuffers() {
    checkWritable();
    writer.acquire();
    try {
      mergeBuffers(0);
    } finally {
      writer.release();
    }
  }

  /**
   * Makes every commit durable and writes the dirty pages home without merging the change buffers
   * (they are written at the head of the new log segment and replayed at the next open); waits for
   * the writer. See {@link CommitPath#checkpointKeepingBuffers}.
   */
  public void checkpointKeepingBuffers() {
    checkWritable();
    writer.acquire();
    try {
      log.checkpointKeepingBuffers();
    } finally {
      writer.release();
    }
  }

  /** Copies committed log pages home and writes a meta slot; waits for the writer. */
  public void checkpoint() {
    checkWritable();
    writer.acquire();
    try {
      log.checkpoint();
    } finally {
      writer.release();
    }
  }

  @Override
  public void close() {
    if (writer.isClosed()) {
      return;
    }
    writer.acquire();
    try {
      try {
        log.checkpoint();
      } finally {
        writer.close();
        closeFiles();
      }
    } finally {
      writer.release();
    }
  }

  public boolean isClosed() {
    return writer.isClosed();
  }

  public PageFile areaFile(int area) {
    return areas.file(area);
  }

  /** Publishes a bulk session's meta: one meta write, then the new state becomes visible. */
  public void publish(MetaState.Builder next, List<FreeList> nextFree) {
    log.publish(next, nextFree);
  }

  /** A recording of page operations for a transaction's page copy; the writer's only. */
  /**
   * The table of the writing transaction's own pages: one per store, emptied by every commit and
   * rollback, so that its chunks are allocated once rather than per transaction (16 KiB each).
   */
  PageTable<PageBuffer> txnPages() {
    return txnPages;
  }

  PageOps takeOps() {
    PageOps o = idleOps.poll();
    return o != null ? o : new PageOps(pageSize);
  }

  /** Gives back a recording the commit (or the rollback) is done with. */
  void giveBackOps(PageOps o) {
    o.reset();
    if (idleOps.size() < MAX_IDLE_OPS) {
      idleOps.push(o);
    }
  }

  /** The committed change buffers: read them under {@link #readLock()} (or holding the writer). */
  ChangeBuffers committedBuffers() {
    return committed.buffers();
  }

  /** Whether any committed change buffer holds a change; under {@link #readLock()}. */
  public boolean hasBufferedChanges() {
    return !committed.buffers().isEmpty();
  }

  /** Changes held in the committed change buffers, all indexes; under {@link #readLock()}. */
  public long bufferedChanges() {
    return committed.buffers().changes();
  }

  /**
   * Called by a commit, holding the writer: when the committed change buffers pass their bound,
   * merges the biggest until half of it is left. The bound is {@code changeBufferBytes}, and at
   * most a quarter of {@code dirtyPageBytes}: every checkpoint beside the commits writes the
   * buffers into the log, so a checkpoint that writes half of {@code dirtyPageBytes} of pages
   * writes at most half as much again of buffers.
   */
  void mergeBuffersPastBound() {
    long bound = Math.min(options.changeBufferBytes(), options.dirtyPageBytes() / 4);
    if (committed.buffers().bytes() > bound) {
      mergeBuffers(bound / 2);
    }
  }

  /**
   * Merges change buffers into their trees, the biggest first, until at most {@code leave} bytes
   * are buffered: each buffer in key order, {@value #MERGE_CHANGES} changes per transaction (which
   * bounds the pages one merge changes), each transaction logging the pages it changed and which
   * changes it took out of the buffer, and making both visible together. The caller holds the
   * writer.
   */
  private void mergeBuffers(long leave) {
    if (leave == 0) {
      committed.compactBuffers();
    }
    ChangeBuffers buffers = committed.buffers();
    while (buffers.bytes() > leave && !buffers.isEmpty()) {
      ChangeBuffers.Held h = buffers.largest();
      try (StoreTxn txn = new StoreTxn(this, Durability.OFF, true)) {
        IndexState s = txn.index(h.index());
        if (s == null) {
          throw new IllegalStateException(
              "change buffer of index " + h.index() + ", which has no state");
        }
        BTree tree = new BTree(txn.pages(h.area()), s.root(), h.name());
        byte[] last = h.buffer().mergeInto(tree, MERGE_CHANGES);
        if (last == null) {
          // Its changes cancel out (an insert and a delete of the same entries, not yet merged
          // with each other): nothing to do in the tree, and nothing readers would see change.
          committed.discardBuffer(h.index());
          continue;
        }
        txn.setRoot(h.index(), tree.root());
        txn.drained(h.index(), last);
        txn.commit();
      }
      // The merge's pages count against the dirty-page bound like any commit's; a merge of
      // everything writes them home in slices beside it as it goes.
      if (leave == 0) {
        log.maybeCheckpointBesideMerge(mergeSliceBytes());
      } else {
        log.maybeCheckpointBeside();
      }
    }
  }

  /**
   * Pages a merge of every buffer changes before it starts a checkpoint beside it: an eighth of
   * {@code dirtyPageBytes}, at most {@value #MERGE_SLICE_MAX} bytes: each slice's checkpoint also
   * writes what is still buffered into the log, which much smaller slices would repeat too often.
   */
  private long mergeSliceBytes() {
    return Math.min(MERGE_SLICE_MAX, options.dirtyPageBytes() / 8);
  }

  static final long MERGE_SLICE_MAX = 64L << 20;

  /** Changes one buffer merge takes: at most as many leaves changed, 8 KiB each in memory. */
  static final int MERGE_CHANGES = 8192;

  Page readCommitted(int area, long pageNo) {
    Page p = committed.inLog(area, pageNo);
    return p != null ? p : areas.file(area).read(pageNo);
  }

  /** The free lists, one per area: the writer's to change. */
  public List<FreeList> free() {
    return committed.free();
  }

  PagePool pool() {
    return pool;
  }

  /** The commit, checkpoint and publish sequence, for the transaction holding the writer. */
  CommitPath log() {
    return log;
  }

  AreaFiles areas() {
    return areas;
  }

  private void closeFiles() {
    areas.close();
    log.close();
    metaFile.close();
    lock.close();
  }

  private void checkWritable() {
    if (options.readOnly()) {
      throw new IllegalStateException("database " + dir + " is open read-only");
    }
  }
}
