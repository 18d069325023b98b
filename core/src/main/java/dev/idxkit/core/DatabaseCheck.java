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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The full consistency check behind {@code idxkit check}: it reads everything and trusts nothing.
 *
 * <p>Steps, with the writer held so the state cannot change: (1) every heap page of each table is
 * read, its slots checked and every record decoded, overflow chains followed; the live count must
 * equal the table's row count. On the way, each row's key for every index to be checked goes into
 * that index's digest of rows ({@link EntryDigest}: a count and a sum of hashes of key and RID).
 * (2) every active index is walked by {@link BTree#check} for its invariants, then entry by entry
 * into a digest of entries, which must equal the digest of its table's rows: one entry per row,
 * with the row's key and RID. Only when they differ is the index walked again, looking up the row
 * of every entry (a random read each), to say which entries are wrong. (3) page accounting per
 * area: no page is used twice, free pages are below the high-water mark and unused, and every page
 * below it is either used or free (a page in neither leaked). (4) every used page is re-read and
 * its checksum verified against the bytes on disk now.
 *
 * <p>Problems are collected, not thrown, up to {@code maxProblems}; a report is clean when there
 * are none. A {@link Listener} hears each step begin and advance. Memory: one bit per page below
 * each area's high-water mark, and the owner of each used page.
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

  /**
   * What a check reports as it goes, on the checking thread: each step as it begins (checking the
   * tables, the indexes, the pages' checksums) and its units as they are done.
   */
  public interface Listener {
    /** A step begins: {@code total} {@code unit}s to do ("pages", "entries"). */
    void step(String name, long total, String unit);

    /** {@code n} more units of the current step done. */
    void advanced(long n);

    /** Hears nothing. */
    Listener NONE =
        new Listener() {
          @Override
          public void step(String name, long total, String unit) {}

          @Override
          public void advanced(long n) {}
        };
  }

  static Report run(Database db, Options options, Listener listener) {
    Store store = Internals.store(db);
    Catalog cat = db.catalog();
    for (String t : options.tables()) {
      cat.table(t);
    }
    for (String i : options.indexes()) {
      cat.index(i);
    }
    return store.inspect(free -> new Checker(store, cat, options, free, listener).run());
  }

  private static final class Checker {
    // Units between two calls of the listener: a call per page or entry would cost more than it
    // tells.
    private static final int PAGES_PER_REPORT = 256;
    private static final int ENTRIES_PER_REPORT = 1 << 16;

    private final Store store;
    private final Catalog cat;
    private final Options options;
    private final List<FreeList> free;
    private final Listener listener;
    private final MetaState meta;
    private final List<String> problems = new ArrayList<>();
    private final Map<Integer, BitSet> used = new LinkedHashMap<>();
    private final Map<Integer, Map<Long, String>> owners = new LinkedHashMap<>();
    private final Map<String, Long> rows = new LinkedHashMap<>();
    private final Map<String, TreeStats> trees = new LinkedHashMap<>();
    // Per index to walk (by id): the digest of its table's rows, filled by the table's scan.
    private final Map<Integer, EntryDigest> rowDigests = new HashMap<>();
    private long verified;
    // Units of the index being checked told to the listener so far.
    private long indexReported;

    Checker(Store store, Catalog cat, Options options, List<FreeList> free, Listener listener) {
      this.store = store;
      this.cat = cat;
      this.options = options;
      this.free = free;
      this.listener = listener;
      this.meta = store.meta();
    }

    Report run() {
      long heapPages = 0;
      for (TableInfo t : cat.tables()) {
        heapPages += meta.table(t.id()).pages().pageCount();
      }
      listener.step("check tables", heapPages, "pages");
      for (TableInfo t : cat.tables()) {
        scanTable(t, options.wantsTable(t.name()) || options.everything());
      }
      long expectedEntries = 0;
      for (IndexInfo ix : cat.indexes()) {
        if (walks(ix)) {
          expectedEntries += meta.table(ix.def().tableId()).rows();
        }
      }
      // Each entry counts twice: the tree's check reads it, then the walk into the digest.
      listener.step("check indexes", 2 * expectedEntries, "entries");
      for (IndexInfo ix : cat.indexes()) {
        IndexState s = meta.index(ix.id());
        if (walks(ix)) {
          checkIndex(ix, s);
        } else if (s != null && s.root() != 0) {
          claimTree(ix, s);
        }
      }
      checkAccounting();
      verifyChecksums();
      return new Report(List.copyOf(problems), rows, trees, verified);
    }

    /** Whether {@code ix} is walked entry by entry: active, with a tree, and asked for. */
    private boolean walks(IndexInfo ix) {
      IndexState s = meta.index(ix.id());
      return s != null && s.root() != 0 && s.active() && options.wantsIndex(ix);
    }

    /**
     * Reads every heap page of {@code t}, claiming it and its overflow pages, and adds each live
     * row's key to the row digest of each index of {@code t} that will be walked. With {@code
     * checked}, also checks each page and decodes each record, and the live count against the
     * table's row count.
     */
    private void scanTable(TableInfo t, boolean checked) {
      List<IndexInfo> walked = new ArrayList<>();
      for (IndexInfo ix : cat.indexes()) {
        if (ix.def().tableId() == t.id() && walks(ix)) {
          walked.add(ix);
        }
      }
      KeyExtractor[] extractors = new KeyExtractor[walked.size()];
      EntryDigest[] digests = new EntryDigest[walked.size()];
      for (int i = 0; i < extractors.length; i++) {
        extractors[i] = walked.get(i).extractor(t.layout());
        digests[i] = new EntryDigest();
        rowDigests.put(walked.get(i).id(), digests[i]);
      }
      GrowableBytes key = new GrowableBytes();
      PageAccess pa = store.committedPages(t.area());
      PageRuns pages = meta.table(t.id()).pages();
      long live = 0;
      long sinceReport = 0;
      for (long p = pages.next(-1); p >= 0; p = pages.next(p)) {
        if (++sinceReport == PAGES_PER_REPORT) {
          listener.advanced(sinceReport);
          sinceReport = 0;
        }
        if (!claim(t.area(), p, "table " + t.name())) {
          continue;
        }
        Page page;
        try {
          page = pa.read(p);
          if (checked) {
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
          }
        } catch (IdxkitException e) {
          problem("table " + t.name() + ": " + e.getMessage());
          continue;
        }
        try {
          live += scanRows(t, pa, page, p, checked, extractors, digests, key);
        } catch (IdxkitException e) {
          problem("table " + t.name() + ": " + e.getMessage()); // an unchecked table's bad page
        }
      }
      listener.advanced(sinceReport);
      if (!checked) {
        return;
      }
      long expected = meta.table(t.id()).rows();
      if (live != expected) {
        problem(
            "table " + t.name() + " holds " + live + " records but its row count is " + expected);
      }
      rows.put(t.name(), live);
    }

    /**
     * The live rows of one heap page: claimed, decoded when checked, digested; returns how many.
     */
    private long scanRows(
        TableInfo t,
        PageAccess pa,
        Page page,
        long p,
        boolean checked,
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
            claimOverflow(t, pa, Overflow.stubFirstPage(page, slot), rid);
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
            t.layout().decode(bytes, at, len);
          }
          for (int i = 0; i < extractors.length; i++) {
            key.reset();
            extractors[i].extract(bytes, at, len, key);
            digests[i].add(key.array(), 0, key.length(), rid);
          }
        } catch (RuntimeException e) {
          // Also in a table not asked for: a row an index to check cannot be compared with.
          problem("table " + t.name() + ": record " + Rid.toString(rid) + ": " + ProblemText.of(e));
        }
      }
      return live;
    }

    private void checkIndex(IndexInfo ix, IndexState s) {
      TableInfo t = cat.table(ix.def().tableId());
      indexReported = 0;
      checkTree(ix, s, t);
      // Entries held in the change buffer are not in the tree's check, and a broken tree is not
      // walked: the step still ends at its total.
      listener.advanced(Math.max(0, 2 * meta.table(t.id()).rows() - indexReported));
    }

    private void indexAdvanced(long n) {
      indexReported += n;
      listener.advanced(n);
    }

    private void checkTree(IndexInfo ix, IndexState s, TableInfo t) {
      PageAccess pa = store.committedPages(ix.area());
      BTree tree = new BTree(pa, s.root(), ix.name());
      int before = problems.size();
      LeafReports leaves = new LeafReports();
      TreeStats stats = tree.check(p -> problem("index " + ix.name() + ": " + p), leaves);
      indexAdvanced(leaves.pending);
      trees.put(ix.name(), stats);
      try {
        tree.forEachPage(p -> claim(ix.area(), p, "index " + ix.name()));
      } catch (IdxkitException e) {
        problem("index " + ix.name() + ": " + e.getMessage());
      }
      if (problems.size() > before) {
        return; // entries of a broken tree cannot be walked reliably
      }
      // The entries readers see: the tree's with the committed change buffer laid over them.
      EntryDigest entries = new EntryDigest();
      BufferedCursor c = new BufferedCursor(tree, store.committedView().buffered(ix.id()), false);
      int sinceReport = 0;
      for (boolean on = c.first(); on; on = c.next()) {
        byte[] e = c.entry();
        entries.add(e, 0, e.length - Rid.BYTES, c.rid());
        if (++sinceReport == ENTRIES_PER_REPORT) {
          indexAdvanced(sinceReport);
          sinceReport = 0;
        }
      }
      indexAdvanced(sinceReport);
      if (!entries.matches(rowDigests.get(ix.id()))) {
        findMismatches(ix, tree, t);
      }
    }

    /**
     * The index's entries differ from its table's rows: walks the entries again, looking up the row
     * of each, to say which are wrong.
     */
    private void findMismatches(IndexInfo ix, BTree tree, TableInfo t) {
      int before = problems.size();
      KeyExtractor extractor = ix.extractor(t.layout());
      GrowableBytes key = new GrowableBytes();
      PageAccess heap = store.committedPages(t.area());
      long entries = 0;
      long unreadable = 0;
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
        try {
          extractor.extract(BytesStore.wrap(rec), 0, rec.length, key);
        } catch (RuntimeException x) {
          unreadable++; // the table's scan reported the record
          continue;
        }
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
      if (entries != expected && problems.size() < options.maxProblems()) {
        problem("index " + ix.name() + " has " + entries + " entries for " + expected + " rows");
      }
      if (problems.size() == before && unreadable == 0 && before < options.maxProblems()) {
        // Every entry names a live row with its key and the counts agree, yet the digests differ:
        // a row with two entries and another with none.
        problem(
            "index "
                + ix.name()
                + ": its entries are not one per row of table "
                + t.name()
                + " (some row has none, another more than one)");
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
      long total = 0;
      for (BitSet b : used.values()) {
        total += b.cardinality();
      }
      listener.step("verify pages", total, "pages");
      int sinceReport = 0;
      for (var e : used.entrySet()) {
        int area = e.getKey();
        BitSet b = e.getValue();
        for (int p = b.nextSetBit(0); p >= 0; p = b.nextSetBit(p + 1)) {
          if (++sinceReport == PAGES_PER_REPORT) {
            listener.advanced(sinceReport);
            sinceReport = 0;
          }
          try {
            store.verifyPage(area, p);
            verified++;
          } catch (IdxkitException ex) {
            problem(ex.getMessage());
          }
        }
      }
      listener.advanced(sinceReport);
    }

    /** Leaves' entry counts from a tree's check, passed on a batch at a time. */
    private final class LeafReports implements LongConsumer {
      long pending;

      @Override
      public void accept(long entries) {
        pending += entries;
        if (pending >= ENTRIES_PER_REPORT) {
          indexAdvanced(pending);
          pending = 0;
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
