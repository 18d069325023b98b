package dev.idxkit.idxbuild;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.CorruptRecordException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.KeyExtractor;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.idxbuild.sort.EntryBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;

/**
 * What a rebuild will do, decided before any work and printed for the DBA: which index goes to
 * which sort group, how much memory each group gets, and how much temp space it may need.
 *
 * <p>Planning: each selected index's size is estimated as its table's rows times the average entry
 * length of a sample of real records (keys extracted from the first heap pages). Indexes are
 * assigned largest first to the least-loaded group, so the big ones get groups of their own and
 * small ones share. Memory goes to groups in proportion to their estimated bytes, with OpenEdge's
 * floor of TB × (TM + 1) KB each, and is split between the scan threads (each fills its own buffer
 * per group, so scanning takes no locks), in buffers of at most {@link #MAX_BUFFER_BYTES}. A group
 * whose estimate fits its memory is expected to write no temp file; the others need about their
 * size in temp space, twice when the runs will outnumber the merge fan-in and an intermediate pass
 * rewrites them.
 */
public record RebuildPlan(
    List<Group> groups,
    long memoryBytes,
    int scanThreads,
    long estimatedEntries,
    long estimatedBytes,
    long estimatedTempBytes) {

  /** One sort group: its indexes, memory, estimates and first temp directory. */
  public record Group(
      int number,
      List<IndexInfo> indexes,
      long estimatedEntries,
      long estimatedBytes,
      long memoryBytes,
      long bufferPerThread,
      boolean fitsInMemory,
      String firstDirectory) {
    public List<String> indexNames() {
      return indexes.stream().map(IndexInfo::name).toList();
    }
  }

  /**
   * Largest scan buffer, whatever the memory. A radix sort of a buffer much larger than the CPU
   * caches, and a merge that then reads its entries in sorted order (each one somewhere else in a
   * huge arena), both miss the caches on almost every entry; measured on TPC-H lineitem sf 1, six
   * indexes, 2 threads, the 2 GB in-memory rebuild was slower than the 64 MB one that spilled small
   * sorted runs to disk. Full buffers are kept in memory while the group's memory allows ({@link
   * SortGroup#full}); runs are counted in buffers of this size.
   */
  static final long MAX_BUFFER_BYTES = 16L << 20;

  /**
   * Each scan thread's buffer for a group of {@code groupMemory}: its share, capped, at least 64
   * KiB.
   */
  static long bufferPerThread(long groupMemory, int scanThreads) {
    return Math.max(1L << 16, Math.min(MAX_BUFFER_BYTES, groupMemory / scanThreads));
  }

  /** Per-entry memory in a sort buffer beyond the entry bytes (its prefix and reference). */
  static final int ENTRY_OVERHEAD = EntryBuffer.INDEX_BYTES_PER_ENTRY;

  /** Entry bytes beyond the key: the u16 index id and the 8-byte RID. */
  static final int ENTRY_FRAME = 2 + Rid.BYTES;

  private static final int SAMPLE_RECORDS = 512;

  static RebuildPlan make(
      Catalog catalog,
      MetaState meta,
      IntFunction<PageAccess> pages,
      List<IndexInfo> selected,
      RebuildOptions options,
      IntFunction<String> directoryOfGroup) {
    int n = Math.min(options.sortGroups(), Math.max(1, selected.size()));
    List<Estimate> estimates = new ArrayList<>();
    for (IndexInfo ix : selected) {
      TableInfo t = catalog.table(ix.def().tableId());
      long rows = meta.table(t.id()).rows();
      double avgKey = sampleKeyLength(t, ix, meta.table(t.id()).pages(), pages.apply(t.area()));
      long bytes = (long) Math.ceil(rows * (avgKey + ENTRY_FRAME + ENTRY_OVERHEAD));
      estimates.add(new Estimate(ix, rows, bytes));
    }
    estimates.sort(Comparator.comparingLong(Estimate::bytes).reversed());
    List<List<IndexInfo>> members = new ArrayList<>();
    long[] load = new long[n];
    long[] entries = new long[n];
    for (int g = 0; g < n; g++) {
      members.add(new ArrayList<>());
    }
    for (Estimate e : estimates) {
      int best = 0;
      for (int g = 1; g < n; g++) {
        if (load[g] < load[best]) {
          best = g;
        }
      }
      members.get(best).add(e.index());
      load[best] += e.bytes();
      entries[best] += e.rows();
    }
    long floor = (long) options.sortBlockKb() * 1024 * (options.mergeFanIn() + 1);
    long total = 0;
    for (long l : load) {
      total += l;
    }
    List<Group> groups = new ArrayList<>();
    long temp = 0;
    long totalEntries = 0;
    for (int g = 0; g < n; g++) {
      if (members.get(g).isEmpty()) {
        continue;
      }
      members.get(g).sort(Comparator.comparingInt(IndexInfo::id));
      long share =
          total == 0
              ? options.memoryBytes() / n
              : (long) ((double) options.memoryBytes() * load[g] / total);
      long mem = Math.max(floor, share);
      long perThread = bufferPerThread(mem, options.scanThreads());
      boolean fits = load[g] <= mem;
      if (!fits) {
        long runBytes = load[g] - entries[g] * ENTRY_OVERHEAD;
        long runs = (load[g] + perThread - 1) / perThread;
        temp += runs > options.mergeFanIn() ? 2 * runBytes : runBytes;
      }
      totalEntries += entries[g];
      groups.add(
          new Group(
              g,
              List.copyOf(members.get(g)),
              entries[g],
              load[g],
              mem,
              perThread,
              fits,
              directoryOfGroup.apply(g)));
    }
    return new RebuildPlan(
        List.copyOf(groups),
        options.memoryBytes(),
        options.scanThreads(),
        totalEntries,
        total,
        temp);
  }

  /**
   * Average encoded key length over up to {@value #SAMPLE_RECORDS} records from the first pages.
   */
  private static double sampleKeyLength(TableInfo t, IndexInfo ix, PageRuns heap, PageAccess pa) {
    KeyExtractor ex = ix.extractor(t.layout());
    GrowableBytes key = new GrowableBytes();
    long sum = 0;
    int n = 0;
    for (long p = heap.next(-1); p >= 0 && n < SAMPLE_RECORDS; p = heap.next(p)) {
      Page page = pa.read(p);
      if (page.type() != PageType.HEAP) {
        continue;
      }
      for (int s = 0; s < HeapPage.slotCount(page) && n < SAMPLE_RECORDS; s++) {
        if (HeapPage.isLive(page, s) && !HeapPage.isOverflow(page, s)) {
          key.reset();
          try {
            ex.extract(
                page.store(),
                page.base() + HeapPage.recordOffset(page, s),
                HeapPage.recordLength(page, s),
                key);
          } catch (CorruptRecordException e) {
            throw ScanPhase.damagedRecord(pa, p, s, t, e);
          }
          sum += key.length();
          n++;
        }
      }
    }
    return n == 0 ? 16 : (double) sum / n;
  }

  private record Estimate(IndexInfo index, long rows, long bytes) {}
}
