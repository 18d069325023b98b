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
    List<RebuildReport.Phase> phases = new ArrayList<>();
    RebuildReport report;
    ExecutorService prefetch = RunReader.newPrefetchExecutor(Math.max(1, options.threads()));
    try (BulkWrite bulk = Engine.of(db).beginBulk();
        TempSpace temp = newTempSpace()) {
      List<java.nio.file.Path> leftovers = temp.deleteLeftovers();
      if (!leftovers.isEmpty()) {
        listener.warning(
            "deleted "
                + leftovers.size()
                + " sort file(s) left by an earlier rebuild of this database that did not finish: "
                + leftovers);
      }
      MetaState meta = bulk.published();
      Catalog cat = db.catalog();
      List<IndexInfo> selected = options.selection().resolve(cat, meta);
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
      List<SortGroup> groups = new ArrayList<>();
      for (RebuildPlan.Group g : plan.groups()) {
        groups.add(new SortGroup(g, groups.size(), cat, temp, options, prefetch));
      }

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
              scan.keys.get(),
              "entries",
              Math.min(options.threads(), order.size()),
              () -> {
                int g;
                while ((g = nextGroup.getAndIncrement()) < order.size()) {
                  cancel.check();
                  SortGroup group = order.get(g);
                  List<SortGroup.Built> r =
                      group.build(bulk, cancel, built, rangeThreads(group, plan));
                  synchronized (results) {
                    results.set(g, r);
                  }
                }
              },
              built::get));

      long p0 = System.nanoTime();
      ResourceUsage pu = ResourceUsage.now();
      List<RebuildReport.IndexResult> indexes = new ArrayList<>();
      long pages = 0;
      for (int g = 0; g < order.size(); g++) {
        for (SortGroup.Built b : results.get(g)) {
          IndexInfo ix = b.index();
          freeOldTree(bulk, ix, meta.index(ix.id()));
          bulk.meta().index(ix.id(), new IndexState(b.result().root(), IndexStatus.ACTIVE));
          pages += b.result().pagesWritten();
          indexes.add(
              new RebuildReport.IndexResult(
                  ix.name(),
                  order.get(g).number(),
                  order.get(g).ranges,
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
      indexes.sort(Comparator.comparing(RebuildReport.IndexResult::name));
      long runs = 0;
      int passes = 0;
      for (SortGroup g : groups) {
        runs += g.runsWritten.get();
        passes = Math.max(passes, g.mergePasses);
      }
      report =
          new RebuildReport(
              plan,
              srtChoice,
              List.copyOf(phases),
              List.copyOf(indexes),
              temp.bytesPerDirectory(),
              scan.rows.get(),
              scan.keys.get(),
              runs,
              passes,
              pages,
              System.nanoTime() - t0,
              ResourceUsage.now().minus(u0));
    } finally {
      prefetch.shutdownNow();
    }
    db.bulkPublished();
    return report;
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
    List<Long> pages = new ArrayList<>();
    try {
      bulk.forEachPublishedTreePage(ix.area(), old.root(), ix.name(), pages::add);
    } catch (IdxkitException e) {
      listener.warning(
          "the old tree of "
              + ix.name()
              + " is damaged ("
              + e.getMessage()
              + "); its "
              + pages.size()
              + " reachable pages are freed, the rest stay allocated");
    }
    for (long p : pages) {
      bulk.freePage(ix.area(), p);
    }
  }

  /**
   * Threads for one group's merge: {@code mergeThreads} for a group that holds most of the keys
   * (and enough of them for the split to pay), one otherwise.
   */
  private int rangeThreads(SortGroup g, RebuildPlan plan) {
    long entries = g.plan().estimatedEntries();
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
