package dev.idxkit.idxbuild;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.CorruptRecordException;
import dev.idxkit.core.KeyTooLongException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.KeyExtractor;
import dev.idxkit.core.spi.Overflow;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.spi.ScanReadAhead;
import dev.idxkit.idxbuild.sort.EntryBuffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Phase 1: read every record of the tables whose indexes are rebuilt once, and turn it into one
 * entry per selected index: {@code u16 indexId || key || rid}, the key extracted straight from the
 * record bytes (no row decode). A key of fixed-width columns is written straight into the sort
 * buffer, where the entry stays until it is sorted ({@link EntryBuffer#reserve}); a key with a
 * string is built in a scratch buffer and copied in. The record's header is checked once for all
 * its keys.
 *
 * <p>A page at a time: its live records are listed and checked first, then an index whose group
 * takes no other index gets the page's entries as one run ({@link EntryBuffer#reserveRun}: one
 * reserve and one commit for the run, which keep the run in the RID order of its records); the
 * entries of the other indexes follow record by record, as they have to in a group of several.
 *
 * <p>The tables' heap pages are cut into chunks of {@value #CHUNK_PAGES} pages that the workers
 * take in turn, so threads stay busy whatever the table sizes. Each worker has its own buffer per
 * sort group, so the hot path takes no lock; a full buffer is sorted by the worker that filled it
 * and kept in memory or written as a run ({@link SortGroup#full}). At the end each worker's buffers
 * are sorted and handed to their groups, which merge them with the runs (a group that never spilled
 * writes no temp file).
 *
 * <p>Read-ahead: the area files advise the kernel that their mappings are read at random (no
 * read-ahead of its own), so the scan asks for its pages ahead of time, a chunk at a time: the
 * worker that takes chunk {@code i} asks for chunk {@code i + aheadChunks} ({@link
 * PageAccess#willRead}), and the first worker for the first {@code aheadChunks} chunks. The workers
 * take chunks in ascending order, so every chunk is asked for exactly once, about {@link
 * ScanReadAhead#WINDOW_BYTES} before a worker reaches it, whatever the number of workers, the runs
 * of a heap or the tables. (One {@link ScanReadAhead} per chunk asked for each page four times:
 * each chunk's first hint covered 8 MiB, four chunks; asking once made the scan of lineitem's
 * primary key at SF 1 10-20 % faster.)
 *
 * <p>Memory: {@code scanThreads × groups} buffers of the planned size. Disk: runs via the groups.
 */
final class ScanPhase {
  static final int CHUNK_PAGES = 256;
  private static final VarHandle BE_SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private record Chunk(TableInfo table, long first, int pages) {}

  private final List<Chunk> chunks = new ArrayList<>();
  private final IntFunction<PageAccess> pages;
  private final SortGroup[] groupOfIndex;
  private final List<SortGroup> groups;
  private final int maxEntry;
  private final Cancel cancel;
  private final AtomicInteger next = new AtomicInteger();
  private final int aheadChunks;
  final AtomicLong pagesDone = new AtomicLong();
  final AtomicLong rows = new AtomicLong();
  final AtomicLong keys = new AtomicLong();
  final long totalPages;

  ScanPhase(
      List<TableInfo> tables,
      java.util.Map<Integer, PageRuns> heaps,
      IntFunction<PageAccess> pages,
      List<SortGroup> groups,
      int pageSize,
      Cancel cancel) {
    this.pages = pages;
    this.groups = groups;
    this.maxEntry = Engine.maxEntryLength(pageSize);
    this.cancel = cancel;
    int maxIndex = 0;
    for (SortGroup g : groups) {
      for (IndexInfo ix : g.indexes()) {
        maxIndex = Math.max(maxIndex, ix.id());
      }
    }
    this.groupOfIndex = new SortGroup[maxIndex + 1];
    for (SortGroup g : groups) {
      for (IndexInfo ix : g.indexes()) {
        groupOfIndex[ix.id()] = g;
      }
    }
    long total = 0;
    for (TableInfo t : tables) {
      PageRuns runs = heaps.get(t.id());
      for (int r = 0; r < runs.runCount(); r++) {
        long start = runs.runStart(r);
        long len = runs.runLength(r);
        for (long off = 0; off < len; off += CHUNK_PAGES) {
          chunks.add(new Chunk(t, start + off, (int) Math.min(CHUNK_PAGES, len - off)));
        }
        total += len;
      }
    }
    this.totalPages = total;
    this.aheadChunks =
        (int) Math.max(1, ScanReadAhead.WINDOW_BYTES / ((long) CHUNK_PAGES * pageSize));
  }

  /**
   * A damaged record as the user needs it: the record layer does not know where the record lies,
   * the scan does (file, page, slot, table).
   */
  static CorruptPageException damagedRecord(
      PageAccess pa, long page, int slot, TableInfo t, CorruptRecordException e) {
    return new CorruptPageException(
        Path.of(pa.name()),
        page,
        "record in slot " + slot + " of table " + t.name() + ": " + e.getMessage());
  }

  /** The body of one scan worker; returns when no chunk is left. */
  void work() {
    Worker w = new Worker();
    int c;
    while ((c = next.getAndIncrement()) < chunks.size()) {
      cancel.check();
      if (c == 0) {
        for (int k = 0; k < aheadChunks; k++) {
          willRead(k);
        }
      }
      willRead(c + aheadChunks);
      w.scan(chunks.get(c));
    }
    w.handOver();
  }

  /** Asks the kernel to start reading chunk {@code c}, if there is one. */
  private void willRead(int c) {
    if (c < chunks.size()) {
      Chunk chunk = chunks.get(c);
      pages.apply(chunk.table().area()).willRead(chunk.first(), chunk.pages());
    }
  }

  /**
   * One worker's buffers and scratch space. The loops are split by level - a chunk ({@link #scan}),
   * a page ({@link #scanPage}), a record ({@link #addRecord}) - so each compiles on its own and
   * early: one method holding all three was recompiled several times over a rebuild (its loops
   * compiled one at a time on stack replacement), a third of a cold rebuild's CPU going to the JIT.
   */
  private final class Worker {
    private final EntryBuffer[] buffers = new EntryBuffer[groups.size()];
    private final GrowableBytes entry = new GrowableBytes(256);
    // The current chunk's table: its selected indexes, their extractors and groups.
    private IndexInfo[] indexes = new IndexInfo[0];
    private KeyExtractor[] extractors = new KeyExtractor[0];
    private SortGroup[] groupOf = new SortGroup[0];
    // Per selected index: the longest entry when its key has fixed-width columns only (written in
    // place into the sort buffer, addInPlace), or -1 (extracted into entry, then copied).
    private int[] inPlace = new int[0];
    // Per selected index: whether its entries go to its group as a run per page (writeRun): an
    // in-place key whose group takes no other selected index, so a page's entries of it can come
    // one index at a time without changing the order they reach the buffer in.
    private boolean[] byRun = new boolean[0];
    // Whether any selected index is not taken by run (addRecords has work).
    private boolean byRecord;
    // The current page's store, and its live records, found and checked before any entry is
    // written: each one's store (null: the page's), offset there and length, native address (0:
    // none), RID and slot; and the entry lengths of a run.
    private BytesStore<?, ?> pageStore;
    private BytesStore<?, ?>[] recStore = new BytesStore<?, ?>[0];
    private long[] recOff = new long[0];
    private int[] recLength = new int[0];
    private long[] recAddress = new long[0];
    private long[] recRid = new long[0];
    private int[] recSlot = new int[0];
    private int[] runLength = new int[0];
    // Counted here and added to the shared totals once per chunk: the workers would otherwise
    // contend on one cache line for every row and every key.
    private long chunkRows;
    private long chunkKeys;

    void scan(Chunk c) {
      TableInfo t = c.table();
      List<IndexInfo> selected = new ArrayList<>();
      for (IndexInfo ix : t.indexes()) {
        if (ix.id() < groupOfIndex.length && groupOfIndex[ix.id()] != null) {
          selected.add(ix);
        }
      }
      indexes = selected.toArray(new IndexInfo[0]);
      extractors = new KeyExtractor[indexes.length];
      groupOf = new SortGroup[indexes.length];
      inPlace = new int[indexes.length];
      byRun = new boolean[indexes.length];
      int[] ofGroup = new int[groups.size()];
      for (int i = 0; i < indexes.length; i++) {
        groupOf[i] = groupOfIndex[indexes[i].id()];
        extractors[i] = groupOf[i].extractor(indexes[i]);
        int key = extractors[i].maxFixedLength();
        inPlace[i] = key >= 0 && key + 8 <= maxEntry ? 2 + key + 8 : -1;
        ofGroup[groupOf[i].position()]++;
      }
      byRecord = false;
      for (int i = 0; i < indexes.length; i++) {
        byRun[i] = inPlace[i] >= 0 && ofGroup[groupOf[i].position()] == 1;
        byRecord |= !byRun[i];
      }
      PageAccess pa = pages.apply(t.area());
      for (long p = c.first(); p < c.first() + c.pages(); p++) {
        scanPage(pa, t, p);
        pagesDone.incrementAndGet();
      }
      rows.addAndGet(chunkRows);
      keys.addAndGet(chunkKeys);
      chunkRows = 0;
      chunkKeys = 0;
    }

    /**
     * Every live record of heap page {@code p}: one slot read each, bounds and header checked, the
     * records listed first; then the entries of each index taken by run, and the others record by
     * record, as they come.
     */
    private void scanPage(PageAccess pa, TableInfo t, long p) {
      Page page = pa.read(p);
      if (page.type() != PageType.HEAP) {
        throw new CorruptPageException(
            Path.of(pa.name()), p, "page of table " + t.name() + " is not a heap page");
      }
      int live = listRecords(pa, t, p, page);
      for (int i = 0; i < indexes.length; i++) {
        if (byRun[i]) {
          addRuns(i, live);
        }
      }
      if (byRecord) {
        addRecords(pa, t, p, live);
      }
      chunkRows += live;
    }

    /**
     * Lists the live records of heap page {@code p} (its slots read, each record's bounds and
     * header checked) and returns how many. A method of its own, as is {@link #addRecords}: with
     * the slot loop in {@link #scanPage}, the JIT compiled that loop on stack replacement with
     * everything the page's runs inline, then the page method again after each trap (JDK 25, cold
     * six-index rebuild of lineitem SF 0.5: six compiles, 0.29-0.35 s of C2 time; now this method
     * and the page method are compiled once each, 0.02-0.04 s).
     */
    private int listRecords(PageAccess pa, TableInfo t, long p, Page page) {
      int slots = HeapPage.slotCount(page);
      int dataStart = HeapPage.dataStart(page);
      pageStore = page.store();
      long base = page.base();
      // A page in native memory (a mapped heap file) has its slots and keys read straight from
      // there, not through the page's accessors: through them, checks that C2 hoisted out of this
      // loop failed on entry and threw the compiled loop away (likely those of the accessors'
      // branch for a page in an array, whose profile every other caller shares); read here, the
      // traps went.
      long address = pageStore.isDirectMemory() ? pageStore.addressForRead(base) : 0;
      HeapPage.checkSlotArray(page, slots, pa);
      makeRoom(slots);
      int live = 0;
      for (int s = 0; s < slots; s++) {
        int w = address != 0 ? HeapPage.slotWordAt(address, s) : HeapPage.slotWord(page, s);
        int off = HeapPage.wordOffset(w);
        if (off == 0) {
          continue; // a deleted slot
        }
        int len = HeapPage.wordLength(w);
        HeapPage.checkBounds(page, s, off, len, dataStart);
        try {
          if (HeapPage.wordIsOverflow(w)) {
            byte[] rec = Overflow.readRecord(pa, page, s);
            BytesStore<?, ?> whole = BytesStore.wrap(rec);
            checkRecord(whole, 0, rec.length);
            listRecord(live++, whole, 0, rec.length, 0, Rid.of(p, s), s);
          } else if (address != 0) {
            checkRecordAt(address + off, len);
            listRecord(live++, null, base + off, len, address + off, Rid.of(p, s), s);
          } else {
            checkRecord(pageStore, base + off, len);
            listRecord(live++, null, base + off, len, 0, Rid.of(p, s), s);
          }
        } catch (CorruptRecordException e) {
          throw damagedRecord(pa, p, s, t, e);
        }
      }
      return live;
    }

    /** The entries of the indexes not taken by run for the page's {@code live} listed records. */
    private void addRecords(PageAccess pa, TableInfo t, long p, int live) {
      for (int r = 0; r < live; r++) {
        try {
          addRecord(r);
        } catch (CorruptRecordException e) {
          throw damagedRecord(pa, p, recSlot[r], t, e);
        }
      }
    }

    private void makeRoom(int slots) {
      if (recOff.length < slots) {
        recStore = new BytesStore<?, ?>[slots];
        recOff = new long[slots];
        recLength = new int[slots];
        recAddress = new long[slots];
        recRid = new long[slots];
        recSlot = new int[slots];
        runLength = new int[slots];
      }
    }

    /** The record's header checked (for every index: one table layout). */
    private void checkRecord(BytesStore<?, ?> store, long off, int len) {
      if (indexes.length > 0) {
        extractors[0].checkRecord(store, off, len);
      }
    }

    private void checkRecordAt(long address, int len) {
      if (indexes.length > 0) {
        extractors[0].checkRecordAt(address, len);
      }
    }

    /**
     * Record {@code r} of the page, checked: in {@code store} (null: in the page's store, {@link
     * #pageStore}; storing null keeps C2's array-store check, and its speculation on the store's
     * class, out of the slot loop) at {@code off}, at {@code address} in native memory (0: none).
     */
    private void listRecord(
        int r, BytesStore<?, ?> store, long off, int len, long address, long rid, int slot) {
      recStore[r] = store;
      recOff[r] = off;
      recLength[r] = len;
      recAddress[r] = address;
      recRid[r] = rid;
      recSlot[r] = slot;
    }

    /** Where record {@code r} is: the store {@link #recOff} is an offset in. */
    private BytesStore<?, ?> storeOf(int r) {
      BytesStore<?, ?> store = recStore[r];
      return store != null ? store : pageStore;
    }

    /** The entries of index {@code i} for the page's {@code live} records, as runs. */
    private void addRuns(int i, int live) {
      SortGroup g = groupOf[i];
      int maxLen = inPlace[i];
      int from = 0;
      while (from < live) {
        EntryBuffer b = buffer(g);
        int k = Math.min(live - from, b.room(maxLen));
        if (k == 0) {
          b = next(g, b, maxLen);
          k = Math.min(live - from, b.room(maxLen));
        }
        writeRun(i, b, from, from + k);
        from += k;
      }
    }

    /**
     * Index {@code i}'s entries of records {@code [from, to)} written one after another into {@code
     * b} and added at once ({@link EntryBuffer#commitRun}): a reserve and a commit an entry, with
     * their checks and the buffer's fields loaded each time, were 29 % of the scan's CPU.
     */
    private void writeRun(int i, EntryBuffer b, int from, int to) {
      int maxLen = inPlace[i];
      int at = b.reserveRun(to - from, maxLen);
      byte[] a = b.array();
      short id = (short) indexes[i].id();
      KeyExtractor x = extractors[i];
      boolean atAddress = x.extractsAtAddress();
      boolean oneLength = true;
      for (int r = from; r < to; r++) {
        int len = writeEntry(id, x, atAddress, a, at, r) - at;
        runLength[r] = len;
        oneLength &= len == maxLen;
        at += len;
      }
      if (oneLength) {
        b.commitRun(to - from, maxLen);
      } else { // a NULL made an entry shorter
        for (int r = from; r < to; r++) {
          b.commit(runLength[r]);
        }
      }
      chunkKeys += to - from;
    }

    /** Record {@code r}'s entries of the indexes not taken by run, in index order. */
    private void addRecord(int r) {
      for (int i = 0; i < indexes.length; i++) {
        if (byRun[i]) {
          continue;
        }
        if (inPlace[i] >= 0) {
          addInPlace(i, r);
          continue;
        }
        IndexInfo ix = indexes[i];
        entry.reset();
        entry.appendShort(ix.id());
        extractors[i].extract(storeOf(r), recOff[r], recLength[r], entry);
        entry.appendRid(recRid[r]);
        if (entry.length() - 2 > maxEntry) {
          throw new KeyTooLongException(ix.name(), entry.length() - 2, maxEntry);
        }
        add(groupOf[i], entry);
      }
    }

    /**
     * Index {@code i}'s entry written straight into its sort buffer: the entry's bytes are written
     * once, where the sort finds them, instead of into {@link #entry} and copied (the copy and the
     * growable buffer's checks were a sixth of the scan threads' CPU).
     */
    private void addInPlace(int i, int r) {
      SortGroup g = groupOf[i];
      int at = reserve(g, inPlace[i]);
      EntryBuffer b = buffers[g.position()];
      KeyExtractor x = extractors[i];
      int end = writeEntry((short) indexes[i].id(), x, x.extractsAtAddress(), b.array(), at, r);
      b.commit(end - at);
      chunkKeys++;
    }

    /**
     * Record {@code r}'s entry of the index {@code id} at {@code a[at]} - the id, the key by {@code
     * x} (from the page's native memory when {@code atAddress} and the record has an address), the
     * RID - for a key of fixed-width columns; returns where the entry ends.
     */
    private int writeEntry(short id, KeyExtractor x, boolean atAddress, byte[] a, int at, int r) {
      BE_SHORT.set(a, at, id);
      long address = recAddress[r];
      int end =
          atAddress && address != 0
              ? x.extractAt(address, a, at + 2)
              : x.extractInto(storeOf(r), recOff[r], a, at + 2);
      BE_LONG.set(a, end, recRid[r]);
      return end + 8;
    }

    private void add(SortGroup g, GrowableBytes e) {
      int at = reserve(g, e.length());
      EntryBuffer b = buffers[g.position()];
      System.arraycopy(e.array(), 0, b.array(), at, e.length());
      b.commit(e.length());
      chunkKeys++;
    }

    /**
     * Room for an entry of up to {@code maxLen} bytes in this worker's buffer of {@code g} (a new
     * one when the buffer is full, {@link SortGroup#full}): its offset in the buffer's array, to be
     * committed before the next call.
     */
    private int reserve(SortGroup g, int maxLen) {
      EntryBuffer b = buffer(g);
      int at = b.reserve(maxLen);
      if (at < 0) {
        at = next(g, b, maxLen).reserve(maxLen);
      }
      return at;
    }

    /** This worker's buffer of {@code g}, made when it has none yet. */
    private EntryBuffer buffer(SortGroup g) {
      EntryBuffer b = buffers[g.position()];
      return b != null ? b : (buffers[g.position()] = g.newBuffer());
    }

    /**
     * The buffer of {@code g} after the full {@code b} ({@link SortGroup#full}), which must have
     * room for an entry of up to {@code maxLen} bytes.
     */
    private EntryBuffer next(SortGroup g, EntryBuffer b, int maxLen) {
      EntryBuffer next = buffers[g.position()] = g.full(b);
      if (next.room(maxLen) == 0) {
        throw new IllegalStateException(
            "entry of up to "
                + maxLen
                + " bytes does not fit an empty sort buffer of group "
                + g.number());
      }
      return next;
    }

    /** The last buffers go to their groups, for the build. */
    void handOver() {
      for (int i = 0; i < buffers.length; i++) {
        if (buffers[i] != null && buffers[i].size() > 0) {
          groups.get(i).keepInMemory(buffers[i]);
        }
        buffers[i] = null;
      }
    }
  }
}
