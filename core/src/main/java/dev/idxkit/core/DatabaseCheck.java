package dev.idxkit.core;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.internal.Internals;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.BufferedCursor;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.KeyExtractor;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Overflow;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.PageType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The full consistency check behind {@code idxkit check}: it reads everything and trusts nothing.
 *
 * <p>Steps, with the writer held so the state cannot change: (1) every heap page of each table is
 * read, its slots checked and every record decoded, overflow chains followed; the live count must
 * equal the table's row count. (2) every active index is walked by {@link BTree#check} for its
 * invariants, then entry by entry: each entry's RID must name a live record whose key encodes to
 * exactly the entry's key part, and the entry count must equal the row count — together with
 * entries being distinct that proves one entry per record. (3) page accounting per area: no page is
 * used twice, free pages are below the high-water mark and unused, and every page below it is
 * either used or free (a page in neither leaked). (4) every used page is re-read and its checksum
 * verified against the bytes on disk now.
 *
 * <p>Problems are collected, not thrown, up to {@code maxProblems}; a report is clean when there
 * are none. Memory: one bit per page below each area's high-water mark.
 */
public final class DatabaseCheck {
  private DatabaseCheck() {}

  /** What to check: all tables and indexes, or the named ones (and their tables' indexes). */
  public record Options(Set<String> tables, Set<String> indexes, int maxProblems) {
    public static Options all() {
      return new Options(Set.of(), Set.of(), 100);
    }

    boolean wantsTable(String name) {
      return tables.isEmpty() && indexes.isEmpty() || tables.contains(name);
    }

    boolean wantsIndex(IndexInfo ix) {
      return tables.isEmpty() && indexes.isEmpty()
          || indexes.contains(ix.name())
          || tables.contains(ix.table().name());
    }

    boolean everything() {
      return tables.isEmpty() && indexes.isEmpty();
    }
  }

  /** The outcome: problems found (empty when clean) and what was checked. */
  public record Report(
      List<String> problems,
      Map<String, Long> tableRows,
      Map<String, TreeStats> indexes,
      long pagesVerified) {
    public boolean clean() {
      return problems.isEmpty();
    }
  }

  static Report run(Database db, Options options) {
    Store store = Internals.store(db);
    Catalog cat = db.catalog();
    for (String t : options.tables()) {
      cat.table(t);
    }
    for (String i : options.indexes()) {
      cat.index(i);
    }
    return store.inspect(free -> new Checker(store, cat, options, free).run());
  }

  private static final class Checker {
    private final Store store;
    private final Catalog cat;
    private final Options options;
    private final List<FreeList> free;
    private final MetaState meta;
    private final List<String> problems = new ArrayList<>();
    private final Map<Integer, BitSet> used = new LinkedHashMap<>();
    private final Map<Integer, Map<Long, String>> owners = new LinkedHashMap<>();
    private final Map<String, Long> rows = new LinkedHashMap<>();
    private final Map<String, TreeStats> trees = new LinkedHashMap<>();
    private long verified;

    Checker(Store store, Catalog cat, Options options, List<FreeList> free) {
      this.store = store;
      this.cat = cat;
      this.options = options;
      this.free = free;
      this.meta = store.meta();
    }

    Report run() {
      for (TableInfo t : cat.tables()) {
        if (options.wantsTable(t.name()) || options.everything()) {
          checkTable(t);
        } else {
          claimTablePages(t);
        }
      }
      for (IndexInfo ix : cat.indexes()) {
        IndexState s = meta.index(ix.id());
        if (s == null || s.root() == 0) {
          continue;
        }
        if (s.active() && options.wantsIndex(ix)) {
          checkIndex(ix, s);
        } else {
          claimTree(ix, s);
        }
      }
      checkAccounting();
      verifyChecksums();
      return new Report(List.copyOf(problems), rows, trees, verified);
    }

    private void checkTable(TableInfo t) {
      PageAccess pa = store.committedPages(t.area());
      PageRuns pages = meta.table(t.id()).pages();
      long live = 0;
      for (long p = pages.next(-1); p >= 0; p = pages.next(p)) {
        if (!claim(t.area(), p, "table " + t.name())) {
          continue;
        }
        Page page;
        try {
          page = pa.read(p);
          if (page.type() != PageType.HEAP) {
            problem(
                "table "
                    + t.name()
                    + ": page "
                    + p
                    + " has type "
                    + page.typeCode()
                    + ", not HEAP");
            continue;
          }
          HeapPage.verify(page, pa.name());
        } catch (IdxkitException e) {
          problem("table " + t.name() + ": " + e.getMessage());
          continue;
        }
        for (int slot = 0; slot < HeapPage.slotCount(page); slot++) {
          if (!HeapPage.isLive(page, slot)) {
            continue;
          }
          live++;
          long rid = Rid.of(p, slot);
          try {
            if (HeapPage.isOverflow(page, slot)) {
              claimOverflow(t, pa, Overflow.stubFirstPage(page, slot), rid);
              byte[] rec = Overflow.readRecord(pa, page, slot);
              t.layout().decode(BytesStore.wrap(rec), 0, rec.length);
            } else {
              t.layout()
                  .decode(
                      page.store(),
                      page.base() + HeapPage.recordOffset(page, slot),
                      HeapPage.recordLength(page, slot));
            }
          } catch (RuntimeException e) {
            problem(
                "table " + t.name() + ": record " + Rid.toString(rid) + ": " + ProblemText.of(e));
          }
        }
      }
      long expected = meta.table(t.id()).rows();
      if (live != expected) {
        problem(
            "table " + t.name() + " holds " + live + " records but its row count is " + expected);
      }
      rows.put(t.name(), live);
    }

    private void checkIndex(IndexInfo ix, IndexState s) {
      TableInfo t = cat.table(ix.def().tableId());
      PageAccess pa = store.committedPages(ix.area());
      BTree tree = new BTree(pa, s.root(), ix.name());
      int before = problems.size();
      TreeStats stats = tree.check(p -> problem("index " + ix.name() + ": " + p));
      trees.put(ix.name(), stats);
      try {
        tree.forEachPage(p -> claim(ix.area(), p, "index " + ix.name()));
      } catch (IdxkitException e) {
        problem("index " + ix.name() + ": " + e.getMessage());
      }
      if (problems.size() > before) {
        return; // entries of a broken tree cannot be walked reliably
      }
      KeyExtractor extractor = ix.extractor(t.layout());
      GrowableBytes key = new GrowableBytes();
      PageAccess heap = store.committedPages(t.area());
      long entries = 0;
      // The entries readers see: the tree's with the committed change buffer laid over them.
      BufferedCursor c = new BufferedCursor(tree, store.committedView().buffered(ix.id()), false);
      for (boolean on = c.first(); on && problems.size() < options.maxProblems(); on = c.next()) {
        entries++;
        byte[] e = c.entry();
        long rid = c.rid();
        byte[] rec = record(t, heap, rid);
        if (rec == null) {
          problem("index " + ix.name() + ": entry points at missing row " + Rid.toString(rid));
          continue;
        }
        key.reset();
        extractor.extract(BytesStore.wrap(rec), 0, rec.length, key);
        if (!Arrays.equals(key.array(), 0, key.length(), e, 0, e.length - Rid.BYTES)) {
          problem(
              "index "
                  + ix.name()
                  + ": entry for row "
                  + Rid.toString(rid)
                  + " does not match the row's key");
        }
      }
      long expected = meta.table(t.id()).rows();
      if (entries != expected) {
        problem("index " + ix.name() + " has " + entries + " entries for " + expected + " rows");
      }
    }

    private byte[] record(TableInfo t, PageAccess heap, long rid) {
      long p = Rid.page(rid);
      int slot = Rid.slot(rid);
      if (!meta.table(t.id()).pages().contains(p)) {
        return null;
      }
      try {
        Page page = heap.read(p);
        if (slot >= HeapPage.slotCount(page) || !HeapPage.isLive(page, slot)) {
          return null;
        }
        return HeapPage.isOverflow(page, slot)
            ? Overflow.readRecord(heap, page, slot)
            : HeapPage.read(page, slot);
      } catch (IdxkitException e) {
        return null;
      }
    }

    private void claimTablePages(TableInfo t) {
      PageAccess pa = store.committedPages(t.area());
      PageRuns pages = meta.table(t.id()).pages();
      for (long p = pages.next(-1); p >= 0; p = pages.next(p)) {
        claim(t.area(), p, "table " + t.name());
        try {
          Page page = pa.read(p);
          for (int slot = 0; slot < HeapPage.slotCount(page); slot++) {
            if (HeapPage.isLive(page, slot) && HeapPage.isOverflow(page, slot)) {
              claimOverflow(t, pa, Overflow.stubFirstPage(page, slot), Rid.of(p, slot));
            }
          }
        } catch (IdxkitException e) {
          problem("table " + t.name() + ": " + e.getMessage());
        }
      }
    }

    private void claimTree(IndexInfo ix, IndexState s) {
      try {
        new BTree(store.committedPages(ix.area()), s.root(), ix.name())
            .forEachPage(p -> claim(ix.area(), p, "index " + ix.name()));
      } catch (IdxkitException e) {
        problem("index " + ix.name() + ": " + e.getMessage());
      }
    }

    private void claimOverflow(TableInfo t, PageAccess pa, long first, long rid) {
      long p = first;
      int guard = 0;
      while (p > 0 && guard++ < 1 << 20) {
        if (!claim(t.area(), p, "overflow of " + t.name() + " row " + Rid.toString(rid))) {
          return;
        }
        p = Overflow.nextPage(pa.read(p));
      }
    }

    private boolean claim(int area, long page, String owner) {
      if (page <= 0 || page >= meta.hwm(area)) {
        problem(
            owner
                + " uses page "
                + page
                + " of area "
                + area
                + ", outside 1.."
                + (meta.hwm(area) - 1));
        return false;
      }
      BitSet b = used.computeIfAbsent(area, a -> new BitSet());
      int i = Math.toIntExact(page);
      if (b.get(i)) {
        String other = owners.getOrDefault(area, Map.of()).get(page);
        problem("page " + page + " of area " + area + " is used by " + owner + " and " + other);
        return false;
      }
      b.set(i);
      owners.computeIfAbsent(area, a -> new java.util.HashMap<>()).put(page, owner);
      return true;
    }

    private void checkAccounting() {
      if (!options.everything()) {
        return;
      }
      for (int a = 0; a < meta.areaSlots(); a++) {
        if (meta.areaName(a) == null) {
          continue;
        }
        BitSet u = used.getOrDefault(a, new BitSet());
        BitSet f = new BitSet();
        FreeList fl = a < free.size() ? free.get(a) : new FreeList();
        int area = a;
        fl.forEachPage(
            p -> {
              if (p >= meta.hwm(area)) {
                problem("free page " + p + " of area " + area + " is past its high-water mark");
              } else if (u.get((int) p)) {
                problem(
                    "page "
                        + p
                        + " of area "
                        + area
                        + " is free and in use by "
                        + owners.get(area).get(p));
              }
              f.set((int) p);
            });
        long leaked = 0;
        long firstLeak = -1;
        for (long p = 1; p < meta.hwm(a); p++) {
          if (!u.get((int) p) && !f.get((int) p)) {
            leaked++;
            firstLeak = firstLeak < 0 ? p : firstLeak;
          }
        }
        if (leaked > 0) {
          problem(
              leaked
                  + " pages of area "
                  + meta.areaName(a)
                  + " are neither used nor free (first: "
                  + firstLeak
                  + ")");
        }
      }
    }

    private void verifyChecksums() {
      for (var e : used.entrySet()) {
        int area = e.getKey();
        BitSet b = e.getValue();
        for (int p = b.nextSetBit(0); p >= 0; p = b.nextSetBit(p + 1)) {
          try {
            store.verifyPage(area, p);
            verified++;
          } catch (IdxkitException ex) {
            problem(ex.getMessage());
          }
        }
      }
    }

    private void problem(String p) {
      if (problems.size() < options.maxProblems()) {
        problems.add(p);
      }
    }
  }
}
