package dev.idxkit.crash;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.Durability;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.spi.RecordLayout;
import dev.idxkit.core.spi.TableState;
import dev.idxkit.crash.BulkWorkload.Kind;
import dev.idxkit.crash.BulkWorkload.LogRow;
import dev.idxkit.crash.BulkWorkload.Unit;
import dev.idxkit.crash.TxnCampaign.Diffs;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Campaign {@code bulk}: bulk sessions ({@code Engine.of(db).beginBulk()}) that write heap pages of
 * {@code batch_rows} straight to the data area through {@link BulkWrite#stream} and make them live
 * with {@link BulkWrite#publish()}, acknowledged after publish returns; between sessions, ordinary
 * SYNC transactions on {@code batch_log} (see {@link BulkWorkload}).
 *
 * <p>A publish unit n writes batch n on fresh pages (formatted as {@link HeapPage}s, records
 * encoded by the table's {@link RecordLayout}), may drop older batches by freeing their pages
 * ({@link BulkWrite#freePage}; a later publish or transaction reuses them), updates the table's
 * pages and row count and sets the resume point {@value #RESUME_KEY} to n, all in the one meta
 * write. The bulk writer maintains no index, so {@code batch_rows}' index {@code batch_rows_batch}
 * is marked INACTIVE when the database is created (a rebuild would bring it back) and must stay so.
 *
 * <p>Units in the database: the larger of the resume point and the highest {@code batch_log} unit.
 * Verification regenerates every row of every live batch and every log row, and compares both
 * tables exactly; {@code db.check()} then proves the page accounting (no page both free and used,
 * none leaked by a torn session).
 *
 * <p>Kill points announced with PHASE: {@code bulk-begin} (the session's opening checkpoint),
 * {@code publish} (flush, area fsync, meta write), {@code bulk-close}.
 */
final class BulkCampaign implements CrashCampaign {
  static final String RESUME_KEY = "crash.bulk.unit";
  static final String TABLE = "batch_rows";
  static final String INDEX = "batch_rows_batch";

  @Override
  public String name() {
    return "bulk";
  }

  @Override
  public DatabaseOptions options() {
    return DatabaseOptions.defaults().withDurability(Durability.SYNC);
  }

  @Override
  public int maxAcksBeforeKill() {
    return 16;
  }

  @Override
  public void create(Path dir) {
    try (Database db = Database.create(dir, options())) {
      db.execute(BulkWorkload.DDL, "BulkWorkload.DDL");
      IndexInfo ix = db.catalog().index(INDEX);
      try (BulkWrite bulk = Engine.of(db).beginBulk()) {
        IndexState s = bulk.meta().index(ix.id());
        bulk.meta().index(ix.id(), new IndexState(s.root(), IndexStatus.INACTIVE));
        bulk.publish();
      }
    }
  }

  /** Units in the database: the larger of the resume point and the last log unit. */
  static long unitsOf(Database db) {
    byte[] resume = Engine.of(db).meta().resumePoint(RESUME_KEY);
    long published = resume == null ? 0 : ByteBuffer.wrap(resume).getLong();
    long logged = 0;
    try (RowCursor c = db.index("batch_log_pk").scan(KeyRange.ALL, true, 1)) {
      if (c.hasNext()) {
        logged = (Long) c.next().get(0);
      }
    }
    return Math.max(published, logged);
  }

  @Override
  public void work(Database db, long seed, ChildLine.Out out) {
    BulkWorkload w = new BulkWorkload(seed);
    w.advanceTo(unitsOf(db));
    out.ready(w.units());
    TableInfo t = db.catalog().table(TABLE);
    Table log = db.table("batch_log");
    ByteBuffer buf = ByteBuffer.allocateDirect(Engine.of(db).pageSize());
    BytesStore<?, ?> bytes = BytesStore.wrap(buf);
    Page scratchPage = new Page(bytes, 0, Engine.of(db).pageSize());
    BulkWrite session = null;
    try {
      while (true) {
        Unit u = w.advance();
        if (u.kind() == Kind.LOG) {
          session = endSession(db, session, out);
          out.begin(u.n());
          try (Transaction tx = db.begin(Durability.SYNC)) {
            tx.insert(log, w.logs().get(u.n()).values());
            tx.commit();
          }
          out.ack(u.n());
          continue;
        }
        if (session == null) {
          out.phase("bulk-begin");
          session = Engine.of(db).beginBulk();
        }
        out.begin(u.n());
        publishUnit(session, t, w, u, scratchPage);
        out.phase("publish");
        session.publish();
        out.ack(u.n());
        if (u.endSession()) {
          session = endSession(db, session, out);
        }
      }
    } finally {
      if (session != null) {
        session.close();
      }
      bytes.releaseLast();
    }
  }

  private static BulkWrite endSession(Database db, BulkWrite session, ChildLine.Out out) {
    if (session != null) {
      out.phase("bulk-close");
      session.close();
      db.bulkPublished();
    }
    return null;
  }

  /** Drops, then writes batch n, then stages the table's pages, rows and resume point. */
  private static void publishUnit(BulkWrite bulk, TableInfo t, BulkWorkload w, Unit u, Page page) {
    int area = t.area();
    MetaState.Builder meta = bulk.meta();
    TableState before = meta.table(t.id());
    PageRuns pages = before.pages();
    long rows = before.rows();
    if (!u.drops().isEmpty()) {
      PageAccess published = bulk.publishedPages(area);
      Map<Long, Integer> found = new HashMap<>();
      List<Long> freed = new ArrayList<>();
      for (long p = pages.next(-1); p >= 0; p = pages.next(p)) {
        Page hp = published.read(p);
        long batch = batchOf(t.layout(), hp);
        if (u.drops().containsKey(batch)) {
          found.merge(batch, HeapPage.liveCount(hp), Integer::sum);
          freed.add(p);
        }
      }
      if (!found.equals(u.drops())) {
        throw new IllegalStateException(
            "unit " + u.n() + " drops batches " + u.drops() + " but their pages hold " + found);
      }
      for (long p : freed) {
        bulk.freePage(area, p);
        pages = pages.remove(p);
      }
      rows -= u.drops().values().stream().mapToLong(Integer::longValue).sum();
    }
    RecordLayout layout = t.layout();
    try (BulkWrite.Stream out = bulk.stream(area)) {
      long no = fresh(out, page, area);
      for (int seq = 0; seq < u.rows(); seq++) {
        byte[] rec = layout.encode(w.row(u.n(), seq));
        if (HeapPage.insert(page, rec, 0, rec.length) < 0) {
          out.write(no, page);
          pages = pages.add(no);
          no = fresh(out, page, area);
          if (HeapPage.insert(page, rec, 0, rec.length) < 0) {
            throw new IllegalStateException(rec.length + " bytes do not fit an empty heap page");
          }
        }
      }
      out.write(no, page);
      pages = pages.add(no);
    }
    meta.table(t.id(), new TableState(pages, rows + u.rows()));
    meta.resume(RESUME_KEY, ByteBuffer.allocate(Long.BYTES).putLong(u.n()).array());
  }

  private static long fresh(BulkWrite.Stream out, Page page, int area) {
    long no = out.allocate();
    page.format(PageType.HEAP, no, area);
    HeapPage.init(page);
    return no;
  }

  /** The batch of a bulk-written page: every record on it belongs to the same batch. */
  private static long batchOf(RecordLayout layout, Page p) {
    for (int slot = 0; slot < HeapPage.slotCount(p); slot++) {
      if (HeapPage.isLive(p, slot)) {
        return (Long)
            layout.decodeColumn(
                p.store(),
                p.base() + HeapPage.recordOffset(p, slot),
                HeapPage.recordLength(p, slot),
                0);
      }
    }
    throw new IllegalStateException("heap page " + p.pageNo() + " of the table has no record");
  }

  @Override
  public Model model(long seed) {
    BulkWorkload w = new BulkWorkload(seed);
    return new Model() {
      @Override
      public long unitsIn(Database db) {
        return unitsOf(db);
      }

      @Override
      public long verify(Database db, long units) {
        w.advanceTo(units);
        return verifyAgainst(db, w);
      }
    };
  }

  /** Compares both tables, the resume point and the index state with the model. */
  private static long verifyAgainst(Database db, BulkWorkload w) {
    Diffs diffs = new Diffs();
    byte[] resume = Engine.of(db).meta().resumePoint(RESUME_KEY);
    long published = resume == null ? 0 : ByteBuffer.wrap(resume).getLong();
    if (published != w.lastPublish()) {
      diffs.add("resume point " + published + ", model's last publish " + w.lastPublish());
    }
    if (db.index(INDEX).isActive()) {
      diffs.add("index " + INDEX + " is active, but bulk publishes do not maintain it");
    }
    TreeMap<Long, LogRow> logs = new TreeMap<>();
    try (RowCursor c = db.table("batch_log").scan()) {
      while (c.hasNext()) {
        Object[] v = c.next().values();
        logs.put((Long) v[0], new LogRow((Long) v[0], (Integer) v[1], (Long) v[2]));
      }
    }
    if (!logs.equals(w.logs())) {
      diffs.add("batch_log holds " + logs.values() + ", model " + w.logs().values());
    }
    Map<Long, BitSet> seen = new TreeMap<>();
    long rows = 0;
    try (RowCursor c = db.table(TABLE).scan()) {
      while (c.hasNext()) {
        Row r = c.next();
        rows++;
        long batch = (Long) r.get(0);
        int seq = (Integer) r.get(1);
        Integer size = w.batches().get(batch);
        if (size == null) {
          diffs.add("row of batch " + batch + " (seq " + seq + ") is not in the model");
          continue;
        }
        if (seq < 0 || seq >= size || !Arrays.equals(r.values(), w.row(batch, seq))) {
          diffs.add("batch " + batch + " row " + Arrays.toString(r.values()) + " differs");
        }
        BitSet b = seen.computeIfAbsent(batch, k -> new BitSet());
        if (seq >= 0 && b.get(seq)) {
          diffs.add("batch " + batch + " seq " + seq + " is there twice");
        }
        b.set(Math.max(0, seq));
      }
    }
    for (var e : w.batches().entrySet()) {
      BitSet b = seen.get(e.getKey());
      int have = b == null ? 0 : b.cardinality();
      if (have != e.getValue()) {
        diffs.add("batch " + e.getKey() + " has " + have + " of its " + e.getValue() + " rows");
      }
    }
    if (db.table(TABLE).rowCount() != w.totalRows()) {
      diffs.add("row count " + db.table(TABLE).rowCount() + ", model " + w.totalRows());
    }
    diffs.throwIfAny("after units 1.." + w.units());
    return rows + logs.size();
  }
}
