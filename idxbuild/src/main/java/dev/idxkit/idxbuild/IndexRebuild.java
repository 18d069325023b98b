package dev.idxkit.idxbuild;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.idxbuild.sort.GroupSort;
import dev.idxkit.idxbuild.sort.RunReader;
import dev.idxkit.idxbuild.temp.TempSpace;
import dev.idxkit.idxbuild.temp.TempSpaceExhaustedException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The offline index rebuild, {@code proutil -C idxbuild} style: scan once, sort per group, merge,
 * build bottom-up, publish once.
 *
 * <p>Call order: construct, optionally {@link #plan()} to show what will happen, {@link #run()};
 * {@link #cancel} from another thread (Ctrl-C) stops it.
 *
 * <p>Steps: (0) validate the temp directories and plan the sort groups, refusing when the estimated
 * temp space exceeds what the directories can hold; (1) {@link ScanPhase} on {@code scanThreads}
 * workers; (2+3) each {@link SortGroup} merges and builds its trees, {@code threads} groups at a
 * time, biggest first, so a group's trees are built while others still merge; (4) publish: the old
 * trees' pages are freed and every new root is installed in one meta write.
 *
 * <p>Why the database is safe at every moment: the rebuild runs in a {@link BulkWrite} session,
 * which only writes pages no published meta references, so until the publish the old indexes are
 * intact and usable, and a crash, a failure or a cancel leaves the database exactly as it was. Temp
 * files are created through one {@link TempSpace} and deleted however the rebuild ends.
 *
 * <p>Temp files of a killed rebuild: {@code kill -9} (or a power cut) leaves its sort files behind,
 * since nothing runs to delete them. Sort files are named {@code
 * idxbuild-<tag>-g<group>-<n>.srt.tmp} with a tag made of the database's id and its directory
 * ({@link #tempPrefix}), and a rebuild holds the database's exclusive lock and its writer; so when
 * a rebuild starts, files with its own tag can only be leftovers of an earlier rebuild of this same
 * database that died. It deletes them before it writes anything and tells the listener ({@link
 * RebuildListener#warning}). Files of other databases, and any other file, are never touched. The
 * channels of sort files are opened through the database's {@link dev.idxkit.core.spi.FileIo}.
 */
public final class IndexRebuild {
  private static final AtomicInteger THREADS = new AtomicInteger();

  /** Below this a group is merged on one thread: splitting costs more than it saves. */
  static final long MIN_PARALLEL_ENTRIES = 100_000;

  private final Database db;
  private final RebuildOptions options;
  private final String srtChoice;
  private final RebuildListener listener;
  private final Cancel cancel = new Cancel();
  // Tests lower it to exercise range merges on small data.
  long minParallelEntries = MIN_PARALLEL_ENTRIES;
  // Tests read it: how many sort groups the last run sorted as one instead of merging them.
  int groupsSortedAsOne;

  public IndexRebuild(
      Database db, RebuildOptions options, String srtChoice, RebuildListener listener) {
    this.db = db;
    this.options = options;
    this.srtChoice = srtChoice;
    this.listener = listener;
  }

  /** Asks a running rebuild to stop before it publishes; {@link #run()} then throws. */
  public void cancel(String why) {
    cancel.cancel(why);
  }

  /** The plan {@link #run()} would follow, without doing anything. */
  public RebuildPlan plan() {
    options.srt().validate();
    var lock = Engine.of(db).readLock();
    lock.lock();
    try (TempSpace temp = newTempSpace()) {
      MetaState meta = Engine.of(db).meta();
      List<IndexInfo> selected = options.selection().resolve(db.catalog(), meta);
      return RebuildPlan.make(
          db.catalog(),
          meta,
          Engine.of(db)::committedPages,
          selected,
          options,
          g -> firstDirectory(temp, g));
    } finally {
      lock.unlock();
    }
  }

  /** Rebuilds the selected indexes and publishes them; the database is unchanged if it throws. */
  public RebuildReport run() {
    options.srt().validate();
    long t0 = System.nanoTime();
    ResourceUsage u0 = ResourceUsage.now();
    RebuildReport report;
    ExecutorService prefetch = RunReader.newPrefetchExecutor(Math.max(1, options.threads()));
    try (BulkWrite bulk = Engine.of(db).beginBulk();
        TempSpace temp = newTempSpace()) {
      deleteLeftovers(temp);
      Run run = new Run(bulk, temp, t0, u0);
      List<IndexInfo> selected = options.selection().resolve(run.cat, run.meta);
      RebuildPlan plan = run.plan(selected);
      List<SortGroup> groups = run.sortGroups(plan, prefetch);
      ScanPhase scan = run.scan(selected, groups);
      List<GroupTrees> trees = run.mergeAndBuild(plan, groups, scan.keys.get());
      groupsSortedAsOne = (int) groups.stream().filter(g -> g.sortedAsOne).count();
      Published published = run.publish(trees);
      report = run.report(plan, groups, scan, published);
    } finally {
      prefetch.shutdownNow();
    }
    db.bulkPublished();
    return report;
  }

  /** Sort files of an earlier rebuild of this database that died: deleted, and the user told. */
  private void deleteLeftovers(TempSpace temp) {
    List<java.nio.file.Path> leftovers = temp.deleteLeftovers();
    if (!leftovers.isEmpty()) {
      listener.warning(
          "deleted "
              + leftovers.size()
              + " sort file(s) left by an earlier rebuild of this database that did not finish: "
              + leftovers);
    }
  }

  /** The trees one sort group built, the group in the order groups were built. */
  private record GroupTrees(SortGroup group, List<SortGroup.Built> trees) {}

  /** What the publish installed, for the report. */
  private record Published(List<RebuildReport.IndexResult> indexes, long pagesWritten) {}

  /**
   * The phases of one {@link #run()}, in call order: {@link #plan}, {@link #sortGroups}, {@link
   * #scan}, {@link #mergeAndBuild}, {@link #publish}, {@link #report}. Holds what every phase
   * reads: the bulk session, the temp space, the catalog, the meta published when the run began,
   * when and with what resource usage it began, and the timings of the phases done so far.
   */
  private final class Run {
    final BulkWrite bulk;
    final TempSpace temp;
    final long t0;
    final ResourceUsage u0;
    final Catalog cat = db.catalog();
    final MetaState meta;
    final List<RebuildReport.Phase> phases = new ArrayList<>();

    Run(BulkWrite bulk, TempSpace temp, long t0, ResourceUsage u0) {
      this.bulk = bulk;
      this.temp = temp;
      this.t0 = t0;
      this.u0 = u0;
      this.meta = bulk.published();
    }

    /**
     * (0) Plans the sort groups of {@code selected}; refuses, before anything is written, when the
     * estimated temp space exceeds what the sort directories can hold.
     */
    RebuildPlan plan(List<IndexInfo> selected) {
      RebuildPlan plan =
          RebuildPlan.make(
              cat, meta, bulk::publishedPages, selected, options, g -> firstDirectory(temp, g));
      long capacity = temp.capacity();
      if (plan.estimatedTempBytes() > capacity) {
        throw new TempSpaceExhaustedException(
            "the rebuild needs about "
                + mib(plan.estimatedTempBytes())
                + " MiB of temp space but the sort directories have "
                + mib(capacity)
                + " MiB ("
                + describe(temp)
                + "); add directories to the .srt file, raise their limits, or give --memory more",
            temp.directories());
      }
      listener.planned(plan, srtChoice);
      return plan;
    }

    /**
     * One {@link SortGroup} per planned group, numbered in plan order. A group of one index built
     * on one thread is sorted as one at the build ({@link GroupSort}), not buffer by buffer in the
     * scan and then merged.
     */
    List<SortGroup> sortGroups(RebuildPlan plan, ExecutorService prefetch) {
      List<SortGroup> groups = new ArrayList<>();
      for (RebuildPlan.Group g : plan.groups()) {
        boolean asOne = g.indexes().size() == 1;
        groups.add(new SortGroup(g, groups.size(), cat, temp, options, prefetch, asOne));
      }
      return groups;
    }

    /** (1) Reads the heaps of the selected indexes' tables once into the groups' buffers. */
    ScanPhase scan(List<IndexInfo> selected, List<SortGroup> groups) {
      Map<Integer, TableInfo> tables = new LinkedHashMap<>();
      Map<Integer, PageRuns> heaps = new LinkedHashMap<>();
      for (IndexInfo ix : selected) {
        TableInfo t = cat.table(ix.def().tableId());
        tables.put(t.id(), t);
        heaps.put(t.id(), meta.table(t.id()).pages());
      }
      ScanPhase scan =
          new ScanPhase(
              List.copyOf(tables.values()),
              heaps,
              bulk::publishedPages,
              groups,
              bulk.pageSize(),
              cancel);
      phases.add(
          runPhase(
              "scan",
              scan.totalPages,
              "pages",
              options.scanThreads(),
              scan::work,
              scan.pagesDone::get));
      return scan;
    }

    /**
     * (2+3) Merges each group's runs and builds its trees, {@code threads} groups at a time,
     * biggest first; returns the groups' trees in that order.
     */
    List<GroupTrees> mergeAndBuild(RebuildPlan plan, List<SortGroup> groups, long entries) {
      AtomicLong built = new AtomicLong();
      List<SortGroup> order = new ArrayList<>(groups);
      order.sort(Comparator.comparingLong((SortGroup g) -> g.plan().estimatedBytes()).reversed());
      List<List<SortGroup.Built>> results = new ArrayList<>();
      for (int i = 0; i < order.size(); i++) {
        results.add(null);
      }
      AtomicInteger nextGroup = new AtomicInteger();
      phases.add(
          runPhase(
              "build",
              entries,
              "entries",
              Math.min(options.threads(), order.size()),
              () -> {
                // This thread's sort arrays, reused from group to group (GroupSort).
                GroupSort.Workspace work = new GroupSort.Workspace();
                int g;
                while ((g = nextGroup.getAndIncrement()) < order.size()) {
                  cancel.check();
                  SortGroup group = order.get(g);
                  List<SortGroup.Built> r =
                      group.build(bulk, cancel, built, rangeThreads(group.plan(), plan), work);
                  synchronized (results) {
                    results.set(g, r);
                  }
                }
              },
              built::get));
      List<GroupTrees> trees = new ArrayList<>();
      for (int g = 0; g < order.size(); g++) {
        trees.add(new GroupTrees(order.get(g), results.get(g)));
      }
      return trees;
    }

    /**
     * (4) Frees the old trees' pages, installs every new root, and publishes it all in one meta
     * write; a cancel up to the write still leaves the database as it was.
     */
    Published publish(List<GroupTrees> trees) {
      long p0 = System.nanoTime();
      ResourceUsage pu = ResourceUsage.now();
      List<RebuildReport.IndexResult> indexes = new ArrayList<>();
      long pages = 0;
      for (GroupTrees t : trees) {
        for (SortGroup.Built b : t.trees()) {
          IndexInfo ix = b.index();
          freeOldTree(bulk, ix, meta.index(ix.id()));
          bulk.meta().index(ix.id(), new IndexState(b.result().root(), IndexStatus.ACTIVE));
          pages += b.result().pagesWritten();
          indexes.add(
              new RebuildReport.IndexResult(
                  ix.name(),
                  t.group().number(),
                  t.group().ranges,
                  b.result().entries(),
                  b.result().height(),
                  b.result().pagesWritten(),
                  b.result().root()));
        }
      }
      cancel.check();
      bulk.publish();
      RebuildReport.Phase publish =
          new RebuildReport.Phase(
              "publish",
              System.nanoTime() - p0,
              ResourceUsage.now().minus(pu).cpuNanos(),
              indexes.size(),
              "indexes");
      phases.add(publish);
      listener.phaseFinished(publish);
      return new Published(indexes, pages);
    }

    /** The report of the whole run, from its start to now. */
    RebuildReport report(
        RebuildPlan plan, List<SortGroup> groups, ScanPhase scan, Published published) {
      List<RebuildReport.IndexResult> indexes = new ArrayList<>(published.indexes());
      indexes.sort(Comparator.comparing(RebuildReport.IndexResult::name));
      long runs = 0;
      int passes = 0;
      for (SortGroup g : groups) {
        runs += g.runsWritten.get();
        passes = Math.max(passes, g.mergePasses);
      }
      return new RebuildReport(
          plan,
          srtChoice,
          List.copyOf(phases),
          List.copyOf(indexes),
          temp.bytesPerDirectory(),
          scan.rows.get(),
          scan.keys.get(),
          runs,
          passes,
          published.pagesWritten(),
          System.nanoTime() - t0,
          ResourceUsage.now().minus(u0));
    }
  }

  /** A unit of a phase's work, run by each of its workers. */
  private interface Work {
    void run() throws Exception;
  }

  /**
   * Runs {@code workers} copies of {@code work} on named threads, reporting progress until all
   * finish. The first failure cancels the others and is rethrown once they have stopped.
   */
  private RebuildReport.Phase runPhase(
      String name, long total, String unit, int workers, Work work, LongSupplier done) {
    listener.phaseStarted(name, total, unit);
    long t0 = System.nanoTime();
    ResourceUsage u0 = ResourceUsage.now();
    int n = Math.max(1, workers);
    ExecutorService pool =
        Executors.newFixedThreadPool(
            n,
            r -> {
              Thread t = new Thread(r, "idxbuild-" + name + "-" + THREADS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Future<?>> futures = new ArrayList<>();
    try {
      for (int w = 0; w < n; w++) {
        futures.add(
            pool.submit(
                () -> {
                  try {
                    work.run();
                  } catch (Throwable e) {
                    if (failure.compareAndSet(null, e)) {
                      cancel.cancel(name + " failed");
                    }
                  }
                  return null;
                }));
      }
      boolean interrupted = false;
      for (Future<?> f : futures) {
        while (true) {
          try {
            f.get(250, TimeUnit.MILLISECONDS);
            break;
          } catch (TimeoutException e) {
            listener.progress(name, done.getAsLong());
          } catch (ExecutionException e) {
            failure.compareAndSet(null, e.getCause());
            break;
          } catch (InterruptedException e) {
            // Ctrl-C: the workers stop at their next check; wait for them without the flag.
            cancel.cancel("interrupted");
            interrupted = true;
          }
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    } finally {
      pool.shutdownNow();
    }
    Throwable f = failure.get();
    if (f != null) {
      if (f instanceof IdxkitException ie) {
        throw ie;
      }
      if (f instanceof Error err) {
        throw err;
      }
      throw new IdxkitException(name + " failed: " + f, f);
    }
    listener.progress(name, done.getAsLong());
    RebuildReport.Phase p =
        new RebuildReport.Phase(
            name,
            System.nanoTime() - t0,
            ResourceUsage.now().minus(u0).cpuNanos(),
            done.getAsLong(),
            unit);
    listener.phaseFinished(p);
    return p;
  }

  /**
   * Frees the pages of the tree being replaced. A damaged old tree (often why a DBA rebuilds) must
   * not stop the rebuild: the pages reachable are freed, the rest stay allocated until a future
   * tool reclaims them, and the listener hears about it.
   */
  private void freeOldTree(BulkWrite bulk, IndexInfo ix, IndexState old) {
    if (old == null || old.root() == 0) {
      return;
    }
    // Freed as the walk visits them (each after its children, which the walk has read): the pages
    // reached before a damaged page are freed all the same.
    long[] freed = {0};
    try {
      bulk.forEachPublishedTreePage(
          ix.area(),
          old.root(),
          ix.name(),
          p -> {
            bulk.freePage(ix.area(), p);
            freed[0]++;
          });
    } catch (IdxkitException e) {
      listener.warning(
          "the old tree of "
              + ix.name()
              + " is damaged ("
              + e.getMessage()
              + "); its "
              + freed[0]
              + " reachable pages are freed, the rest stay allocated");
    }
  }

  /**
   * Threads for one group's merge: {@code mergeThreads} for a group that holds most of the keys
   * (and enough of them for the split to pay), one otherwise.
   */
  private int rangeThreads(RebuildPlan.Group g, RebuildPlan plan) {
    long entries = g.estimatedEntries();
    boolean most = entries * 2 > plan.estimatedEntries();
    return options.mergeThreads() > 1 && most && entries >= minParallelEntries
        ? options.mergeThreads()
        : 1;
  }

  private TempSpace newTempSpace() {
    return new TempSpace(options.srt(), tempPrefix(db), Engine.of(db).fileIo());
  }

  /**
   * The start of the names of a rebuild's sort files: {@code idxbuild-} and 8 hex digits hashed
   * from the database's id and its real directory, so two databases - even a copy and its original
   * - never share a prefix in a shared sort directory.
   */
  static String tempPrefix(Database db) {
    java.nio.file.Path dir = db.dir().toAbsolutePath().normalize();
    try {
      dir = dir.toRealPath();
    } catch (java.io.IOException e) {
      // the absolute path identifies it as well; the directory is open, so this is theoretical
    }
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(
        (Engine.of(db).meta().dbId() + "|" + dir)
            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return String.format("idxbuild-%08x", crc.getValue());
  }

  private static String firstDirectory(TempSpace temp, int group) {
    List<TempSpace.Directory> dirs = temp.directories();
    return dirs.get(group % dirs.size()).path().toString();
  }

  private static String describe(TempSpace temp) {
    StringBuilder b = new StringBuilder();
    for (TempSpace.Directory d : temp.directories()) {
      b.append(b.length() == 0 ? "" : ", ")
          .append(d.path())
          .append(d.limitKb() == 0 ? " (no limit)" : " (limit " + d.limitKb() + " KB)");
    }
    return b.toString();
  }

  private static long mib(long bytes) {
    return (bytes + (1 << 20) - 1) >> 20;
  }
}
