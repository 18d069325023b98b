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
import dev.idxkit.idxbuild.sort.LoserTree;
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
import java.util.function.Function;

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
 * packed longs and hold one index, the merge writes {@value #BATCH} entries at a time into one
 * array, less their index id, and the tree builder takes each leaf's share of them in one copy
 * ({@link TreeBuilder#addNextAll}): no call into the builder and no copy of its own per entry.
 *
 * <p>A group holding most of the keys is built on several threads: sampled splitters cut its key
 * space into ranges of about equal size, {@value #RANGES_PER_THREAD} per thread, which the threads
 * take in key order as they finish the one before; each range merges its slice of every run and
 * buffer into tree segments, and the segments of each index are joined into one tree (the unique
 * check also compares the entries that meet at each boundary).
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
  // Entries per call of the merge loop when the merge's length is known. Small enough that HotSpot
  // compiles each batch loop (fill, addNextAll, addAll) whole once it has been called 600 times,
  // mostly before the loop has run the 40,000 iterations that compile it on the stack: with 256,
  // C2 compiled each of them on the stack first and again whole, late in a cold command's build
  // (cold SF 0.5 six-index rebuild, build phase 0.88x per pair; warm builds no slower).
  private static final int BATCH = 64;
  // Entries between two reports to the rebuild's shared progress count (an atomic add that the
  // build threads would otherwise contend for after every batch) and two checks for a cancel.
  private static final int PROGRESS_STEP = 4096;
  // Key ranges per range thread (see the class comment).
  static final int RANGES_PER_THREAD = 4;
  private static final AtomicInteger RANGE_THREADS = new AtomicInteger();

  int mergePasses;
  int ranges = 1;
  private volatile PackedMerge.Group packedMerge;
  long mergeBytes;
  long finalRuns;

  SortGroup(
      RebuildPlan.Group plan,
      int position,
      Catalog catalog,
      TempSpace temp,
      RebuildOptions options,
      Executor prefetch) {
    this.plan = plan;
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
   * A scan worker's buffer is full: it is sorted, then kept in memory (compacted into sorted order,
   * its old arena handed to the buffer the worker fills next) while the group's memory allows, else
   * written as a run. Returns the buffer the worker goes on filling.
   */
  EntryBuffer full(EntryBuffer b) {
    b.sort();
    if (reserve(b.bytesWhenCompact())) {
      EntryBuffer next = b.compactAndRenew();
      synchronized (this) {
        inMemory.add(b);
      }
      return next;
    }
    writeRun(b);
    b.clear();
    return b;
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

  /** A sorted buffer (a worker's last, or a full one there is room for), kept for the merge. */
  void keepInMemory(EntryBuffer b) {
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
  List<Built> build(BulkWrite bulk, Cancel cancel, AtomicLong built, int rangeThreads) {
    List<Run> toMerge;
    List<EntryBuffer> memory;
    synchronized (this) {
      toMerge = new ArrayList<>(runs);
      memory = new ArrayList<>(inMemory);
    }
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
      // All in memory and packed into longs: merged as longs (PackedMerge), if one layout fits.
      packedMerge = toMerge.isEmpty() && !memory.isEmpty() ? PackedMerge.unify(memory) : null;
      List<byte[]> bounds =
          rangeThreads > 1
              ? Splitters.split(toMerge, memory, rangeThreads * RANGES_PER_THREAD)
              : List.of();
      if (bounds.isEmpty()) {
        return buildWhole(bulk, toMerge, memory, cancel, built);
      }
      ranges = bounds.size() + 1;
      return buildInRanges(bulk, toMerge, memory, bounds, rangeThreads, cancel, built);
    } finally {
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

  /** One merge of everything into one builder per index. */
  private List<Built> buildWhole(
      BulkWrite bulk, List<Run> runs, List<EntryBuffer> memory, Cancel cancel, AtomicLong built) {
    Map<Integer, BulkWrite.Stream> streams = new HashMap<>();
    try {
      Map<Integer, IndexBuild> builders =
          merge(
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

  /**
   * The group split at {@code bounds} into key ranges, each merged and built as tree segments by
   * one of {@code threads} threads, which take the ranges in key order; then joined per index: one
   * big index uses every core.
   */
  private List<Built> buildInRanges(
      BulkWrite bulk,
      List<Run> runs,
      List<EntryBuffer> memory,
      List<byte[]> bounds,
      int threads,
      Cancel cancel,
      AtomicLong built) {
    int parts = bounds.size() + 1;
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(threads, parts),
            r -> {
              Thread t = new Thread(r, "idxbuild-range-" + RANGE_THREADS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    List<Future<Map<Integer, TreeSegment>>> futures = new ArrayList<>();
    // The first range to fail stops the others at once (they check the cancel as they merge), not
    // once the ranges before it in the list have run to their end; its failure is the one reported,
    // not the cancellations it caused.
    AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    try {
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
                        merge(
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
            IndexBuild.checkRangeBoundary(
                ix, segs.get(i - 1).lastEntry(), segs.get(i).firstEntry());
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
    } finally {
      pool.shutdownNow();
    }
  }

  /** Merges {@code sources} and feeds each entry to its index's builder. */
  private Map<Integer, IndexBuild> merge(
      List<EntrySource> sources,
      Function<IndexInfo, IndexBuild> newBuild,
      Cancel cancel,
      AtomicLong built) {
    Map<Integer, IndexBuild> builders = new HashMap<>();
    try (EntrySource merged = sources.size() == 1 ? sources.get(0) : new LoserTree(sources)) {
      if (!merged.next()) {
        return builders;
      }
      // The first entry of each index starts its builder outside the loop: the loop is compiled
      // once for all groups, and a branch it never took for the group it was compiled for (a new
      // index, a builder's first leaf) would send every later group's first entry back to the
      // interpreter and the loop to the compiler again.
      IndexBuild current = start(merged, newBuild, builders);
      long unreported = 1; // the first entry
      // With a known length, batches of next() calls that never return false, for the same reason
      // (the loop's end would be such a branch); each batch is a call, so the loop compiles as a
      // method, early, not as a replacement on the stack. Without one, entry by entry.
      long left = merged.remaining();
      if (left < 0) {
        while (merged.next()) {
          current = addCurrent(merged, current, newBuild, builders);
          unreported = report(unreported + 1, built, cancel);
        }
      } else if (merged instanceof PackedMerge packed && packed.fillsWithout(2)) {
        unreported = fillAll(packed, left, current, unreported, cancel, built);
      } else {
        while (left > 0) {
          int batch = (int) Math.min(left, BATCH);
          current = addBatch(merged, batch, current, newBuild, builders);
          left -= batch;
          unreported = report(unreported + batch, built, cancel);
        }
      }
      built.addAndGet(unreported);
    }
    return builders;
  }

  /**
   * Entries built but not yet in the rebuild's shared count: added to it, with a check for a
   * cancel, once there are {@link #PROGRESS_STEP}; returns what is still unreported.
   */
  private static long report(long unreported, AtomicLong built, Cancel cancel) {
    if (unreported < PROGRESS_STEP) {
      return unreported;
    }
    built.addAndGet(unreported);
    cancel.check();
    return 0;
  }

  /**
   * The {@code left} entries after the first of a packed merge of one index, a batch at a time:
   * written into one array less their index id and given to the builder together. Returns the
   * entries not yet reported to {@code built}, starting from {@code unreported}.
   */
  private static long fillAll(
      PackedMerge packed,
      long left,
      IndexBuild current,
      long unreported,
      Cancel cancel,
      AtomicLong built) {
    int len = packed.length() - 2;
    byte[] batch = packed.fillArray(BATCH, 2);
    int[] shared = new int[BATCH];
    while (left > 0) {
      int count = (int) Math.min(left, BATCH);
      packed.fill(batch, 2, shared, count);
      current.addAll(batch, count, len, shared);
      left -= count;
      unreported = report(unreported + count, built, cancel);
    }
    return unreported;
  }

  /** The next {@code count} entries of {@code merged}, which has at least that many left. */
  private IndexBuild addBatch(
      EntrySource merged,
      int count,
      IndexBuild current,
      Function<IndexInfo, IndexBuild> newBuild,
      Map<Integer, IndexBuild> builders) {
    for (int i = 0; i < count; i++) {
      if (!merged.next()) {
        throw new IllegalStateException("the merge ended before the entries it announced");
      }
      current = addCurrent(merged, current, newBuild, builders);
    }
    return current;
  }

  /** Adds {@code merged}'s current entry, after the first, to its index's builder; returns it. */
  private IndexBuild addCurrent(
      EntrySource merged,
      IndexBuild current,
      Function<IndexInfo, IndexBuild> newBuild,
      Map<Integer, IndexBuild> builders) {
    byte[] a = merged.array();
    int off = merged.offset();
    int len = merged.length();
    if ((((a[off] & 0xFF) << 8) | (a[off + 1] & 0xFF)) != current.index.id()) {
      return start(merged, newBuild, builders);
    }
    // What the entry shares with the one before, less the index id (the same, both bytes).
    int shared = merged.shared();
    current.add(a, off + 2, len - 2, shared < 0 ? -1 : shared - 2);
    return current;
  }

  /** A builder for the index of {@code merged}'s current entry, given that entry. */
  private IndexBuild start(
      EntrySource merged,
      Function<IndexInfo, IndexBuild> newBuild,
      Map<Integer, IndexBuild> builders) {
    byte[] a = merged.array();
    int off = merged.offset();
    int id = ((a[off] & 0xFF) << 8) | (a[off + 1] & 0xFF);
    IndexBuild b = newBuild.apply(catalog.index(id));
    builders.put(id, b);
    b.first(a, off + 2, merged.length() - 2);
    return b;
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
