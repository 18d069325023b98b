package dev.idxkit.idxbuild;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.KeyExtractor;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.core.spi.TreeSegment;
import dev.idxkit.idxbuild.sort.EntryBuffer;
import dev.idxkit.idxbuild.sort.EntrySource;
import dev.idxkit.idxbuild.sort.GroupSort;
import dev.idxkit.idxbuild.sort.MultiPassMerge;
import dev.idxkit.idxbuild.sort.PackedMerge;
import dev.idxkit.idxbuild.sort.Run;
import dev.idxkit.idxbuild.sort.RunReader;
import dev.idxkit.idxbuild.sort.RunWriter;
import dev.idxkit.idxbuild.sort.Splitters;
import dev.idxkit.idxbuild.temp.TempSpace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One sort group at run time: the runs its scan buffers spilled, the buffers still in memory, and
 * phases 2 and 3 for its indexes.
 *
 * <p>Merge: when the runs outnumber the fan-in that is left beside the in-memory buffers,
 * intermediate passes merge them {@code -TM} at a time into fewer runs. The final pass is a loser
 * tree over the remaining runs and the in-memory buffers, streamed straight into one bottom-up
 * {@link TreeBuilder} per index (entries arrive grouped by index id, in key order); the merged run
 * is never written. A unique index is checked on the way: two adjacent entries with the same key
 * part (and no NULL in it) stop the rebuild with both rows named. When the group's buffers merge as
 * packed longs and hold one index, the merge writes {@value MergeFeed#BATCH} entries at a time into
 * one array, less their index id, and the tree builder takes each leaf's share of them in one copy
 * ({@link TreeBuilder#addNextAll}): no call into the builder and no copy of its own per entry.
 *
 * <p>A group of one index that stays in memory is not merged: the scan packs its full buffers
 * without sorting them and the build sorts them all at once ({@link GroupSort}) into one part,
 * which the merge then reads in order. Should the group spill after all, or its memory not hold the
 * sort's two arrays, each buffer is sorted on its own and merged as above.
 *
 * <p>A group holding most of the keys is built on several threads: sampled splitters cut its key
 * space into ranges of about equal size, {@value #RANGES_PER_THREAD} per thread, which the threads
 * take in key order as they finish the one before; each range merges its slice of every run and
 * buffer into tree segments, and the segments of each index are joined into one tree (the unique
 * check also compares the entries that meet at each boundary). A group sorted as one is cut at
 * exact equal counts instead ({@link PackedMerge.Group#bounds}).
 *
 * <p>More ranges than threads because equal entry counts do not take equal times (one ran up to 1.6
 * times as long as another, which one varying by round; the cause was not found): one range per
 * thread left one of two threads idle for 36-134 ms of lineitem SF 1's 295-459 ms primary key
 * merge; now a thread that ends early takes the next range. The price: a partly filled leaf per
 * boundary.
 */
final class SortGroup {
  private final RebuildPlan.Group plan;
  private final int position;
  private final Catalog catalog;
  private final TempSpace temp;
  private final RebuildOptions options;
  private final Executor prefetch;
  private final Map<Integer, KeyExtractor> extractors = new HashMap<>();
  private final List<Run> runs = new ArrayList<>();
  private final List<EntryBuffer> inMemory = new ArrayList<>();
  private final int scanThreads;
  private long keptBytes; // guarded by this: bytes of the full buffers kept in memory
  final AtomicLong spilledEntries = new AtomicLong();
  final AtomicLong runsWritten = new AtomicLong();
  final AtomicLong spilledBytes = new AtomicLong();
  // Key ranges per range thread (see the class comment).
  static final int RANGES_PER_THREAD = 4;
  private static final AtomicInteger RANGE_THREADS = new AtomicInteger();

  int mergePasses;
  int ranges = 1;
  // Whether the scan packs full buffers without sorting them, for the build to sort them as one,
  // and whether the build did (GroupSort).
  private final boolean sortsAsOne;
  boolean sortedAsOne;
  private volatile PackedMerge.Group packedMerge;
  long mergeBytes;
  long finalRuns;

  SortGroup(
      RebuildPlan.Group plan,
      int position,
      Catalog catalog,
      TempSpace temp,
      RebuildOptions options,
      Executor prefetch,
      boolean sortsAsOne) {
    this.plan = plan;
    this.sortsAsOne = sortsAsOne;
    this.prefetch = prefetch;
    this.position = position;
    this.catalog = catalog;
    this.temp = temp;
    this.options = options;
    this.scanThreads = options.scanThreads();
    for (IndexInfo ix : plan.indexes()) {
      extractors.put(ix.id(), ix.extractor(catalog.table(ix.def().tableId()).layout()));
    }
  }

  int number() {
    return plan.number();
  }

  int position() {
    return position;
  }

  List<IndexInfo> indexes() {
    return plan.indexes();
  }

  RebuildPlan.Group plan() {
    return plan;
  }

  KeyExtractor extractor(IndexInfo ix) {
    return extractors.get(ix.id());
  }

  /**
   * A new scan buffer of the planned size (at most {@link RebuildPlan#MAX_BUFFER_BYTES}, so a full
   * one is sorted while the scan goes on instead of all at the end).
   */
  EntryBuffer newBuffer() {
    // Each scan worker's share of the group's estimated bytes: a big group's buffers start at
    // their full size, a small group's at what it is expected to hold.
    return new EntryBuffer(plan.bufferPerThread(), plan.estimatedBytes() / scanThreads);
  }

  /**
   * A scan worker's buffer is full: it is sorted (or packed in arrival order, {@link #arrange}),
   * then kept in memory (compacted, its old arena handed to the buffer the worker fills next) while
   * the group's memory allows, else sorted if it was not and written as a run. Returns the buffer
   * the worker goes on filling.
   */
  EntryBuffer full(EntryBuffer b) {
    arrange(b);
    if (reserve(b.bytesWhenCompact())) {
      EntryBuffer next = b.compactAndRenew();
      synchronized (this) {
        inMemory.add(b);
      }
      return next;
    }
    if (!b.isSorted()) {
      b.sort(); // packed in arrival order: a run is written in order
    }
    writeRun(b);
    b.clear();
    return b;
  }

  /**
   * A full buffer sorted, or, in a group sorted as one at the build ({@link GroupSort}), packed in
   * the order its entries came: the build sorts all of them at once.
   */
  private void arrange(EntryBuffer b) {
    if (sortsAsOne) {
      b.packInArrivalOrder();
    } else {
      b.sort();
    }
  }

  /**
   * Room for one more kept buffer: what is kept plus the buffers the scan workers are filling must
   * stay within the group's memory. With a small budget the workers' buffers take all of it and
   * every full buffer becomes a run, as before chunking.
   */
  private synchronized boolean reserve(long bytes) {
    long filling = (long) scanThreads * plan.bufferPerThread();
    if (keptBytes + bytes + filling > plan.memoryBytes()) {
      return false;
    }
    keptBytes += bytes;
    return true;
  }

  private int blockBytes() {
    return options.sortBlockKb() * 1024;
  }

  /** -TMB is the read-ahead per run in KB; the readers count it in blocks. */
  private int prefetchBlocks() {
    return Math.max(1, options.mergeBlockKb() / options.sortBlockKb());
  }

  synchronized int runCount() {
    return runs.size();
  }

  /** Writes a sorted buffer as a run. */
  private void writeRun(EntryBuffer b) {
    Run r;
    try (RunWriter w = new RunWriter(temp, plan.number(), blockBytes());
        EntrySource s = b.source()) {
      w.addAll(s);
      r = w.finish();
    }
    spilledEntries.addAndGet(r.entries());
    runsWritten.incrementAndGet();
    spilledBytes.addAndGet(r.entryBytes());
    synchronized (this) {
      runs.add(r);
    }
  }

  /** A worker's last buffer, kept for the build (sorted or packed as {@link #full} does). */
  void keepInMemory(EntryBuffer b) {
    arrange(b);
    b.compact();
    synchronized (this) {
      inMemory.add(b);
    }
  }

  /** What building one index produced. */
  record Built(IndexInfo index, BuildResult result) {}

  /**
   * Phases 2 and 3 for this group: intermediate merge passes if needed, then the final merge into
   * the trees. {@code built} counts entries as they reach the builders.
   */
  List<Built> build(
      BulkWrite bulk, Cancel cancel, AtomicLong built, int rangeThreads, GroupSort.Workspace work) {
    List<Run> toMerge;
    List<EntryBuffer> memory;
    synchronized (this) {
      toMerge = new ArrayList<>(runs);
      memory = new ArrayList<>(inMemory);
    }
    // The range threads, made now: the group's sort runs its steps on them too; shut down (and
    // any range still running interrupted) when the build ends, before the runs are deleted.
    ExecutorService pool = rangeThreads > 1 ? rangePool(rangeThreads) : null;
    try {
      if (toMerge.size() > options.mergeFanIn()) {
        cancel.check();
        MultiPassMerge.Result r =
            new MultiPassMerge(
                    temp,
                    plan.number(),
                    new MultiPassMerge.Settings(
                        options.mergeFanIn(), blockBytes(), prefetchBlocks()),
                    prefetch)
                .reduce(toMerge);
        toMerge = r.runs();
        mergePasses = r.passes();
        mergeBytes = r.bytesWritten();
        runsWritten.addAndGet(r.merges());
      }
      finalRuns = toMerge.size();
      packedMerge =
          toMerge.isEmpty() && !memory.isEmpty()
              ? sortedAsOne(memory, work, pool != null ? pool : Runnable::run)
              : null;
      sortedAsOne = packedMerge != null;
      if (!sortedAsOne) {
        memory.forEach(EntryBuffer::sort); // those packed for one sort that did not happen
        // All in memory and packed into longs: merged as longs (PackedMerge), if one layout fits.
        packedMerge = toMerge.isEmpty() && !memory.isEmpty() ? PackedMerge.unify(memory) : null;
      }
      int wanted = rangeThreads * RANGES_PER_THREAD;
      List<byte[]> bounds =
          rangeThreads <= 1
              ? List.of()
              : sortedAsOne ? packedMerge.bounds(wanted) : Splitters.split(toMerge, memory, wanted);
      if (bounds.isEmpty()) {
        return buildWhole(bulk, toMerge, memory, cancel, built);
      }
      ranges = bounds.size() + 1;
      return buildInRanges(bulk, toMerge, memory, bounds, pool, cancel, built);
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
      for (Run r : toMerge) {
        r.delete();
      }
      synchronized (this) {
        inMemory.clear();
        runs.clear();
        keptBytes = 0;
      }
    }
  }

  /**
   * The buffers of a group planned to be sorted as one, all kept in memory, sorted into one part
   * ({@link GroupSort}) when the group's memory leaves room for the sort; null otherwise.
   */
  private PackedMerge.Group sortedAsOne(
      List<EntryBuffer> memory, GroupSort.Workspace work, Executor helpers) {
    if (!sortsAsOne) {
      return null;
    }
    long free;
    synchronized (this) {
      free = plan.memoryBytes() - keptBytes;
    }
    return GroupSort.sort(memory, free, work, helpers);
  }

  /** One merge of everything into one builder per index. */
  private List<Built> buildWhole(
      BulkWrite bulk, List<Run> runs, List<EntryBuffer> memory, Cancel cancel, AtomicLong built) {
    Map<Integer, BulkWrite.Stream> streams = new HashMap<>();
    try {
      Map<Integer, IndexBuild> builders =
          MergeFeed.merge(
              catalog,
              sources(runs, memory, null, null),
              ix -> new IndexBuild(ix, treeBuilder(streams, bulk, ix, false)),
              cancel,
              built);
      List<Built> out = new ArrayList<>();
      for (IndexInfo ix : plan.indexes()) {
        IndexBuild b = builders.get(ix.id());
        TreeBuilder tb = b != null ? b.builder : treeBuilder(streams, bulk, ix, false);
        out.add(new Built(ix, tb.finish()));
      }
      return out;
    } finally {
      streams.values().forEach(BulkWrite.Stream::close);
    }
  }

  /** {@code threads} range threads (started as tasks come), daemons. */
  private static ExecutorService rangePool(int threads) {
    return Executors.newFixedThreadPool(
        threads,
        r -> {
          Thread t = new Thread(r, "idxbuild-range-" + RANGE_THREADS.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }

  /**
   * The group split at {@code bounds} into key ranges, each merged and built as tree segments by
   * one of the {@code pool}'s threads, which take the ranges in key order; then joined per index:
   * one big index uses every core.
   */
  private List<Built> buildInRanges(
      BulkWrite bulk,
      List<Run> runs,
      List<EntryBuffer> memory,
      List<byte[]> bounds,
      ExecutorService pool,
      Cancel cancel,
      AtomicLong built) {
    int parts = bounds.size() + 1;
    List<Future<Map<Integer, TreeSegment>>> futures = new ArrayList<>();
    // The first range to fail stops the others at once (they check the cancel as they merge), not
    // once the ranges before it in the list have run to their end; its failure is the one reported,
    // not the cancellations it caused.
    AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    for (int p = 0; p < parts; p++) {
      byte[] from = p == 0 ? null : bounds.get(p - 1);
      byte[] to = p == parts - 1 ? null : bounds.get(p);
      futures.add(
          pool.submit(
              () -> {
                Map<Integer, BulkWrite.Stream> streams = new HashMap<>();
                try {
                  cancel.check(); // a range still queued when another failed does not start
                  Map<Integer, IndexBuild> b =
                      MergeFeed.merge(
                          catalog,
                          sources(runs, memory, from, to),
                          ix -> new IndexBuild(ix, treeBuilder(streams, bulk, ix, true)),
                          cancel,
                          built);
                  Map<Integer, TreeSegment> out = new HashMap<>();
                  b.forEach((id, ib) -> out.put(id, ib.builder.finishSegment()));
                  return out;
                } catch (RuntimeException | Error e) {
                  if (firstFailure.compareAndSet(null, e)) {
                    cancel.cancel("range merge failed");
                  }
                  throw e;
                } finally {
                  streams.values().forEach(BulkWrite.Stream::close);
                }
              }));
    }
    List<Map<Integer, TreeSegment>> results = new ArrayList<>();
    for (Future<Map<Integer, TreeSegment>> f : futures) {
      try {
        results.add(f.get());
      } catch (ExecutionException e) {
        // Its range recorded the failure and cancelled the others, unless it failed before its
        // merge began.
        if (firstFailure.compareAndSet(null, e.getCause())) {
          cancel.cancel("range merge failed");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        cancel.cancel("interrupted");
        firstFailure.compareAndSet(null, e);
      }
    }
    if (firstFailure.get() != null) {
      throw rethrow(firstFailure.get());
    }
    Map<Integer, BulkWrite.Stream> streams = new HashMap<>();
    try {
      List<Built> out = new ArrayList<>();
      for (IndexInfo ix : plan.indexes()) {
        List<TreeSegment> segs = new ArrayList<>();
        for (Map<Integer, TreeSegment> m : results) {
          TreeSegment s = m.get(ix.id());
          if (s != null && !s.isEmpty()) {
            segs.add(s);
          }
        }
        for (int i = 1; i < segs.size(); i++) {
          IndexBuild.checkRangeBoundary(ix, segs.get(i - 1).lastEntry(), segs.get(i).firstEntry());
        }
        out.add(
            new Built(
                ix,
                TreeSegment.join(
                    stream(streams, bulk, ix),
                    bulk.pageSize(),
                    ix.area(),
                    options.leafFill(),
                    ix.name(),
                    segs)));
      }
      return out;
    } finally {
      streams.values().forEach(BulkWrite.Stream::close);
    }
  }

  /**
   * Readers of the runs and buffers, limited to {@code [from, to)} (null: open): one {@link
   * PackedMerge} of the buffers when {@link #build} could unify them, else one reader each.
   */
  private List<EntrySource> sources(
      List<Run> runs, List<EntryBuffer> memory, byte[] from, byte[] to) {
    PackedMerge.Group packed = packedMerge;
    if (packed != null) {
      return List.of(packed.merge(from, to));
    }
    List<EntrySource> sources = new ArrayList<>();
    try {
      for (Run r : runs) {
        sources.add(RunReader.open(r, prefetch, prefetchBlocks(), from, to));
      }
      for (EntryBuffer b : memory) {
        sources.add(from == null && to == null ? b.source() : b.source(from, to));
      }
      return sources;
    } catch (RuntimeException e) {
      sources.forEach(EntrySource::close);
      throw e;
    }
  }

  private static BulkWrite.Stream stream(
      Map<Integer, BulkWrite.Stream> streams, BulkWrite bulk, IndexInfo ix) {
    return streams.computeIfAbsent(ix.area(), bulk::stream);
  }

  /** A builder of {@code ix}'s tree, or of its segment for one key range, into its area. */
  private TreeBuilder treeBuilder(
      Map<Integer, BulkWrite.Stream> streams, BulkWrite bulk, IndexInfo ix, boolean segment) {
    BulkWrite.Stream sink = stream(streams, bulk, ix);
    return segment
        ? TreeBuilder.forSegment(sink, bulk.pageSize(), ix.area(), options.leafFill(), ix.name())
        : new TreeBuilder(sink, bulk.pageSize(), ix.area(), options.leafFill(), ix.name());
  }

  private static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IdxkitException("range merge failed: " + t, t);
  }
}
