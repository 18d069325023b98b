package dev.idxkit.core;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.internal.Internals;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Overflow;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.PageType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Space and shape of a database per area, table and index, like OpenEdge {@code dbanalys} and
 * {@code idxanalys}: what {@code idxkit analyze} prints, and what a server may report later. It
 * measures; it does not judge ({@link DatabaseCheck} does that).
 *
 * <p>Call order: {@link #run(Database, Options, Listener)} returns a {@link Report}; the listener
 * hears a phase and its steps as the work proceeds, and may throw to stop it (the CLI does on
 * Ctrl-C).
 *
 * <p>Steps, with the database writer held ({@link Store#inspect}) so no commit or checkpoint runs
 * meanwhile (readers go on; an embedding application's writers wait for the length of the
 * analysis):
 *
 * <ol>
 *   <li>Tables: every heap page of each selected table is read once. Live slots are records; a
 *       record's size is its inline length, or for an overflow record the total length its stub
 *       holds. Overflow chains are not read: every page of a chain but the last is full ({@link
 *       Overflow}), so a record of {@code n} bytes has exactly {@link Overflow#pagesFor} pages.
 *       Page fill is the used part of the page body (page minus the heap header). A page that
 *       cannot be read (failed checksum, wrong type) is counted in {@code unreadablePages} and
 *       skipped: the rest of the report is still worth having, and {@code idxkit check} names it.
 *   <li>Indexes: each selected active index is walked by {@link BTree#check}, which yields its
 *       {@link TreeStats} (entries, height, pages per level, leaf fill, entry size, distinct 8-byte
 *       prefix ratio) and counts broken invariants instead of throwing. Inactive indexes are listed
 *       without stats: their trees are not maintained and may be stale.
 *   <li>Areas, always all of them: file size on disk, high-water mark and free pages, from the meta
 *       and the free lists as of the inspection.
 * </ol>
 *
 * <p>Memory: a few counters per table; the tree walk keeps the set of page numbers it visited (tens
 * of bytes per index page). Disk: one read of each heap page of the selected tables and each page
 * of the selected trees, through the page cache (mapped reads).
 */
public final class Analysis {
  private Analysis() {}

  /**
   * What to analyze: every table and index when both sets are empty; otherwise the named tables
   * (with their indexes) and the named indexes. Names are matched case-insensitively.
   */
  public record Options(Set<String> tables, Set<String> indexes) {
    public Options {
      tables = Set.copyOf(tables);
      indexes = Set.copyOf(indexes);
    }

    public static Options all() {
      return new Options(Set.of(), Set.of());
    }
  }

  /** Hears progress; a listener may throw an unchecked exception to stop the analysis. */
  public interface Listener {
    Listener NONE = new Listener() {};

    /** A phase starts: {@code "tables"} (unit: heap pages) or {@code "indexes"} (unit: indexes). */
    default void phase(String name, long total) {}

    /** {@code n} more units of the current phase are done. */
    default void advance(long n) {}
  }

  /**
   * An area (page file).
   *
   * @param file the page file
   * @param fileBytes its size on disk now
   * @param highWaterMark pages in use from the file's start, page 0 (the area header) included
   * @param freePages pages below the high-water mark on the free list, reusable before the file
   *     grows
   */
  public record AreaReport(
      int id, String name, Path file, long fileBytes, long highWaterMark, long freePages) {
    /** Pages holding data: below the high-water mark, not free, not the header. */
    public long usedPages() {
      return Math.max(0, highWaterMark - 1 - freePages);
    }
  }

  /**
   * A table's heap.
   *
   * @param rows live records found on its pages
   * @param heapPages heap pages (overflow pages not included)
   * @param recordBytes total length of its records (inline bytes, or the whole overflowed record)
   * @param overflowRecords records stored in overflow chains
   * @param overflowPages pages of those chains
   * @param heapFillPercent average used part of a heap page body, in %
   * @param unreadablePages heap pages that could not be read and are not in the figures
   */
  public record TableReport(
      String name,
      String area,
      long rows,
      long heapPages,
      long recordBytes,
      long overflowRecords,
      long overflowPages,
      double heapFillPercent,
      long unreadablePages) {
    public double averageRecordBytes() {
      return rows == 0 ? 0 : (double) recordBytes / rows;
    }
  }

  /**
   * An index.
   *
   * @param state {@code active}, {@code inactive} (waiting for a rebuild) or {@code none} (no tree)
   * @param tree what the walk measured, or null when the index is not active
   * @param problems the first broken invariants the walk met, at most {@value #MAX_PROBLEMS_KEPT}
   *     (empty for a sound tree; {@link TreeStats#problems()} counts them all)
   */
  public record IndexReport(
      String name,
      String table,
      String area,
      List<String> columns,
      boolean unique,
      String state,
      TreeStats tree,
      List<String> problems) {
    public IndexReport {
      columns = List.copyOf(columns);
      problems = List.copyOf(problems);
    }

    /** Average key length without the 8-byte RID every entry ends with; 0 without stats. */
    public double averageKeyBytes() {
      return tree == null || tree.entries() == 0
          ? 0
          : Math.max(0, tree.averageEntrySize() - Rid.BYTES);
    }
  }

  /** The whole analysis. */
  public record Report(
      int pageSize,
      long generation,
      List<AreaReport> areas,
      List<TableReport> tables,
      List<IndexReport> indexes) {
    public Report {
      areas = List.copyOf(areas);
      tables = List.copyOf(tables);
      indexes = List.copyOf(indexes);
    }
  }

  /** At most this many problem lines are kept per index; the count in its stats is complete. */
  public static final int MAX_PROBLEMS_KEPT = 20;

  /**
   * Analyzes the selected tables and indexes and every area.
   *
   * @throws InvalidInputException naming an unknown table or index
   */
  public static Report run(Database db, Options options, Listener listener) {
    Catalog cat = db.catalog();
    Set<String> tables = new LinkedHashSet<>();
    for (String t : options.tables()) {
      tables.add(cat.table(t).name());
    }
    Set<String> indexes = new LinkedHashSet<>();
    for (String i : options.indexes()) {
      indexes.add(cat.index(i).name());
    }
    boolean all = tables.isEmpty() && indexes.isEmpty();
    Store store = Internals.store(db);
    if (!store.readOnly()) {
      // The trees are what is measured: changes still in the change buffers go into them first.
      store.mergeAllBuffers();
    }
    return store.inspect(
        free -> {
          MetaState meta = store.meta();
          List<TableInfo> selectedTables = new ArrayList<>();
          long heapPages = 0;
          for (TableInfo t : cat.tables()) {
            if (all || tables.contains(t.name())) {
              selectedTables.add(t);
              heapPages += meta.table(t.id()).pages().pageCount();
            }
          }
          List<IndexInfo> selectedIndexes = new ArrayList<>();
          for (IndexInfo ix : cat.indexes()) {
            if (all || indexes.contains(ix.name()) || tables.contains(ix.table().name())) {
              selectedIndexes.add(ix);
            }
          }

          listener.phase("tables", heapPages);
          List<TableReport> tableReports = new ArrayList<>();
          for (TableInfo t : selectedTables) {
            tableReports.add(table(store, meta, cat, t, listener));
          }
          listener.phase("indexes", selectedIndexes.size());
          List<IndexReport> indexReports = new ArrayList<>();
          for (IndexInfo ix : selectedIndexes) {
            indexReports.add(index(store, meta, cat, ix));
            listener.advance(1);
          }
          return new Report(
              store.pageSize(),
              meta.generation(),
              areas(store, meta, free),
              tableReports,
              indexReports);
        });
  }

  private static TableReport table(
      Store store, MetaState meta, Catalog cat, TableInfo t, Listener listener) {
    PageAccess pa = store.committedPages(t.area());
    int pageSize = store.pageSize();
    double body = pageSize - HeapPage.HEADER_SIZE;
    PageRuns pages = meta.table(t.id()).pages();
    long rows = 0;
    long bytes = 0;
    long overflowRecords = 0;
    long overflowPages = 0;
    long readable = 0;
    long unreadable = 0;
    double fillSum = 0;
    for (long p = pages.next(-1); p >= 0; p = pages.next(p)) {
      try {
        Page page = pa.read(p);
        if (page.type() != PageType.HEAP) {
          unreadable++;
          listener.advance(1);
          continue;
        }
        long pageRows = 0;
        long pageBytes = 0;
        long pageOverflowRecords = 0;
        long pageOverflowPages = 0;
        for (int slot = 0; slot < HeapPage.slotCount(page); slot++) {
          if (!HeapPage.isLive(page, slot)) {
            continue;
          }
          pageRows++;
          if (HeapPage.isOverflow(page, slot)) {
            int len = Overflow.stubLength(page, slot);
            pageBytes += len;
            pageOverflowRecords++;
            pageOverflowPages += Overflow.pagesFor(pageSize, len);
          } else {
            pageBytes += HeapPage.recordLength(page, slot);
          }
        }
        // Counted only once the whole page was read, so a damaged page adds nothing.
        fillSum += (body - HeapPage.freeSpace(page)) / body;
        rows += pageRows;
        bytes += pageBytes;
        overflowRecords += pageOverflowRecords;
        overflowPages += pageOverflowPages;
        readable++;
      } catch (IdxkitException e) {
        unreadable++;
      }
      listener.advance(1);
    }
    return new TableReport(
        t.name(),
        cat.schema().area(t.area()).name(),
        rows,
        pages.pageCount(),
        bytes,
        overflowRecords,
        overflowPages,
        readable == 0 ? 0 : 100.0 * fillSum / readable,
        unreadable);
  }

  private static IndexReport index(Store store, MetaState meta, Catalog cat, IndexInfo ix) {
    IndexState s = meta.index(ix.id());
    List<String> columns = new ArrayList<>();
    for (int c : ix.columns()) {
      columns.add(ix.table().columns().get(c).name());
    }
    String area = cat.schema().area(ix.area()).name();
    String table = ix.table().name();
    if (s == null || s.root() == 0) {
      return new IndexReport(ix.name(), table, area, columns, ix.unique(), "none", null, List.of());
    }
    if (!s.active()) {
      return new IndexReport(
          ix.name(), table, area, columns, ix.unique(), "inactive", null, List.of());
    }
    List<String> problems = new ArrayList<>();
    TreeStats stats =
        BTree.check(
            store.committedPages(ix.area()),
            s.root(),
            p -> {
              if (problems.size() < MAX_PROBLEMS_KEPT) {
                problems.add(p);
              }
            });
    return new IndexReport(ix.name(), table, area, columns, ix.unique(), "active", stats, problems);
  }

  private static List<AreaReport> areas(Store store, MetaState meta, List<FreeList> free) {
    List<AreaReport> out = new ArrayList<>();
    for (int a = 0; a < meta.areaSlots(); a++) {
      String name = meta.areaName(a);
      if (name == null) {
        continue;
      }
      Path file = store.dir().resolve(name + ".area");
      long size;
      try {
        size = Files.size(file);
      } catch (IOException e) {
        throw new IdxkitIOException("cannot read the size of area file " + file, e);
      }
      long freePages = a < free.size() && free.get(a) != null ? free.get(a).pageCount() : 0;
      out.add(new AreaReport(a, name, file, size, meta.hwm(a), freePages));
    }
    return out;
  }
}
