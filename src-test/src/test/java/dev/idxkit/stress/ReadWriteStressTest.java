package dev.idxkit.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.Index;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers scan and look up rows while one writer commits transactions and a checkpointer
 * checkpoints, for {@code -Dstress.seconds} (default 3); every read must be consistent with some
 * committed state.
 *
 * <p>The writer's transactions keep invariants a reader can check without knowing the interleaving:
 *
 * <ul>
 *   <li>{@code item}: each batch {@code b} is {@value #BATCH} rows ({@code id = b*8+i}) inserted in
 *       one transaction, later updated all together (their {@code version} goes up by one) or
 *       deleted all together. A reader looking a batch up by its index ({@code item_batch}) must
 *       find all of its rows with one version, or none - and none only if the batch was deleted. A
 *       batch written by a rolled-back transaction must never be seen.
 *   <li>{@code bank}: {@value #ACCOUNTS} accounts whose balances the writer only moves between
 *       accounts: every scan of them sums to the starting total.
 *   <li>A batch's version never goes back for a reader that saw it before.
 * </ul>
 *
 * A lookup and a scan under 256 rows are read under one read lock (one committed state); a full
 * index scan is read committed batch by batch ({@code IndexScan}), so it is checked for order, no
 * row twice and rows consistent in themselves. The schedule (which batch, which account) is seeded
 * ({@code -Dtests.seed}); the interleaving is the machine's. Nothing sleeps: the checkpointer waits
 * on a semaphore the writer releases, and readers run until the writer finishes.
 */
class ReadWriteStressTest {
  static final int BATCH = 8;
  static final int ACCOUNTS = 40;
  static final long START_BALANCE = 1_000;

  /** Batch numbers of rolled-back transactions start here; readers must never see one. */
  static final long GHOST = 1_000_000_000L;

  private static final int READERS = 2;
  private static final int COMMITS_PER_CHECKPOINT = 64;

  @TempDir Path tmp;

  // shared between the writer and the readers
  private final AtomicLong committedHigh = new AtomicLong(-1); // batches 0..this were committed
  private final Set<Long> deleting = ConcurrentHashMap.newKeySet(); // deleted or about to be
  private final AtomicLong reads = new AtomicLong();
  private final AtomicInteger commits = new AtomicInteger();
  private final AtomicInteger checkpoints = new AtomicInteger();
  private final AtomicLong inconsistencies = new AtomicLong();
  private final List<String> firstProblems = new CopyOnWriteArrayList<>();
  private volatile boolean writerDone;

  @Test
  void readersSeeOnlyWholeCommits() throws Exception {
    long seed = Seeds.seed();
    double seconds = Double.parseDouble(System.getProperty("stress.seconds", "3"));
    String reproduce = Seeds.reproduce(seed, ReadWriteStressTest.class);
    Path dir = tmp.resolve("stress.db");
    Model model = new Model();
    try (Database db = Database.create(dir)) {
      db.execute(
          "CREATE TABLE item (id BIGINT NOT NULL, batch BIGINT NOT NULL, version BIGINT NOT NULL,"
              + " amount BIGINT NOT NULL, pad VARCHAR(100), PRIMARY KEY (id));"
              + "CREATE INDEX item_batch ON item (batch);"
              + "CREATE TABLE bank (id BIGINT NOT NULL, balance BIGINT NOT NULL, PRIMARY KEY (id));");
      try (Transaction t = db.begin()) {
        for (long a = 0; a < ACCOUNTS; a++) {
          t.insert(db.table("bank"), a, START_BALANCE);
          model.balances.put(a, START_BALANCE);
        }
        t.commit();
      }

      AtomicInteger n = new AtomicInteger();
      ExecutorService pool =
          Executors.newFixedThreadPool(
              READERS + 2, r -> new Thread(r, "stress-" + n.getAndIncrement()));
      Semaphore checkpointDue = new Semaphore(0);
      long deadline = System.nanoTime() + (long) (seconds * 1e9);
      List<Future<?>> futures = new ArrayList<>();
      try {
        for (int i = 0; i < READERS; i++) {
          SplittableRandom r = Seeds.random(seed + 1 + i);
          futures.add(pool.submit(() -> read(db, r)));
        }
        futures.add(
            pool.submit(
                () -> {
                  checkpoint(db, checkpointDue);
                  return null;
                }));
        Future<?> writer =
            pool.submit(
                () -> {
                  try {
                    write(db, Seeds.random(seed), model, deadline, checkpointDue);
                  } finally {
                    writerDone = true;
                    checkpointDue.release(); // wakes the checkpointer to see writerDone
                  }
                  return null;
                });
        writer.get((long) seconds + 120, TimeUnit.SECONDS);
        for (Future<?> f : futures) {
          f.get(120, TimeUnit.SECONDS);
        }
      } finally {
        writerDone = true;
        checkpointDue.release();
        pool.shutdownNow();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).as("stress threads end").isTrue();
      }

      System.out.printf(
          "stress: %,d reads, %,d commits, %,d checkpoints, %,d inconsistencies (%s s, %s)%n",
          reads.get(), commits.get(), checkpoints.get(), inconsistencies.get(), seconds, reproduce);
      assertThat(firstProblems).as(reproduce).isEmpty();
      assertThat(inconsistencies.get()).as(reproduce).isZero();
      assertThat(commits.get()).as("the writer committed").isGreaterThan(10);
      assertThat(reads.get()).as("the readers read").isGreaterThan(10);
      assertThat(checkpoints.get()).as("checkpoints ran").isPositive();
      model.assertMatches(db, reproduce);
      assertThat(db.check().problems()).as(reproduce).isEmpty();
    }
    try (Database db = Database.open(dir)) {
      model.assertMatches(db, "after reopening, " + reproduce);
      assertThat(db.check().problems()).as(reproduce).isEmpty();
    }
  }

  /** What the writer committed: live batches and their versions, account balances. */
  private static final class Model {
    final TreeMap<Long, Long> versions = new TreeMap<>();
    final TreeMap<Long, Long> balances = new TreeMap<>();

    void assertMatches(Database db, String what) {
      Map<Long, Long> seen = new TreeMap<>();
      try (RowCursor c = db.index("item_pk").scan()) {
        c.forEachRemaining(
            r -> {
              long batch = (Long) r.get(1);
              Long before = seen.put(batch, (Long) r.get(2));
              assertThat(before == null || before.equals(r.get(2))).as(what + ": " + r).isTrue();
            });
      }
      assertThat(seen).as(what).isEqualTo(versions);
      assertThat(db.table("item").rowCount()).as(what).isEqualTo((long) versions.size() * BATCH);
      Map<Long, Long> bal = new TreeMap<>();
      try (RowCursor c = db.table("bank").scan()) {
        c.forEachRemaining(r -> bal.put((Long) r.get(0), (Long) r.get(1)));
      }
      assertThat(bal).as(what).isEqualTo(balances);
    }
  }

  // ---- the writer

  private void write(
      Database db, SplittableRandom r, Model model, long deadline, Semaphore checkpointDue) {
    Table item = db.table("item");
    Table bank = db.table("bank");
    Index byBatch = db.index("item_batch");
    Index bankPk = db.index("bank_pk");
    long nextBatch = 0;
    long nextGhost = GHOST;
    while (System.nanoTime() < deadline) {
      int op = r.nextInt(100);
      try (Transaction t = db.begin()) {
        if (op < 45 || model.versions.size() < 4) {
          long b = op < 5 ? nextGhost++ : nextBatch++;
          for (int i = 0; i < BATCH; i++) {
            t.insert(item, b * BATCH + i, b, 0L, b, "pad-" + b + "-" + "x".repeat(r.nextInt(60)));
          }
          if (b >= GHOST) {
            t.rollback();
            continue;
          }
          t.commit();
          model.versions.put(b, 0L);
          committedHigh.set(b);
        } else if (op < 65) {
          long b = pick(r, model);
          long v = model.versions.get(b) + 1;
          for (Row row : t.lookup(byBatch, b)) {
            Object[] values = row.values().clone();
            values[2] = v;
            t.update(item, row.rid(), values);
          }
          t.commit();
          model.versions.put(b, v);
        } else if (op < 75) {
          long b = pick(r, model);
          deleting.add(b); // before the commit: from here on a reader may find it gone
          for (Row row : t.lookup(byBatch, b)) {
            t.delete(item, row.rid());
          }
          t.commit();
          model.versions.remove(b);
        } else {
          long from = r.nextLong(ACCOUNTS);
          long to = (from + 1 + r.nextLong(ACCOUNTS - 1)) % ACCOUNTS;
          long amount = r.nextLong(1, 50);
          Row a = t.lookup(bankPk, from).get(0);
          Row c = t.lookup(bankPk, to).get(0);
          t.update(bank, a.rid(), from, (Long) a.get(1) - amount);
          t.update(bank, c.rid(), to, (Long) c.get(1) + amount);
          t.commit();
          model.balances.merge(from, -amount, Long::sum);
          model.balances.merge(to, amount, Long::sum);
        }
      }
      if (commits.incrementAndGet() % COMMITS_PER_CHECKPOINT == 0) {
        checkpointDue.release();
      }
    }
  }

  private static long pick(SplittableRandom r, Model model) {
    long any = r.nextLong(model.versions.lastKey() + 1);
    Long b = model.versions.ceilingKey(any);
    return b != null ? b : model.versions.firstKey();
  }

  private void checkpoint(Database db, Semaphore due) throws InterruptedException {
    while (true) {
      due.acquire();
      if (writerDone) {
        return;
      }
      db.checkpoint();
      checkpoints.incrementAndGet();
    }
  }

  // ---- the readers

  private Void read(Database db, SplittableRandom r) {
    Index byBatch = db.index("item_batch");
    Index itemPk = db.index("item_pk");
    Index bankPk = db.index("bank_pk");
    Map<Long, Long> lastVersion = new HashMap<>();
    while (!writerDone) {
      long high = committedHigh.get();
      int op = r.nextInt(100);
      if (op < 50 && high >= 0) {
        long b = r.nextLong(high + 1);
        checkBatch(b, byBatch.get(b), lastVersion);
      } else if (op < 75) {
        long b0 = high < 0 ? 0 : r.nextLong(high + 1);
        long b1 = b0 + 1 + r.nextInt(20); // at most 20 batches: 160 rows, one read batch
        Map<Long, List<Row>> groups = new TreeMap<>();
        try (RowCursor c =
            byBatch.scan(KeyRange.closed(new Object[] {b0}, new Object[] {b1 - 1}), false, -1)) {
          c.forEachRemaining(
              row -> groups.computeIfAbsent((Long) row.get(1), k -> new ArrayList<>()).add(row));
        }
        for (long b = b0; b < b1; b++) {
          List<Row> rows = groups.getOrDefault(b, List.of());
          if (b <= high || !rows.isEmpty()) {
            checkBatch(b, rows, lastVersion);
          }
        }
      } else if (op < 90) {
        long sum = 0;
        int count = 0;
        try (RowCursor c = bankPk.scan()) {
          while (c.hasNext()) {
            sum += (Long) c.next().get(1);
            count++;
          }
        }
        if (count != ACCOUNTS || sum != ACCOUNTS * START_BALANCE) {
          problem("bank scan: " + count + " accounts summing to " + sum);
        }
      } else {
        long prev = -1;
        try (RowCursor c = itemPk.scan()) {
          while (c.hasNext()) {
            Row row = c.next();
            long id = (Long) row.get(0);
            long batch = (Long) row.get(1);
            if (id <= prev) {
              problem("item_pk scan: id " + id + " after " + prev);
            }
            if (batch != id / BATCH || (Long) row.get(3) != batch || batch >= GHOST) {
              problem("item_pk scan: row inconsistent in itself: " + row);
            }
            prev = id;
          }
        }
      }
      reads.incrementAndGet();
    }
    return null;
  }

  /** Batch {@code b}'s rows as one read saw them: all with one version, or none if deleted. */
  private void checkBatch(long b, List<Row> rows, Map<Long, Long> lastVersion) {
    if (b >= GHOST && !rows.isEmpty()) {
      problem("batch " + b + " of a rolled-back transaction is visible: " + rows);
      return;
    }
    if (rows.isEmpty()) {
      if (!deleting.contains(b)) {
        problem("batch " + b + " was committed and never deleted, but is not found");
      }
      return;
    }
    if (rows.size() != BATCH) {
      problem("batch " + b + " has " + rows.size() + " rows (expected " + BATCH + "): " + rows);
      return;
    }
    long version = (Long) rows.get(0).get(2);
    for (int i = 0; i < BATCH; i++) {
      Row row = rows.get(i);
      if ((Long) row.get(2) != version) {
        problem("batch " + b + " mixes versions (a partial update): " + rows);
        return;
      }
      if ((Long) row.get(1) != b || (Long) row.get(3) != b) {
        problem("batch " + b + " holds a foreign row: " + row);
      }
    }
    Long before = lastVersion.put(b, version);
    if (before != null && before > version) {
      problem("batch " + b + " went back from version " + before + " to " + version);
    }
  }

  private void problem(String what) {
    inconsistencies.incrementAndGet();
    if (firstProblems.size() < 10) {
      firstProblems.add(Thread.currentThread().getName() + ": " + what);
    }
  }
}
