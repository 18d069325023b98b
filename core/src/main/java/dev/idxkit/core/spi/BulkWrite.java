package dev.idxkit.core.spi;

import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.io.AsyncWriter;
import dev.idxkit.core.internal.io.WriteBehind;
import dev.idxkit.core.internal.log.PageIndex;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.meta.MetaEdits;
import dev.idxkit.core.internal.txn.Store;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * A bulk write session for the loader and the rebuilder: pages are written straight to the area
 * files, without the log, and become live in one meta write at {@link #publish()}.
 *
 * <p>Why this is crash-safe: the session only hands out pages that the published meta does not
 * reference — pages on its free lists and pages past its high-water marks. Until publish nothing
 * reaches them; a crash returns the database exactly to the last publish. The session holds the
 * store's writer throughout, and began with a checkpoint, so the published meta is the current
 * state and no transaction runs beside it.
 *
 * <p>Call order: {@link Store#beginBulk()}, then any of {@link #stream(int)} (sequential writers),
 * {@link #meta()} edits (roots, table pages, rows, resume points), {@link #freePage}; {@link
 * #publish()} as often as wanted (the loader publishes at each checkpoint); {@link #close()}. Pages
 * freed by the session become reusable only after the publish that frees them.
 *
 * <p>Writes are handed to the kernel as they complete to start writing out ({@link WriteBehind},
 * every 16 MiB of a file, as a checkpoint does), so the device works while the session computes and
 * each publish's fsync waits only for the tail: the loader publishes at every checkpoint, and a
 * rebuild writes all of its trees before its one publish.
 *
 * <p>Memory: write buffers of 1 MiB, one held by each open {@link Stream} and the rest in flight;
 * 16 in all, or one per open stream when there are more streams (see {@link AsyncWriter#acquire}).
 */
public final class BulkWrite implements AutoCloseable {
  /** Pages a stream reserves at a time, so each stream writes long contiguous runs. */
  static final int RESERVE = 256;

  private final Store store;
  private final AsyncWriter writer;
  private final WriteBehind behind;
  private final AsyncWriter.Written written;
  private final long lsn;
  private MetaState.Builder meta;
  private List<FreeList> free;
  // Keys (PageIndex.key: area, then page) of the pages the next publish frees, unsorted.
  private long[] pendingFree = new long[0];
  private int pendingCount;
  private final java.util.Set<Stream> openStreams =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  private boolean[] touched = new boolean[0];
  private boolean closed;

  public BulkWrite(Store store) {
    this.store = store;
    this.lsn = store.lastLsn();
    this.meta = store.meta().toBuilder();
    this.free = copy(store.free());
    this.writer = new AsyncWriter(16, Math.max(store.pageSize(), 1 << 20), 2);
    this.behind = new WriteBehind(store.options().writeBehind(), WriteBehind.STEP);
    int pageSize = store.pageSize();
    this.written = (file, pageNo, bytes) -> behind.written(file.path(), pageNo * pageSize, bytes);
  }

  public int pageSize() {
    return store.pageSize();
  }

  /** The meta as this session will publish it; edit it directly (no log is involved). */
  public MetaState.Builder meta() {
    return meta;
  }

  /** The last published state (what a crash would return to). */
  public MetaState published() {
    return store.meta();
  }

  /** Reads of the published pages (the session holds the writer, so they cannot change). */
  public PageAccess publishedPages(int area) {
    return store.committedPages(area);
  }

  /**
   * Visits every page of the published tree at {@code root} in {@code area}, each after all of its
   * children (so the caller may free pages as it goes): how a rebuild frees the tree it replaces.
   */
  public void forEachPublishedTreePage(int area, long root, String name, LongConsumer consumer) {
    new BTree(publishedPages(area), root, name).forEachPage(consumer);
  }

  /** A contiguous run of pages no published meta references. */
  public record PageRun(long start, int length) {}

  /**
   * Up to {@code max} contiguous free pages: from the free list first, then the high-water mark.
   */
  public synchronized PageRun allocateRun(int area, int max) {
    store.areaFile(area);
    FreeList f = MetaEdits.freeList(free, area);
    long[] run = f.takeRun(max);
    if (run != null) {
      return new PageRun(run[0], (int) run[1]);
    }
    long start = meta.hwm(area);
    meta.hwm(area, start + max);
    return new PageRun(start, max);
  }

  /** Gives back pages of a run that were not written. */
  public synchronized void returnRun(int area, long start, long length) {
    if (length <= 0) {
      return;
    }
    if (start + length == meta.hwm(area)) {
      meta.hwm(area, start);
    } else {
      MetaEdits.freeList(free, area).addRun(start, length);
    }
  }

  /** A page the published meta references that the next publish stops referencing. */
  public synchronized void freePage(int area, long page) {
    if (pendingCount == pendingFree.length) {
      pendingFree = java.util.Arrays.copyOf(pendingFree, Math.max(1024, pendingCount * 2));
    }
    pendingFree[pendingCount++] = PageIndex.key(area, page);
  }

  /** A sequential page writer into {@code area}; one thread per stream. */
  public Stream stream(int area) {
    store.areaFile(area);
    Stream s = new Stream(area);
    synchronized (this) {
      openStreams.add(s);
    }
    return s;
  }

  /** Buffers the session's writer holds (free, held by streams or in flight); for tests. */
  int writerBuffers() {
    return writer.buffers();
  }

  /** Writes, fsyncs and publishes everything so far in one meta write. */
  public void publish() {
    checkOpen();
    List<Stream> streams;
    synchronized (this) {
      streams = new ArrayList<>(openStreams);
    }
    for (Stream st : streams) {
      st.submitBuffered();
    }
    writer.flush();
    syncTouched();
    List<FreeList> next;
    List<FreeList> mine;
    synchronized (this) {
      mine = copy(free);
      freePending(mine);
      // Pages open streams reserved but have not written are unreferenced: published as free,
      // so a crash loses none of them, while this session keeps them for its streams.
      next = copy(mine);
      for (Stream st : openStreams) {
        synchronized (st) {
          if (st.end > st.next) {
            MetaEdits.freeList(next, st.area).addRun(st.next, st.end - st.next);
          }
        }
      }
    }
    store.publish(meta, next);
    synchronized (this) {
      meta = store.meta().toBuilder();
      free = mine;
    }
  }

  /** Ends the session; anything not published is abandoned (the published state stays). */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      try {
        writer.close();
      } finally {
        behind.close(); // after the last write: its requests only start writes, never fail them
      }
    } finally {
      store.writer.release();
    }
  }

  /**
   * Adds the pending pages to {@code lists}: sorted, which groups them by area, and each area's
   * handed to its list at once ({@link FreeList#addSorted}, one insertion per run of neighbours).
   */
  private void freePending(List<FreeList> lists) {
    int n = pendingCount;
    // A copy, turned into page numbers area by area: a refused page leaves the pending keys as
    // they were, as a failed publish leaves everything else.
    long[] keys = java.util.Arrays.copyOf(pendingFree, n);
    java.util.Arrays.sort(keys);
    for (int i = 0, j; i < n; i = j) {
      int area = PageIndex.areaOf(keys[i]);
      for (j = i; j < n && PageIndex.areaOf(keys[j]) == area; j++) {
        keys[j] = PageIndex.pageOf(keys[j]);
      }
      MetaEdits.freeList(lists, area).addSorted(keys, i, j);
    }
    pendingFree = new long[0];
    pendingCount = 0;
  }

  private synchronized void markTouched(int area) {
    if (area >= touched.length) {
      touched = java.util.Arrays.copyOf(touched, area + 1);
    }
    touched[area] = true;
  }

  private void syncTouched() {
    boolean[] t;
    synchronized (this) {
      t = touched.clone();
      touched = new boolean[0];
    }
    for (int a = 0; a < t.length; a++) {
      if (t[a]) {
        store.areaFile(a).sync();
      }
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("bulk session is closed");
    }
  }

  private static List<FreeList> copy(List<FreeList> src) {
    List<FreeList> c = new ArrayList<>(src.size());
    for (FreeList f : src) {
      c.add(f == null ? new FreeList() : f.copy());
    }
    return c;
  }

  /**
   * Writes pages of one area in large sequential writes. Pages are numbered by {@link #allocate()}
   * from runs reserved {@value #RESERVE} at a time; consecutive pages written in order share one
   * buffer and one write. Unused reserved pages go back at {@link #close()}.
   */
  public final class Stream implements PageSink, AutoCloseable {
    private final int area;
    private final int pageSize = store.pageSize();
    private long next;
    private long end;
    private ByteBuffer buf;
    private BytesStore<?, ?> bufStore; // buf's memory, for pages that are not arrays
    private long bufStart;
    private long pagesWritten;

    private Stream(int area) {
      this.area = area;
      // Taken now, not at the first page: the write path then never meets a stream without a
      // buffer, a branch that C2 compiled away in the rebuild's first groups and met again in the
      // later ones (an uncommon trap, and the per-leaf writer compiled a second time).
      takeBuffer();
    }

    /** The writer's next buffer, and its memory looked up once for all of its pages. */
    private void takeBuffer() {
      buf = writer.acquire();
      buf.limit(buf.capacity() - buf.capacity() % pageSize);
      bufStore = writer.storeOf(buf);
    }

    public int area() {
      return area;
    }

    public int pageSize() {
      return pageSize;
    }

    /** A page number for a page that will be written through this stream. */
    @Override
    public synchronized long allocate() {
      if (next == end) {
        PageRun r = allocateRun(area, RESERVE);
        next = r.start();
        end = r.start() + r.length();
      }
      return next++;
    }

    /** Seals {@code page} (checksum and lsn) and writes it as {@code pageNo}. */
    @Override
    public synchronized void write(long pageNo, Page page) {
      page.seal(lsn);
      if (buf == null) {
        // Only after the writer failed (submit could not take the next buffer): ask again, which
        // reports the failure. Never taken in a run that works, so never a trap there.
        takeBuffer();
      }
      int at = buf.position();
      // An empty buffer (a new stream's, or the next one after a publish sent a partial one)
      // starts at this page: a select, not a branch, for the same reason as in the constructor
      // (none came while C2 profiled the first groups). After a full buffer, the submit below
      // sets the start itself.
      long empty = (at - 1) >> 31; // all ones when at == 0
      bufStart = (pageNo & empty) | (bufStart & ~empty);
      // A page that does not follow the buffered ones, or one without room, sends them off.
      if (pageNo != bufStart + at / pageSize || buf.remaining() < pageSize) {
        submit();
        bufStart = pageNo;
        at = 0;
      }
      byte[] a = page.array();
      if (a != null) {
        buf.put(
            at, a, page.arrayOffset(), pageSize); // a plain copy; Chronicle's went 8 bytes a step
      } else {
        bufStore.write(at, page.store(), page.base(), pageSize);
      }
      buf.position(at + pageSize);
      pagesWritten++;
    }

    public long pagesWritten() {
      return pagesWritten;
    }

    /** Gives back a page from {@link #allocate()} that will not be written after all. */
    public synchronized void returnPage(long pageNo) {
      if (pageNo == next - 1) {
        next--;
      } else {
        returnRun(area, pageNo, 1);
      }
    }

    /** Sends pages buffered here to the writer (publish must not miss them). */
    synchronized void submitBuffered() {
      if (buf != null && buf.position() > 0) {
        submit();
      }
    }

    @Override
    public synchronized void close() {
      if (buf != null) {
        if (buf.position() > 0) {
          send();
        } else {
          writer.release(buf);
        }
        buf = null;
        bufStore = null;
      }
      returnRun(area, next, end - next);
      next = end = 0;
      synchronized (BulkWrite.this) {
        openStreams.remove(this);
      }
    }

    /** Sends the buffered pages and takes the next buffer. */
    private void submit() {
      send();
      // The sent buffer is the writer's now: forgotten before asking for the next, so that a
      // failed write reported here leaves no buffer for close() to give back twice.
      buf = null;
      bufStore = null;
      takeBuffer();
    }

    private void send() {
      buf.flip();
      markTouched(area);
      writer.submit(store.areaFile(area), bufStart, buf, written);
    }
  }
}
