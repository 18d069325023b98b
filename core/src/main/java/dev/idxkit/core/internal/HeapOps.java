package dev.idxkit.core.internal;

import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.internal.txn.StoreTxn;
import dev.idxkit.core.internal.txn.View;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.Overflow;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.PageType;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * A table's records in its heap pages: where a new record goes, and reading, rewriting and deleting
 * one by RID.
 *
 * <p>Placement: the table's insert hint (the page the last insert used), then pages that deletes
 * left at least a quarter empty, then a new page. Records longer than a heap page's inline maximum
 * go to an overflow chain and the heap slot keeps a stub. A page whose last record is deleted is
 * freed and leaves the table. Hints live in memory only; they are checked against the table's pages
 * before use, so a stale hint (after a rollback or a bulk load) is harmless.
 */
public final class HeapOps {
  private HeapOps() {}

  /** The row at {@code rid}, or null when the RID does not name a live record of the table. */
  public static Object[] read(View v, TableInfo t, long rid) {
    PageAccess pa = v.pages(t.area());
    Page p = heapPage(v, t, pa, rid);
    if (p == null) {
      return null;
    }
    int slot = Rid.slot(rid);
    if (HeapPage.isOverflow(p, slot)) {
      byte[] rec = Overflow.readRecord(pa, p, slot);
      return t.layout().decode(BytesStore.wrap(rec), 0, rec.length);
    }
    return t.layout()
        .decode(
            p.store(), p.base() + HeapPage.recordOffset(p, slot), HeapPage.recordLength(p, slot));
  }

  /** Inserts an encoded record and returns its RID. */
  public static long insert(StoreTxn txn, TableInfo t, byte[] rec, int len, HeapHints hints) {
    PageAccess pa = txn.pages(t.area());
    byte[] body = rec;
    int bodyLen = len;
    boolean stub = false;
    if (len > HeapPage.maxInlineLength(pa.pageSize())) {
      body = Overflow.stub(Overflow.write(pa, rec, 0, len), len);
      bodyLen = body.length;
      stub = true;
    }
    PageRuns pages = txn.table(t.id()).pages();
    long hint = hints.insertPage(t.id());
    if (hint > 0 && pages.contains(hint) && HeapPage.fits(pa.read(hint), bodyLen)) {
      return place(pa, hint, body, bodyLen, stub);
    }
    long candidate;
    while ((candidate = hints.pollRoomy(t.id())) > 0) {
      if (pages.contains(candidate) && HeapPage.fits(pa.read(candidate), bodyLen)) {
        hints.insertPage(t.id(), candidate);
        return place(pa, candidate, body, bodyLen, stub);
      }
    }
    long last = pages.last();
    if (last > 0 && last != hint && HeapPage.fits(pa.read(last), bodyLen)) {
      hints.insertPage(t.id(), last);
      return place(pa, last, body, bodyLen, stub);
    }
    Page fresh = pa.allocate(PageType.HEAP);
    HeapPage.init(fresh);
    txn.addTablePage(t.id(), fresh.pageNo());
    hints.insertPage(t.id(), fresh.pageNo());
    return place(pa, fresh.pageNo(), body, bodyLen, stub);
  }

  /**
   * Rewrites the record at {@code rid} in place if the new one fits there inline. Returns false
   * (and changes nothing) when it must move, or when either version overflows.
   */
  public static boolean rewrite(StoreTxn txn, TableInfo t, long rid, byte[] rec, int len) {
    PageAccess pa = txn.pages(t.area());
    Page p = heapPage(txn, t, pa, rid);
    int slot = Rid.slot(rid);
    if (p == null
        || HeapPage.isOverflow(p, slot)
        || len > HeapPage.maxInlineLength(pa.pageSize())) {
      return false;
    }
    int old = HeapPage.recordLength(p, slot);
    if (len > old && HeapPage.freeSpace(p) < len - old) {
      return false;
    }
    return HeapPage.update(pa.write(p.pageNo()), slot, rec, 0, len);
  }

  /**
   * Deletes the record at {@code rid} (which must be live), freeing overflow pages and emptied
   * pages.
   */
  public static void delete(StoreTxn txn, TableInfo t, long rid, HeapHints hints) {
    PageAccess pa = txn.pages(t.area());
    Page p = heapPage(txn, t, pa, rid);
    if (p == null) {
      throw new IllegalStateException("no record at " + Rid.toString(rid) + " in " + t.name());
    }
    int slot = Rid.slot(rid);
    if (HeapPage.isOverflow(p, slot)) {
      Overflow.free(pa, Overflow.stubFirstPage(p, slot));
    }
    Page w = pa.write(p.pageNo());
    HeapPage.delete(w, slot);
    if (HeapPage.isEmpty(w)) {
      txn.removeTablePage(t.id(), w.pageNo());
      pa.free(w.pageNo());
    } else if (HeapPage.freeSpace(w) >= pa.pageSize() / 4) {
      hints.offerRoomy(t.id(), w.pageNo());
    }
  }

  /** The heap page holding {@code rid} if the RID names a live record of the table, else null. */
  static Page heapPage(View v, TableInfo t, PageAccess pa, long rid) {
    long page = Rid.page(rid);
    if (page <= 0 || !v.table(t.id()).pages().contains(page)) {
      return null;
    }
    Page p = pa.read(page);
    if (p.type() != PageType.HEAP) {
      throw new CorruptPageException(
          Path.of(pa.name()),
          page,
          "page of table " + t.name() + " has type " + p.typeCode() + " (expected: HEAP)");
    }
    int slot = Rid.slot(rid);
    if (slot >= HeapPage.slotCount(p) || !HeapPage.isLive(p, slot)) {
      return null;
    }
    return p;
  }

  private static long place(PageAccess pa, long page, byte[] body, int len, boolean stub) {
    int slot = HeapPage.insert(pa.write(page), body, 0, len, stub);
    if (slot < 0) {
      throw new IllegalStateException("record of " + len + " bytes did not fit page " + page);
    }
    return Rid.of(page, slot);
  }
}
