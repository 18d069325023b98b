package dev.idxkit.core.internal.txn;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.Durability;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.internal.io.AsyncWriter;
import dev.idxkit.core.internal.io.PageFile;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.meta.MetaCodec;
import dev.idxkit.core.internal.meta.MetaEdits;
import dev.idxkit.core.internal.meta.MetaFile;
import dev.idxkit.core.internal.wal.Wal;
import dev.idxkit.core.internal.wal.WalReader;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Pages, durability and visibility for one database directory: the area page files, the meta slots,
 * the write-ahead log, and the locks that give one writer and many readers.
 *
 * <p>Directory: {@code meta} (two slots), {@code wal}, {@code lock}, one {@code <area>.area} page
 * file per area. Page numbers are area-relative and page 0 of each file is its {@link AreaHeader}.
 *
 * <p>How a page is found: a transaction's own copy first, then the latest committed image still in
 * the log (kept in memory, keyed by area and page, like SQLite's WAL index), then the area file
 * through its mapping.
 *
 * <p>Writes: a {@link StoreTxn} copies the pages it changes, and at commit appends them and its
 * meta edits to the log, then installs them as the committed images under the visibility write
 * lock, so readers (holding the read lock for one operation) see all of a commit or none of it. A
 * {@link #checkpoint} copies the committed images home in page order with several writes in flight,
 * fsyncs the areas, writes the next meta slot, and cuts the log. Bulk writers ({@link BulkWrite})
 * bypass the log: they only write pages that no published meta references, and make them live with
 * one meta write.
 *
 * <p>Recovery at open: the newest valid meta slot, then every committed log transaction after its
 * checkpoint LSN, then (read-write opens) a checkpoint. Memory: the committed images (bounded by
 * {@code checkpointBytes} of log) plus a small buffer pool.
 */
public final class Store implements AutoCloseable {
  private static final Pattern AREA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private final Path dir;
  private final StoreOptions options;
  private final DirectoryLock lock;
  private final MetaFile metaFile;
  private final Wal wal;
  private final int pageSize;
  private final PagePool pool;
  public final Semaphore writer = new Semaphore(1);
  private final ReentrantReadWriteLock visibility = new ReentrantReadWriteLock();
  private final LongMap<PageBuffer> committed = new LongMap<>(1024);
  private volatile PageFile[] areas = new PageFile[0];
  private volatile MetaState current;
  public List<FreeList> free;
  private volatile long[] freeCounts = new long[0];
  private long lastLsn;
  private boolean metaDirty;
  private AsyncWriter homeWriter;
  private ScheduledExecutorService flusher;
  private volatile boolean closed;
  private volatile CheckpointStats lastCheckpoint = CheckpointStats.NONE;
  private final WalReader.Result recovery;

  private Store(
      Path dir,
      StoreOptions options,
      DirectoryLock lock,
      MetaFile metaFile,
      MetaCodec.Decoded meta,
      int pageSize) {
    this.dir = dir;
    this.options = options;
    this.lock = lock;
    this.metaFile = metaFile;
    this.pageSize = pageSize;
    this.pool = new PagePool(pageSize, 1024);
    this.current = meta.state();
    this.free = new ArrayList<>(meta.free());
    this.lastLsn = meta.state().checkpointLsn();
    for (int a = 0; a < current.areaSlots(); a++) {
      String name = current.areaName(a);
      if (name != null) {
        openArea(a, name, false);
      }
    }
    this.wal = Wal.open(dir.resolve("wal"), pageSize, options.readOnly(), options.fileIo());
    checkMetaMatchesLog();
    this.recovery = recover();
  }

  /**
   * Refuses to open from the older meta slot when the newest one was written whole and damaged
   * later. Every meta write records the salt of the log that follows it, and the log is reset with
   * that salt right after. So when open had to fall back (the other slot is unreadable), the older
   * slot still describes the files only if the log carries its salt: the newest slot was torn while
   * being written, before the reset. A log with another salt continues from a newer meta than the
   * one left, and the work between the two is in the area files but in no meta and no log;
   * answering from the older slot would silently lose it or point at the wrong pages.
   */
  private void checkMetaMatchesLog() {
    String otherProblem = metaFile.otherSlotProblem();
    long metaSalt = metaFile.walSalt();
    if (otherProblem == null || metaSalt == 0) {
      return; // the newest slot is the current one, or a file from before salts were recorded
    }
    long logSalt = wal.headerSalt();
    if (logSalt == metaSalt || (logSalt == 0 && metaFile.generation() == 1)) {
      return; // a torn write of the newest slot, or a create stopped before the log was made
    }
    closeFilesAfterFailedOpen();
    throw new CorruptDatabaseException(
        metaFile.path(),
        "meta slot "
            + (1 - metaFile.currentSlot())
            + " is damaged ("
            + otherProblem
            + ") and the write-ahead log "
            + (logSalt == 0 ? "has no valid header" : "continues from it")
            + ", so the other slot (generation "
            + metaFile.generation()
            + ") is out of date; opening from it would lose the work since; restore the"
            + " database from a backup");
  }

  /** Creates a database directory (absent or empty) with the given areas and catalog. */
  public static Store create(
      Path dir, StoreOptions options, Map<Integer, String> initialAreas, byte[] catalog) {
    try {
      Files.createDirectories(dir);
      try (var entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new InvalidInputException(
              "cannot create database " + dir + ": directory is not empty");
        }
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot create database directory " + dir, e);
    }
    UUID id = UUID.randomUUID();
    MetaState.Builder b = MetaState.builder(id, options.pageSize()).generation(1).catalog(catalog);
    for (var e : initialAreas.entrySet()) {
      checkAreaName(e.getValue());
      b.area(e.getKey(), e.getValue());
      writeAreaFile(dir, options.pageSize(), e.getKey(), e.getValue(), id, options.fileIo());
    }
    MetaState m = b.build();
    long salt = Wal.newSalt();
    MetaFile.create(dir.resolve("meta"), 1, MetaCodec.encode(m, List.of()), salt, options.fileIo())
        .close();
    Wal w = Wal.open(dir.resolve("wal"), options.pageSize(), false, options.fileIo());
    w.reset(salt);
    w.close();
    return open(dir, options);
  }

  /** Opens a database directory, recovering committed work from the log. */
  public static Store open(Path dir, StoreOptions options) {
    if (!Files.isDirectory(dir)) {
      throw new InvalidInputException("no database at " + dir + " (not a directory)");
    }
    if (!Files.exists(dir.resolve("meta"))) {
      throw new InvalidInputException("no database at " + dir + " (no meta file)");
    }
    DirectoryLock lock = DirectoryLock.acquire(dir, options.readOnly());
    MetaFile mf = null;
    try {
      mf = MetaFile.open(dir.resolve("meta"), options.readOnly(), options.fileIo());
      MetaCodec.Decoded meta;
      try {
        meta = MetaCodec.decode(mf.readCurrent());
      } catch (IllegalArgumentException e) {
        throw new CorruptDatabaseException(mf.path(), e.getMessage());
      }
      int pageSize = meta.state().pageSize();
      Page.checkSize(pageSize);
      return new Store(dir, options, lock, mf, meta, pageSize);
    } catch (RuntimeException e) {
      if (mf != null) {
        mf.close();
      }
      lock.close();
      throw e;
    }
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
    return current;
  }

  /** What recovery found in the log at open. */
  public WalReader.Result recovery() {
    return recovery;
  }

  /** Timings of the most recent checkpoint. */
  public CheckpointStats lastCheckpoint() {
    return lastCheckpoint;
  }

  public long lastLsn() {
    return lastLsn;
  }

  public long walBytes() {
    return wal.size();
  }

  /** Bytes of committed page images held in memory until the next checkpoint. */
  public long committedImages() {
    Lock r = visibility.readLock();
    r.lock();
    try {
      return (long) committed.size() * pageSize;
    } finally {
      r.unlock();
    }
  }

  /**
   * Pages read from area {@code area}'s file since open (see {@link PageFile#pagesRead()}); pages
   * served from committed log images are not counted. 0 for an area that does not exist.
   */
  public long pagesRead(int area) {
    PageFile[] a = areas;
    return area >= 0 && area < a.length && a[area] != null ? a[area].pagesRead() : 0;
  }

  /** Pages written to area {@code area}'s file since open; 0 for an area that does not exist. */
  public long pagesWritten(int area) {
    PageFile[] a = areas;
    return area >= 0 && area < a.length && a[area] != null ? a[area].pagesWritten() : 0;
  }

  /** Free pages per area as of the last commit, publish or checkpoint. */
  public long freePages(int area) {
    long[] c = freeCounts;
    return area < c.length ? c[area] : 0;
  }

  /** Held for the length of one read operation: commits and checkpoints wait for it. */
  public Lock readLock() {
    return visibility.readLock();
  }

  /** A read-only view of an area's committed pages; valid under {@link #readLock()}. */
  public PageAccess committedPages(int area) {
    return new CommittedPages(area);
  }

  /**
   * The committed state as of now: take it, and read through it, under {@link #readLock()}. The
   * pages it returns are those committed when each is read; holding the read lock keeps them from
   * changing.
   */
  public View committedView() {
    MetaState m = current;
    return new View() {
      @Override
      public PageAccess pages(int area) {
        return committedPages(area);
      }

      @Override
      public dev.idxkit.core.spi.TableState table(int id) {
        return m.table(id);
      }

      @Override
      public dev.idxkit.core.spi.IndexState index(int id) {
        return m.index(id);
      }
    };
  }

  /**
   * Runs {@code inspect} with the writer held, so nothing commits or checkpoints meanwhile; it gets
   * copies of the free lists (one per area). For consistency checks.
   */
  public <T> T inspect(Function<List<FreeList>, T> inspect) {
    acquireWriter();
    try {
      List<FreeList> copies = new ArrayList<>();
      for (FreeList f : free) {
        copies.add(f == null ? new FreeList() : f.copy());
      }
      return inspect.apply(copies);
    } finally {
      writer.release();
    }
  }

  /**
   * Reads a page checking its checksum even if it was verified before (a check wants the bytes on
   * disk now). Committed images still in the log were verified when written or recovered.
   */
  public void verifyPage(int area, long pageNo) {
    if (committed.containsKey(key(area, pageNo))) {
      return;
    }
    PageFile f = areaFile(area);
    f.verify(f.view(pageNo), pageNo);
  }

  /** Starts the one write transaction; waits while another is open. */
  public StoreTxn begin(Durability durability) {
    checkWritable();
    acquireWriter();
    return new StoreTxn(this, durability == null ? options.durability() : durability);
  }

  /**
   * Starts a bulk write session: waits for the writer, checkpoints so the published meta is the
   * current state, and holds the writer until closed.
   */
  public BulkWrite beginBulk() {
    checkWritable();
    acquireWriter();
    try {
      checkpointLocked();
      return new BulkWrite(this);
    } catch (RuntimeException e) {
      writer.release();
      throw e;
    }
  }

  /** Copies committed log pages home and writes a meta slot; waits for the writer. */
  public void checkpoint() {
    checkWritable();
    acquireWriter();
    try {
      checkpointLocked();
    } finally {
      writer.release();
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    acquireWriter();
    try {
      if (closed) {
        return;
      }
      try {
        if (!options.readOnly()) {
          checkpointLocked();
        }
      } finally {
        closed = true;
        if (flusher != null) {
          flusher.shutdownNow();
        }
        if (homeWriter != null) {
          homeWriter.close();
        }
        for (PageFile f : areas) {
          if (f != null) {
            f.close();
          }
        }
        wal.close();
        metaFile.close();
        lock.close();
      }
    } finally {
      writer.release();
    }
  }

  public boolean isClosed() {
    return closed;
  }

  // ---- used by StoreTxn and BulkWrite (same package) ----

  Page readCommitted(int area, long pageNo) {
    if (!committed.isEmpty()) {
      PageBuffer b = committed.get(key(area, pageNo));
      if (b != null) {
        return b.page;
      }
    }
    return areaFile(area).read(pageNo);
  }

  public PageFile areaFile(int area) {
    PageFile[] a = areas;
    if (area < 0 || area >= a.length || a[area] == null) {
      throw new InvalidInputException("no area " + area + " in " + dir);
    }
    return a[area];
  }

  PagePool pool() {
    return pool;
  }

  /** Installs a commit: appends it to the log, then makes it visible. Returns the log offset. */
  long commit(StoreTxn txn, List<PageBuffer> pages, byte[] edits, MetaState next) {
    long lsn = lastLsn + 1;
    List<Page> images = new ArrayList<>(pages.size());
    for (PageBuffer b : pages) {
      b.page.seal(lsn);
      images.add(b.page);
    }
    long end = wal.append(lsn, images, edits);
    lastLsn = lsn;
    Lock w = visibility.writeLock();
    w.lock();
    try {
      for (PageBuffer b : pages) {
        PageBuffer old = committed.put(key(b.page.areaId(), b.page.pageNo()), b);
        pool.release(old);
      }
      txn.applyFrees(free);
      current = next;
      metaDirty = true;
      countFree();
    } finally {
      w.unlock();
    }
    return end;
  }

  void afterCommit(long walEnd, Durability durability) {
    switch (durability) {
      case SYNC -> wal.sync(walEnd);
      case ASYNC -> scheduleFlush();
      case OFF -> {}
    }
  }

  /** Called by the committer while it still holds the writer. */
  void maybeCheckpoint() {
    if (wal.size() > options.checkpointBytes()) {
      checkpointLocked();
    }
  }

  /** Publishes a bulk session's meta: one meta write, then the new state becomes visible. */
  public void publish(MetaState.Builder next, List<FreeList> nextFree) {
    MetaState m = next.generation(current.generation() + 1).checkpointLsn(lastLsn).build();
    // The session began with a checkpoint and holds the writer, so the log is empty: it is reset
    // with a new salt like after a checkpoint, which is what lets open tell a torn newest slot from
    // a damaged one (checkMetaMatchesLog).
    if (wal.size() != Wal.HEADER_SIZE) {
      throw new IllegalStateException(
          "bulk publish with " + wal.size() + " bytes in the log (expected: an empty log)");
    }
    long salt = Wal.newSalt();
    metaFile.write(m.generation(), MetaCodec.encode(m, nextFree), salt);
    wal.reset(salt);
    Lock w = visibility.writeLock();
    w.lock();
    try {
      current = m;
      free = nextFree;
      countFree();
    } finally {
      w.unlock();
    }
  }

  /** Creates an area file for a new area (DDL); the area is live once its edit commits. */
  void createAreaFile(int area, String name) {
    checkAreaName(name);
    Path file = dir.resolve(name + ".area");
    if (area < areas.length && areas[area] != null) {
      throw new IllegalStateException("area " + area + " already exists");
    }
    // A file left by a DDL transaction that never committed is not referenced by any meta.
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot replace unreferenced area file " + file, e);
    }
    writeAreaFile(dir, pageSize, area, name, current.dbId(), options.fileIo());
    openArea(area, name, true);
  }

  /** Forgets and deletes an area file whose creating transaction rolled back. */
  void discardArea(int area) {
    PageFile f = areas[area];
    if (f == null) {
      return;
    }
    PageFile[] a = areas.clone();
    a[area] = null;
    areas = a;
    f.close();
    try {
      Files.deleteIfExists(f.path());
    } catch (IOException e) {
      // An unreferenced file; the next DDL creating this area replaces it.
    }
  }

  void acquireWriter() {
    try {
      writer.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IdxkitException("interrupted while waiting for the database writer", e);
    }
    if (closed) {
      writer.release();
      throw new IllegalStateException("database " + dir + " is closed");
    }
  }

  void checkpointLocked() {
    if (options.readOnly()) {
      return;
    }
    if (!metaDirty && committed.isEmpty() && wal.size() <= Wal.HEADER_SIZE) {
      return;
    }
    long t0 = System.nanoTime();
    wal.syncAll();
    long t1 = System.nanoTime();
    int pages = committed.size();
    boolean[] touched = writeHome();
    for (int a = 0; a < touched.length; a++) {
      if (touched[a]) {
        areaFile(a).sync();
      }
    }
    long t2 = System.nanoTime();
    MetaState next =
        current.toBuilder().generation(current.generation() + 1).checkpointLsn(lastLsn).build();
    long salt = Wal.newSalt();
    metaFile.write(next.generation(), MetaCodec.encode(next, free), salt);
    wal.reset(salt);
    lastCheckpoint =
        new CheckpointStats(
            pages, (long) pages * pageSize, t1 - t0, t2 - t1, System.nanoTime() - t2);
    Lock w = visibility.writeLock();
    w.lock();
    try {
      current = next;
      committed.forEachValue(pool::release);
      committed.clear();
      metaDirty = false;
    } finally {
      w.unlock();
    }
  }

  // ---- internals ----

  private void countFree() {
    long[] c = new long[free.size()];
    for (int a = 0; a < c.length; a++) {
      c[a] = free.get(a).pageCount();
    }
    freeCounts = c;
  }

  /**
   * Writes the committed images home in (area, page) order, coalescing consecutive pages into large
   * writes that run several at a time. Returns which areas were written.
   */
  private boolean[] writeHome() {
    boolean[] touched = new boolean[areas.length];
    if (committed.isEmpty()) {
      return touched;
    }
    long[] keys = committed.keys();
    Arrays.sort(keys);
    if (homeWriter == null) {
      homeWriter = new AsyncWriter(8, Math.max(pageSize, 1 << 20), 4);
    }
    try {
      copyHome(keys, touched);
    } catch (RuntimeException e) {
      // The writer keeps its first failure for good; the next checkpoint gets a fresh one, so a
      // disk that works again is not refused for the rest of the process.
      AsyncWriter failed = homeWriter;
      homeWriter = null;
      failed.close();
      throw e;
    }
    return touched;
  }

  private void copyHome(long[] keys, boolean[] touched) {
    ByteBuffer buf = null;
    int bufArea = -1;
    long bufStart = -1;
    long next = -1;
    for (long k : keys) {
      int area = areaOf(k);
      long page = pageOf(k);
      touched[area] = true;
      if (buf != null && (area != bufArea || page != next || !buf.hasRemaining())) {
        buf.flip();
        homeWriter.submit(areaFile(bufArea), bufStart, buf);
        buf = null;
      }
      if (buf == null) {
        buf = homeWriter.acquire();
        buf.limit(buf.capacity() - buf.capacity() % pageSize);
        bufArea = area;
        bufStart = page;
      }
      ByteBuffer src = committed.get(k).buffer.duplicate().clear();
      buf.put(src);
      next = page + 1;
    }
    buf.flip();
    homeWriter.submit(areaFile(bufArea), bufStart, buf);
    homeWriter.flush();
  }

  private WalReader.Result recover() {
    MetaState.Builder b = current.toBuilder();
    WalReader.Result r;
    try {
      r =
          WalReader.recover(
              wal,
              current.checkpointLsn(),
              metaFile.walSalt(),
              new WalReader.Replay() {
                @Override
                public void page(int area, long pageNo, Page image) {
                  PageBuffer buf = pool.acquire();
                  buf.page.copyFrom(image);
                  pool.release(committed.put(key(area, pageNo), buf));
                }

                @Override
                public void commit(long lsn, byte[] edits) {
                  try {
                    MetaEdits.replay(edits, b, free);
                  } catch (IllegalArgumentException e) {
                    throw new CorruptDatabaseException(
                        wal.path(), "transaction " + lsn + ": " + e.getMessage());
                  }
                  // Areas created by a replayed DDL transaction.
                  for (int a = 0; a < b.areaSlots(); a++) {
                    String name = b.areaName(a);
                    if (name != null && (a >= areas.length || areas[a] == null)) {
                      openArea(a, name, false);
                    }
                  }
                }
              },
              options.readOnly());
    } catch (RuntimeException e) {
      closeFilesAfterFailedOpen();
      throw e;
    }
    current = b.build();
    countFree();
    lastLsn = Math.max(lastLsn, r.lastLsn());
    metaDirty = r.transactions() > 0;
    checkAreaLengths();
    if (!options.readOnly()) {
      if (!r.headerValid() && r.transactions() == 0) {
        // Nothing to keep; with replayed work the checkpoint below resets the log after the meta
        // write, so a crash before then recovers the same way again. The log gets back the salt the
        // meta recorded for it: a random one would make a later open that finds the older slot
        // damaged believe the newest one is out of date (checkMetaMatchesLog).
        long salt = metaFile.walSalt();
        wal.reset(salt != 0 ? salt : Wal.newSalt());
      }
      try {
        checkpointLocked();
      } catch (RuntimeException e) {
        closeFilesAfterFailedOpen();
        throw e;
      }
    }
    return r;
  }

  /**
   * An area file shorter than its high-water mark lost pages the meta references. Pages past the
   * end may legitimately be missing when they are free (a bulk writer reserved them and never wrote
   * them) or when their image is still in the log.
   */
  private void checkAreaLengths() {
    for (int a = 0; a < areas.length; a++) {
      PageFile f = areas[a];
      if (f == null) {
        continue;
      }
      long hwm = current.hwm(a);
      long have = f.sizeInPages();
      FreeList fl = a < free.size() ? free.get(a) : new FreeList();
      for (long p = have; p < hwm; p++) {
        if (!committed.containsKey(key(a, p)) && !fl.contains(p)) {
          closeFilesAfterFailedOpen();
          throw new CorruptDatabaseException(
              f.path(),
              "file has "
                  + have
                  + " pages but the database uses page "
                  + p
                  + " (high-water mark "
                  + hwm
                  + "; file truncated?)");
        }
      }
    }
  }

  private void closeFilesAfterFailedOpen() {
    for (PageFile f : areas) {
      if (f != null) {
        f.close();
      }
    }
    wal.close();
    metaFile.close();
    lock.close();
  }

  private void openArea(int area, String name, boolean created) {
    PageFile f =
        PageFile.open(
            dir.resolve(name + ".area"), pageSize, false, options.readOnly(), options.fileIo());
    try {
      AreaHeader.verify(f, area, name, current.dbId());
    } catch (RuntimeException e) {
      f.close();
      throw e;
    }
    PageFile[] a = Arrays.copyOf(areas, Math.max(areas.length, area + 1));
    a[area] = f;
    areas = a;
  }

  private static void writeAreaFile(
      Path dir, int pageSize, int area, String name, UUID dbId, FileIo io) {
    PageFile f = PageFile.open(dir.resolve(name + ".area"), pageSize, true, false, io);
    try {
      ByteBuffer b = ByteBuffer.allocateDirect(pageSize);
      Page p = new Page(net.openhft.chronicle.bytes.BytesStore.wrap(b), 0, pageSize);
      AreaHeader.format(p, area, name, dbId);
      f.write(0, b);
      f.sync();
    } finally {
      f.close();
    }
  }

  private static void checkAreaName(String name) {
    if (name == null || !AREA_NAME.matcher(name).matches()) {
      throw new InvalidInputException(
          "area name : " + name + " (expected: lower-case letters, digits and _, at most 63)");
    }
  }

  private void scheduleFlush() {
    synchronized (this) {
      if (flusher == null) {
        flusher =
            Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "idxkit-wal-flush");
                  t.setDaemon(true);
                  return t;
                });
        flusher.scheduleWithFixedDelay(
            () -> {
              if (!closed) {
                try {
                  wal.syncAll();
                } catch (RuntimeException e) {
                  // The next commit or checkpoint fsync reports the failure to a caller.
                }
              }
            },
            options.asyncFlushMillis(),
            options.asyncFlushMillis(),
            TimeUnit.MILLISECONDS);
      }
    }
  }

  private void checkWritable() {
    if (options.readOnly()) {
      throw new IllegalStateException("database " + dir + " is open read-only");
    }
  }

  public static long key(int area, long page) {
    return ((long) area << 48) | page;
  }

  public static int areaOf(long key) {
    return (int) (key >>> 48);
  }

  public static long pageOf(long key) {
    return key & ((1L << 48) - 1);
  }

  /** Committed pages of one area, read-only. */
  private final class CommittedPages implements PageAccess {
    private final int area;

    CommittedPages(int area) {
      this.area = area;
    }

    @Override
    public int pageSize() {
      return pageSize;
    }

    @Override
    public int areaId() {
      return area;
    }

    @Override
    public String name() {
      return areaFile(area).path().toString();
    }

    @Override
    public Page read(long pageNo) {
      return readCommitted(area, pageNo);
    }

    @Override
    public void willRead(long firstPage, long pages) {
      areaFile(area).willNeed(firstPage, pages);
    }

    @Override
    public Page write(long pageNo) {
      throw new UnsupportedOperationException("read-only view of " + name());
    }

    @Override
    public Page allocate(PageType type) {
      throw new UnsupportedOperationException("read-only view of " + name());
    }

    @Override
    public void free(long pageNo) {
      throw new UnsupportedOperationException("read-only view of " + name());
    }
  }
}
