package dev.idxkit.core;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.KeyExtractor;
import dev.idxkit.core.spi.Overflow;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.PageType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * One task of {@link DatabaseCheck}'s first step: the heap pages of a table from {@code first} to
 * {@code last}, each claimed with its overflow pages, and each live row's key for every index to
 * walk added to that index's digest (this chunk's own). With {@code checked} (the table was asked
 * for), each page is also checked and each record decoded; the table's live count is the sum of its
 * chunks'.
 */
final class HeapCheck implements Callable<HeapCheck.Result> {
  /** What the chunk found: its live rows, a digest per walked index, its problems. */
  record Result(long live, EntryDigest[] digests, List<String> problems) {}

  private final CheckRun run;
  private final TableInfo table;
  private final boolean checked;
  private final List<IndexInfo> walked;
  private final long first;
  private final long last;
  private final List<String> found = new ArrayList<>();

  HeapCheck(
      CheckRun run,
      TableInfo table,
      boolean checked,
      List<IndexInfo> walked,
      long first,
      long last) {
    this.run = run;
    this.table = table;
    this.checked = checked;
    this.walked = walked;
    this.first = first;
    this.last = last;
  }

  TableInfo table() {
    return table;
  }

  List<IndexInfo> walked() {
    return walked;
  }

  @Override
  public Result call() {
    KeyExtractor[] extractors = new KeyExtractor[walked.size()];
    EntryDigest[] digests = new EntryDigest[walked.size()];
    for (int i = 0; i < extractors.length; i++) {
      extractors[i] = walked.get(i).extractor(table.layout());
      digests[i] = new EntryDigest();
    }
    GrowableBytes key = new GrowableBytes();
    PageAccess pa = run.store.committedPages(table.area());
    PageRuns pages = run.meta.table(table.id()).pages();
    String owner = "table " + table.name();
    long live = 0;
    int sinceReport = 0;
    for (long p = first; p >= 0 && p <= last; p = pages.next(p)) {
      if (++sinceReport == CheckRun.PAGES_PER_REPORT) {
        run.advance(sinceReport);
        sinceReport = 0;
      }
      if (!run.claim(table.area(), p, owner, found)) {
        continue;
      }
      Page page;
      try {
        page = pa.read(p);
        if (checked) {
          if (page.type() != PageType.HEAP) {
            run.add(found, owner + ": page " + p + " has type " + page.typeCode() + ", not HEAP");
            continue;
          }
          HeapPage.verify(page, pa.name());
        }
      } catch (IdxkitException e) {
        run.add(found, owner + ": " + e.getMessage());
        continue;
      }
      try {
        live += rows(pa, page, p, extractors, digests, key);
      } catch (IdxkitException e) {
        run.add(found, owner + ": " + e.getMessage()); // a bad page of a table not asked for
      }
    }
    run.advance(sinceReport);
    return new Result(live, digests, found);
  }

  /** The live rows of one heap page: claimed, decoded when checked, digested; returns how many. */
  private long rows(
      PageAccess pa,
      Page page,
      long p,
      KeyExtractor[] extractors,
      EntryDigest[] digests,
      GrowableBytes key) {
    long live = 0;
    for (int slot = 0; slot < HeapPage.slotCount(page); slot++) {
      if (!HeapPage.isLive(page, slot)) {
        continue;
      }
      live++;
      long rid = Rid.of(p, slot);
      try {
        BytesStore<?, ?> bytes;
        long at;
        int len;
        if (HeapPage.isOverflow(page, slot)) {
          claimOverflow(pa, Overflow.stubFirstPage(page, slot), rid);
          if (!checked && extractors.length == 0) {
            continue;
          }
          byte[] rec = Overflow.readRecord(pa, page, slot);
          bytes = BytesStore.wrap(rec);
          at = 0;
          len = rec.length;
        } else {
          bytes = page.store();
          at = page.base() + HeapPage.recordOffset(page, slot);
          len = HeapPage.recordLength(page, slot);
        }
        if (checked) {
          table.layout().decode(bytes, at, len);
        }
        for (int i = 0; i < extractors.length; i++) {
          key.reset();
          extractors[i].extract(bytes, at, len, key);
          digests[i].add(key.array(), 0, key.length(), rid);
        }
      } catch (RuntimeException e) {
        // Also in a table not asked for: a row an index to check cannot be compared with.
        run.add(
            found,
            "table " + table.name() + ": record " + Rid.toString(rid) + ": " + ProblemText.of(e));
      }
    }
    return live;
  }

  private void claimOverflow(PageAccess pa, long firstPage, long rid) {
    String owner = "overflow of " + table.name() + " row " + Rid.toString(rid);
    long p = firstPage;
    int guard = 0;
    while (p > 0 && guard++ < 1 << 20) {
      if (!run.claim(table.area(), p, owner, found)) {
        return;
      }
      p = Overflow.nextPage(pa.read(p));
    }
  }
}
