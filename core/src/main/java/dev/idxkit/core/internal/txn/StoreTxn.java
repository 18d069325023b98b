package dev.idxkit.core.internal.txn;

import dev.idxkit.core.Durability;
import dev.idxkit.core.internal.btree.ChangeBuffer;
import dev.idxkit.core.internal.io.PageBuffer;
import dev.idxkit.core.internal.io.PageTable;
import dev.idxkit.core.internal.log.PageIndex;
import dev.idxkit.core.internal.log.PageOps;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.meta.MetaEdits;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.spi.TableState;
import java.util.ArrayList;
import java.util.List;

/**
 * The single write transaction of a {@link Store}: page changes are private copies, meta changes go
 * to a copy of the meta, and both become visible together at {@link #commit()}.
 *
 * <p>Call order: {@link Store#begin} (waits for the writer), {@link #pages(int)} to read and change
 * pages, the meta methods to record table pages, rows, roots and catalog changes, then {@link
 * #commit()} or {@link #rollback()}; {@link #close()} rolls back what was not committed.
 *
 * <p>Allocation takes the lowest free page of the area, else the page at its high-water mark. A
 * page freed here joins the free list only at commit, so it cannot be reused by this transaction
 * while the committed state may still reference it. Rollback gives taken pages back.
 *
 * <p>Memory: one pooled direct buffer per page changed. Not thread-safe: one thread at a time.
 */
public final class StoreTxn implements View, AutoCloseable {
  private record Drain(int index, byte[] last) {}

  private enum State {
    ACTIVE,
    COMMITTED,
    ROLLED_BACK
  }

  private final Store store;
  private final Durability durability;
  private final MetaState.Builder meta;
  private final MetaEdits edits = new MetaEdits();
  private final PageTable<PageBuffer> dirty;
  private final List<Long> takenFromFree = new ArrayList<>();
  private final List<Long> pendingFree = new ArrayList<>();
  private final List<Integer> createdAreas = new ArrayList<>();
  private PageAccess[] views = new PageAccess[2];
  private State state = State.ACTIVE;
  // Changes buffered instead of made in their trees (null until the first), the indexes whose
  // committed buffers go (their state was replaced), and the merges of committed buffers into
  // trees this transaction made: all applied to the committed buffers at install, in that order.
  private ChangeBuffers ownBuffers;
  private final List<Integer> discardedBuffers = new ArrayList<>();
  private final List<Drain> drains = new ArrayList<>();
  // A merge of buffers run by the store for a writer that holds it already: commit keeps it.
  private final boolean inner;

  StoreTxn(Store store, Durability durability) {
    this(store, durability, false);
  }

  StoreTxn(Store store, Durability durability, boolean inner) {
    this.store = store;
    this.durability = durability;
    this.inner = inner;
    this.meta = store.meta().toBuilder();
    // The store's one table, reused: a transaction holds the writer, and leaves it empty.
    this.dirty = store.txnPages();
  }

  /** Pages of one area as this transaction sees them: its own changes over the committed state. */
  @Override
  public PageAccess pages(int area) {
    checkActive();
    if (area >= views.length) {
      views = java.util.Arrays.copyOf(views, area + 1);
    }
    if (views[area] == null) {
      store.areaFile(area);
      views[area] = new TxnPages(area);
    }
    return views[area];
  }

  @Override
  public TableState table(int id) {
    return meta.table(id);
  }

  @Override
  public IndexState index(int id) {
    return meta.index(id);
  }

  public long hwm(int area) {
    return meta.hwm(area);
  }

  public String areaName(int area) {
    return meta.areaName(area);
  }

  public void addTablePage(int table, long page) {
    TableState t = meta.table(table);
    meta.table(table, new TableState(t.pages().add(page), t.rows()));
    edits.tableAdd(table, page);
  }

  public void removeTablePage(int table, long page) {
    TableState t = meta.table(table);
    meta.table(table, new TableState(t.pages().remove(page), t.rows()));
    edits.tableRemove(table, page);
  }

  public void addRows(int table, long delta) {
    TableState t = meta.table(table);
    meta.table(table, new TableState(t.pages(), t.rows() + delta));
    edits.rows(table, delta);
  }

  public void setRoot(int index, long root) {
    IndexState s = meta.index(index);
    if (s == null) {
      throw new IllegalStateException("index " + index + " has no state");
    }
    if (s.root() != root) {
      meta.index(index, new IndexState(root, s.status()));
      edits.root(index, root);
    }
  }

  /**
   * Sets (or with null removes) an index's state. The index's change buffer goes with its old
   * state: a new state means a new (or no) tree.
   */
  public void setIndexState(int index, IndexState state) {
    meta.index(index, state);
    edits.indexState(index, state);
    if (ownBuffers != null) {
      ownBuffers.discard(index);
    }
    discardedBuffers.add(index);
  }

  /**
   * Whether changes of non-unique indexes are buffered ({@code StoreOptions.changeBufferBytes}).
   */
  public boolean buffering() {
    return store.options().changeBufferBytes() > 0;
  }

  /**
   * Buffers an insert ({@code insert}) or a delete of {@code entry} of an index instead of making
   * it in the index's tree; the caller has checked that the entry is absent (insert) or present
   * (delete) as this transaction sees the index ({@link #bufferedChange}, then the tree).
   */
  public void buffer(int index, int area, String name, byte[] entry, boolean insert) {
    checkActive();
    if (ownBuffers == null) {
      ownBuffers = new ChangeBuffers();
    }
    ownBuffers.change(index, area, name, entry, insert);
    edits.buffered(index, area, entry, insert);
  }

  /**
   * The buffered change of {@code entry} as this transaction sees the index: TRUE an insert (the
   * entry is there, not in the tree), FALSE a delete (it is not there, though in the tree), null
   * none (the tree says).
   */
  public Boolean bufferedChange(int index, byte[] entry) {
    ChangeBuffer[] layers = buffered(index);
    for (int i = layers.length - 1; i >= 0; i--) {
      Boolean c = layers[i].change(entry);
      if (c != null) {
        return c; // the newest layer's change counts, as for readers
      }
    }
    return null;
  }

  @Override
  public ChangeBuffer[] buffered(int index) {
    ChangeBuffer committed =
        discardedBuffers.contains(index) ? null : store.committedBuffers().get(index);
    ChangeBuffer own = ownBuffers == null ? null : ownBuffers.get(index);
    if (committed == null) {
      return own == null ? NO_BUFFERS : new ChangeBuffer[] {own};
    }
    return own == null ? new ChangeBuffer[] {committed} : new ChangeBuffer[] {committed, own};
  }

  /** Records a merge of the committed buffer's changes up to {@code last} into the index's tree. */
  void drained(int index, byte[] last) {
    edits.drained(index, last);
    drains.add(new Drain(index, last));
  }

  /** Sets (or with null removes) a resume point, committed with this transaction's rows. */
  public void setResumePoint(String key, byte[] value) {
    meta.resume(key, value);
    edits.resume(key, value);
  }

  public byte[] resumePoint(String key) {
    return meta.build().resumePoint(key);
  }

  public void setCatalog(byte[] catalog) {
    meta.catalog(catalog);
    edits.catalog(catalog);
  }

  /** Creates a new area's file now; the area exists for others once this commits. */
  public void createArea(int area, String name) {
    checkActive();
    store.areas().create(area, name);
    createdAreas.add(area);
    meta.area(area, name);
    edits.area(area, name);
  }

  /** Makes every change durable (per the durability) and visible at once; releases the writer. */
  public void commit() {
    checkActive();
    long walEnd = -1;
    try {
      if (!dirty.isEmpty() || !edits.isEmpty()) {
        List<PageBuffer> pages = new ArrayList<>(dirty.size());
        dirty.forEachValue(pages::add);
        walEnd = store.log().commit(this, pages, edits.toByteArray(), meta.build());
        dirty.clear();
      }
      state = State.COMMITTED;
      if (inner) {
        return;
      }
      if (walEnd >= 0) {
        store.mergeBuffersPastBound();
        store.log().maybeCheckpoint();
      }
    } catch (RuntimeException e) {
      if (state == State.ACTIVE) {
        undo();
      }
      throw e;
    } finally {
      if (state != State.ACTIVE && !inner) {
        store.writer.release();
      }
    }
    if (walEnd >= 0) {
      store.log().afterCommit(walEnd, durability);
    }
  }

  /** Discards every change and releases the writer. */
  public void rollback() {
    checkActive();
    try {
      undo();
    } finally {
      if (!inner) {
        store.writer.release();
      }
    }
  }

  @Override
  public void close() {
    if (state == State.ACTIVE) {
      rollback();
    }
  }

  public boolean isActive() {
    return state == State.ACTIVE;
  }

  /**
   * Called by the commit for each page before it is stamped and logged: the page stops recording
   * its writes; returns what it recorded (null if nothing), for the log, then {@link #giveBackOps}.
   */
  PageOps detachOps(PageBuffer b) {
    if (b != null && b.page.recordedWrites() instanceof PageOps ops) {
      b.page.recordWrites(null);
      return ops;
    }
    return null;
  }

  /** The recordings {@link #detachOps} returned go back to the store once logged. */
  void giveBackOps(List<PageOps> ops) {
    for (PageOps o : ops) {
      if (o != null) {
        store.giveBackOps(o);
      }
    }
  }

  private void dropOps(PageBuffer b) {
    PageOps ops = detachOps(b);
    if (ops != null) {
      store.giveBackOps(ops);
    }
  }

  /**
   * Called by the store while installing the commit, under the write lock: freed pages join the
   * free lists, and the buffered changes and merges go to the committed buffers.
   */
  void applyFrees(List<FreeList> free) {
    for (long k : pendingFree) {
      MetaEdits.freeList(free, PageIndex.areaOf(k)).add(PageIndex.pageOf(k));
    }
    ChangeBuffers committed = store.committedBuffers();
    for (int index : discardedBuffers) {
      committed.discard(index);
    }
    if (ownBuffers != null) {
      ownBuffers.applyTo(committed);
    }
    for (Drain d : drains) {
      committed.drained(d.index, d.last);
    }
  }

  private void undo() {
    state = State.ROLLED_BACK;
    for (long k : takenFromFree) {
      MetaEdits.freeList(store.free(), PageIndex.areaOf(k)).add(PageIndex.pageOf(k));
    }
    dirty.forEachValue(
        b -> {
          dropOps(b);
          store.pool().release(b);
        });
    dirty.clear();
    for (int a : createdAreas) {
      store.areas().discard(a);
    }
  }

  private void checkActive() {
    if (state != State.ACTIVE) {
      throw new IllegalStateException("transaction is " + state.name().toLowerCase());
    }
  }

  /** One area's pages as this transaction sees them. */
  private final class TxnPages implements PageAccess {
    private final int area;

    TxnPages(int area) {
      this.area = area;
    }

    @Override
    public int pageSize() {
      return store.pageSize();
    }

    @Override
    public int areaId() {
      return area;
    }

    @Override
    public String name() {
      return store.areaFile(area).path().toString();
    }

    @Override
    public Page read(long pageNo) {
      PageBuffer b = dirty.get(area, pageNo);
      return b != null ? b.page : store.readCommitted(area, pageNo);
    }

    @Override
    public Page write(long pageNo) {
      long k = PageIndex.key(area, pageNo);
      PageBuffer b = dirty.get(k);
      if (b == null) {
        Page src = store.readCommitted(area, pageNo);
        b = store.pool().acquire();
        b.page.copyFrom(src);
        // The copy equals the committed image the commit will diff it against (the writer is
        // held, so no other commit replaces that image meanwhile): only later writes count, and
        // they are recorded as operations for the page's redo record from here on.
        b.page.forgetChanges();
        b.page.recordWrites(store.takeOps());
        dirty.put(k, b);
      }
      return b.page;
    }

    @Override
    public Page allocate(PageType type) {
      checkActive();
      FreeList f = MetaEdits.freeList(store.free(), area);
      long page = f.takeFirst();
      if (page > 0) {
        takenFromFree.add(PageIndex.key(area, page));
      } else {
        page = meta.hwm(area);
        meta.hwm(area, page + 1);
      }
      edits.alloc(area, page);
      PageBuffer b = store.pool().acquire();
      b.page.format(type, page, area);
      b.fresh = true;
      PageBuffer replaced = dirty.put(PageIndex.key(area, page), b);
      dropOps(replaced);
      store.pool().release(replaced);
      return b.page;
    }

    @Override
    public void free(long pageNo) {
      checkActive();
      long k = PageIndex.key(area, pageNo);
      PageBuffer gone = dirty.remove(k);
      dropOps(gone);
      store.pool().release(gone);
      pendingFree.add(k);
      edits.free(area, pageNo);
    }
  }
}
