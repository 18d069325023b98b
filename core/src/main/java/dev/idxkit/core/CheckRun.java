package dev.idxkit.core;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.PageRuns;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One run of {@link DatabaseCheck}: its steps, the threads that do them, and what they share.
 *
 * <p>Each step is cut into tasks - a table's heap in chunks of {@value #CHUNK_PAGES} pages ({@link
 * HeapCheck}), an index ({@link IndexCheck}), a range of used pages whose checksums to verify - run
 * on a pool of {@link DatabaseCheck.Options#threadCount()} threads, while the calling thread waits
 * and tells the listener the units done every {@value #REPORT_MILLIS} ms. Each task collects its
 * own problems and they are listed in task order, so a report does not depend on which thread came
 * first (only which owner a page claimed twice names first does). Each chunk of a table has digests
 * of its own: digests add, so the table's are their sums. Claims of pages take one lock.
 *
 * <p>A failure, or Ctrl-C (the listener throws, or the waiting thread is interrupted), stops the
 * tasks at their next batch of pages or entries, and the run waits for them to end before it
 * returns: they read mapped files that the caller closes next.
 */
final class CheckRun {
  /** Heap pages a table's task scans. */
  static final int CHUNK_PAGES = 4096;

  /** Units a task does between two reports of its progress. */
  static final int PAGES_PER_REPORT = 256;

  static final int ENTRIES_PER_REPORT = 1 << 16;

  private static final long REPORT_MILLIS = 200;
  private static final AtomicInteger POOLS = new AtomicInteger();

  final Store store;
  final Catalog cat;
  final MetaState meta;
  final DatabaseCheck.Options options;
  private final List<FreeList> free;
  private final DatabaseCheck.Listener listener;
  private final List<String> problems = new ArrayList<>();
  private final Map<Integer, BitSet> used = new LinkedHashMap<>();
  // Who uses each page, for the messages of a page used twice or used and free: per area, an
  // owner number per page below its high-water mark (4 bytes a page, where a map of boxed pages
  // took some 60), numbers into ownerNames.
  private final Map<Integer, int[]> owners = new HashMap<>();
  private final List<String> ownerNames = new ArrayList<>();
  private final Map<String, Integer> ownerNumbers = new HashMap<>();
  private final int chunkPages;
  private final AtomicLong done = new AtomicLong();
  private long told;
  private volatile boolean stopped;

  CheckRun(
      Store store,
      Catalog cat,
      DatabaseCheck.Options options,
      List<FreeList> free,
      DatabaseCheck.Listener listener) {
    this(store, cat, options, free, listener, CHUNK_PAGES);
  }

  /**
   * A run whose tables' and pages' tasks take {@code chunkPages} pages each (tests: many tasks).
   */
  CheckRun(
      Store store,
      Catalog cat,
      DatabaseCheck.Options options,
      List<FreeList> free,
      DatabaseCheck.Listener listener,
      int chunkPages) {
    this.chunkPages = chunkPages;
    this.store = store;
    this.cat = cat;
    this.options = options;
    this.free = free;
    this.listener = listener;
    this.meta = store.meta();
  }

  DatabaseCheck.Report run() {
    int pool = POOLS.incrementAndGet();
    AtomicInteger threads = new AtomicInteger();
    ExecutorService workers =
        Executors.newFixedThreadPool(
            options.threadCount(),
            r -> {
              Thread t = new Thread(r, "idxkit-check-" + pool + "-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    try {
      Map<String, Long> rows = new LinkedHashMap<>();
      Map<Integer, EntryDigest> rowDigests = checkTables(workers, rows);
      Map<String, TreeStats> trees = checkIndexes(workers, rowDigests);
      checkAccounting();
      long verified = verifyChecksums(workers);
      return new DatabaseCheck.Report(List.copyOf(problems), rows, trees, verified);
    } finally {
      stopped = true;
      workers.shutdown();
      awaitEnd(workers);
    }
  }

  // ---- the steps ----

  /** Step 1: the tables' heaps; returns the row digest of each index to walk, by id. */
  private Map<Integer, EntryDigest> checkTables(ExecutorService workers, Map<String, Long> rows) {
    long heapPages = 0;
    List<HeapCheck> tasks = new ArrayList<>();
    // One digest per index to walk, even of a table without pages; its chunks' digests add up.
    Map<Integer, EntryDigest> digests = new HashMap<>();
    for (TableInfo t : cat.tables()) {
      PageRuns pages = meta.table(t.id()).pages();
      heapPages += pages.pageCount();
      boolean checked = options.wantsTable(t.name());
      List<IndexInfo> walked = walkedIndexes(t);
      walked.forEach(ix -> digests.put(ix.id(), new EntryDigest()));
      for (long[] chunk : chunks(pages, chunkPages)) {
        tasks.add(new HeapCheck(this, t, checked, walked, chunk[0], chunk[1]));
      }
    }
    step("check tables", heapPages, "pages");
    List<HeapCheck.Result> results = runAll(workers, tasks);
    Map<Integer, Long> live = new HashMap<>();
    for (int i = 0; i < tasks.size(); i++) {
      HeapCheck task = tasks.get(i);
      HeapCheck.Result r = results.get(i);
      addProblems(r.problems());
      live.merge(task.table().id(), r.live(), Long::sum);
      for (int j = 0; j < task.walked().size(); j++) {
        digests.get(task.walked().get(j).id()).add(r.digests()[j]);
      }
    }
    for (TableInfo t : cat.tables()) {
      if (options.wantsTable(t.name())) {
        long n = live.getOrDefault(t.id(), 0L);
        long expected = meta.table(t.id()).rows();
        if (n != expected) {
          problem(
              "table " + t.name() + " holds " + n + " records but its row count is " + expected);
        }
        rows.put(t.name(), n);
      }
    }
    return digests;
  }

  /** Step 2: the indexes walked against their rows' digests, the other trees' pages claimed. */
  private Map<String, TreeStats> checkIndexes(
      ExecutorService workers, Map<Integer, EntryDigest> rowDigests) {
    long expectedEntries = 0;
    List<IndexCheck> tasks = new ArrayList<>();
    for (IndexInfo ix : cat.indexes()) {
      IndexState s = meta.index(ix.id());
      if (walks(ix)) {
        expectedEntries += meta.table(ix.def().tableId()).rows();
        tasks.add(new IndexCheck(this, ix, s, rowDigests.get(ix.id())));
      } else if (s != null && s.root() != 0) {
        tasks.add(new IndexCheck(this, ix, s, null));
      }
    }
    // Each entry counts twice: the tree's check reads it, then the walk into the digest.
    step("check indexes", 2 * expectedEntries, "entries");
    List<IndexCheck.Result> results = runAll(workers, tasks);
    Map<String, TreeStats> trees = new LinkedHashMap<>();
    for (int i = 0; i < tasks.size(); i++) {
      IndexCheck.Result r = results.get(i);
      addProblems(r.problems());
      if (r.stats() != null) {
        trees.put(tasks.get(i).index().name(), r.stats());
      }
    }
    return trees;
  }

  /** Step 3: every page below each area's high-water mark used once or free. */
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
                  "page " + p + " of area " + area + " is free and in use by " + ownerOf(area, p));
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

  /** What a range of used pages' verification found. */
  private record Verified(long pages, List<String> problems) {}

  /** Step 4: every used page read again and its checksum verified. */
  private long verifyChecksums(ExecutorService workers) {
    long total = 0;
    List<Callable<Verified>> tasks = new ArrayList<>();
    for (var e : used.entrySet()) {
      int area = e.getKey();
      BitSet b = e.getValue();
      total += b.cardinality();
      for (int from = 0; from < b.length(); from += chunkPages) {
        int start = from;
        int end = Math.min(b.length(), from + chunkPages);
        tasks.add(() -> verify(area, b, start, end));
      }
    }
    step("verify pages", total, "pages");
    long verified = 0;
    for (Verified v : runAll(workers, tasks)) {
      verified += v.pages();
      addProblems(v.problems());
    }
    return verified;
  }

  private Verified verify(int area, BitSet used, int from, int to) {
    List<String> found = new ArrayList<>();
    long verified = 0;
    int sinceReport = 0;
    for (int p = used.nextSetBit(from); p >= 0 && p < to; p = used.nextSetBit(p + 1)) {
      if (++sinceReport == PAGES_PER_REPORT) {
        advance(sinceReport);
        sinceReport = 0;
      }
      try {
        store.verifyPage(area, p);
        verified++;
      } catch (IdxkitException ex) {
        add(found, ex.getMessage());
      }
    }
    advance(sinceReport);
    return new Verified(verified, found);
  }

  // ---- what the tasks share ----

  /** Whether {@code ix} is walked entry by entry: active, with a tree, and asked for. */
  boolean walks(IndexInfo ix) {
    IndexState s = meta.index(ix.id());
    return s != null && s.root() != 0 && s.active() && options.wantsIndex(ix);
  }

  private List<IndexInfo> walkedIndexes(TableInfo t) {
    List<IndexInfo> walked = new ArrayList<>();
    for (IndexInfo ix : cat.indexes()) {
      if (ix.def().tableId() == t.id() && walks(ix)) {
        walked.add(ix);
      }
    }
    return walked;
  }

  /**
   * Marks {@code page} of {@code area} used by {@code owner}; false, with the problem added to
   * {@code found}, when it is outside the area or used already.
   */
  synchronized boolean claim(int area, long page, String owner, List<String> found) {
    if (page <= 0 || page >= meta.hwm(area)) {
      add(
          found,
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
      String other = ownerOf(area, page);
      add(found, "page " + page + " of area " + area + " is used by " + owner + " and " + other);
      return false;
    }
    b.set(i);
    int number =
        ownerNumbers.computeIfAbsent(
            owner,
            o -> {
              ownerNames.add(o);
              return ownerNames.size() - 1;
            });
    owners.computeIfAbsent(area, a -> new int[Math.toIntExact(meta.hwm(a))])[i] = number;
    return true;
  }

  /** Who claimed {@code page} of {@code area} (claimed already). */
  private String ownerOf(int area, long page) {
    return ownerNames.get(owners.get(area)[Math.toIntExact(page)]);
  }

  /** A task's {@code n} more units done; throws when the run stops (a failure, Ctrl-C). */
  void advance(long n) {
    if (stopped) {
      throw new IdxkitException("check stopped");
    }
    done.addAndGet(n);
  }

  /** Adds {@code problem} to a task's list while the check's limit allows. */
  void add(List<String> found, String problem) {
    if (found.size() < options.maxProblems()) {
      found.add(problem);
    }
  }

  // ---- running the tasks ----

  private void step(String name, long total, String unit) {
    done.set(0);
    told = 0;
    listener.step(name, total, unit);
  }

  /** Runs {@code tasks} on the workers; their results in task order. */
  private <T> List<T> runAll(ExecutorService workers, List<? extends Callable<T>> tasks) {
    List<Future<T>> futures = new ArrayList<>();
    for (Callable<T> t : tasks) {
      futures.add(workers.submit(t));
    }
    List<T> results = new ArrayList<>();
    try {
      for (Future<T> f : futures) {
        while (true) {
          try {
            results.add(f.get(REPORT_MILLIS, TimeUnit.MILLISECONDS));
            break;
          } catch (TimeoutException e) {
            tell();
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IdxkitException("check interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error r) {
        throw r;
      }
      throw new IdxkitException("check failed: " + ProblemText.of(e.getCause()), e.getCause());
    }
    tell();
    return results;
  }

  private void tell() {
    long now = done.get();
    if (now > told) {
      long n = now - told;
      told = now;
      listener.advanced(n);
    }
  }

  /** Waits for the workers to end, even if interrupted (then the interrupt is kept). */
  private static void awaitEnd(ExecutorService workers) {
    boolean interrupted = false;
    while (true) {
      try {
        if (workers.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void addProblems(List<String> found) {
    for (String p : found) {
      problem(p);
    }
  }

  private void problem(String p) {
    add(problems, p);
  }

  /** The pages of {@code pages} in chunks of at most {@code size}: first and last page of each. */
  static List<long[]> chunks(PageRuns pages, int size) {
    List<long[]> out = new ArrayList<>();
    long first = -1;
    long last = -1;
    long n = 0;
    for (int r = 0; r < pages.runCount(); r++) {
      long start = pages.runStart(r);
      long left = pages.runLength(r);
      while (left > 0) {
        if (first < 0) {
          first = start;
        }
        long take = Math.min(left, size - n);
        n += take;
        start += take;
        left -= take;
        last = start - 1;
        if (n == size) {
          out.add(new long[] {first, last});
          first = -1;
          n = 0;
        }
      }
    }
    if (n > 0) {
      out.add(new long[] {first, last});
    }
    return out;
  }
}
