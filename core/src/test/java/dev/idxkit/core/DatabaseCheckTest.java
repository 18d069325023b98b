package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.PageRuns;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DatabaseCheck}'s comparison of an index with its table: an index made stale on purpose
 * (inactive while rows change, then marked active again with its old tree) is found out, and each
 * wrong entry is named; a check of the index alone finds the same; the listener hears every step
 * and every unit of it.
 */
class DatabaseCheckTest {
  @TempDir Path tmp;

  private static final String DDL =
      """
      CREATE TABLE t (id BIGINT NOT NULL, grp INT, PRIMARY KEY (id));
      CREATE INDEX t_grp ON t (grp);
      """;

  @Test
  void aCleanDatabaseIsCleanAndTheListenerHearsEveryUnit() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      insertRows(db, 0, 500);
      Steps steps = new Steps();
      DatabaseCheck.Report r = db.check(DatabaseCheck.Options.all(), steps);
      assertThat(r.problems()).isEmpty();
      assertThat(steps.names).containsExactly("check tables", "check indexes", "verify pages");
      for (int i = 0; i < steps.names.size(); i++) {
        assertThat(steps.done.get(i)).as(steps.names.get(i)).isEqualTo(steps.totals.get(i));
      }
      // The indexes step counts the entries of both indexes (one per row each) twice: the tree's
      // check, then the walk.
      assertThat(steps.totals.get(1)).isEqualTo(2_000);
      assertThat(steps.totals.get(2)).isEqualTo(r.pagesVerified());
    }
  }

  @Test
  void anIndexLeftBehindByItsTableIsFoundAndItsWrongEntriesNamed() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      insertRows(db, 0, 300);
      Table t = db.table("t");
      long moved = rid(db, 5);
      long deleted = rid(db, 7);
      behindIndex(
          db,
          tx -> {
            tx.update(t, moved, 5L, 99);
            tx.insert(t, 1_000L, 3);
            tx.insert(t, 1_001L, 4);
            tx.delete(t, deleted); // last: no insert takes its slot
          });
      long movedNow = rid(db, 5);

      List<String> all = db.check().problems();
      List<String> alone =
          db.check(new DatabaseCheck.Options(Set.of(), Set.of("t_grp"), 100)).problems();

      List<String> expected = new ArrayList<>();
      if (movedNow == moved) {
        expected.add(
            "index t_grp: entry for row " + Rid.toString(moved) + " does not match the row's key");
      } else {
        expected.add("index t_grp: entry points at missing row " + Rid.toString(moved));
      }
      expected.add("index t_grp: entry points at missing row " + Rid.toString(deleted));
      expected.add("index t_grp has 300 entries for 301 rows");
      assertThat(all).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(alone).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void anIndexMissingOnlyAnEntryIsFound() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      insertRows(db, 0, 50);
      behindIndex(db, tx -> tx.insert(db.table("t"), 77L, 1));
      assertThat(db.check().problems()).containsExactly("index t_grp has 50 entries for 51 rows");
    }
  }

  @Test
  void aStaleIndexIsFoundWhetherItsChangeBufferHoldsEntriesOrNot() {
    Path dir = tmp.resolve("db");
    List<String> found;
    try (Database db = Database.create(dir)) {
      db.execute(DDL);
      insertRows(db, 0, 200);
      regroupBehindIndex(db, 3, 200, 50);
      // Rows inserted with the index active again: their entries wait in its change buffer, and
      // the check walks the tree with the buffer laid over it.
      insertRows(db, 1_000, 1_010);
      assertThat(Engine.of(db).bufferedChanges()).isPositive();
      found = db.check().problems();
    }
    assertThat(found).hasSize(4).allMatch(p -> p.endsWith("does not match the row's key"));
    try (Database db = Database.open(dir)) {
      // Closing merged the buffer into the tree: the tree's check digests the entries itself.
      assertThat(Engine.of(db).bufferedChanges()).isZero();
      assertThat(db.check().problems()).isEqualTo(found);
    }
  }

  @Test
  void aPageBothFreeAndInUseNamesItsOwner() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      insertRows(db, 0, 2_000);
      var table = db.catalog().table("t");
      long page = Engine.of(db).meta().table(table.id()).pages().last();
      try (BulkWrite bulk = Engine.of(db).beginBulk()) {
        bulk.freePage(table.area(), page); // freed, yet the table still lists it
        bulk.publish();
      }
      assertThat(db.check().problems())
          .containsExactly(
              "page " + page + " of area " + table.area() + " is free and in use by table t");
    }
  }

  @Test
  void chunksCoverEveryPageOnceInOrder() {
    // Pages 1-5, 10, 20-26: 13 pages, four at a time (a chunk may span runs).
    PageRuns pages = PageRuns.EMPTY.addRun(1, 5).addRun(10, 1).addRun(20, 7);
    assertThat(CheckRun.chunks(pages, 4))
        .containsExactly(
            new long[] {1, 4}, new long[] {5, 21}, new long[] {22, 25}, new long[] {26, 26});
    assertThat(CheckRun.chunks(pages, 100)).containsExactly(new long[] {1, 26});
    assertThat(CheckRun.chunks(PageRuns.EMPTY, 4)).isEmpty();
  }

  @Test
  void manyThreadsOverSmallChunksReportWhatOneThreadDoes() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      insertRows(db, 0, 3_000);
      regroupBehindIndex(db, 0, 3_000, 97);
      DatabaseCheck.Report one = check(db, 1, 1_000);
      DatabaseCheck.Report many = check(db, 4, 2);
      assertThat(one.problems()).hasSize(3_000 / 97 + 1);
      assertThat(many.problems()).isEqualTo(one.problems());
      assertThat(many.tableRows()).isEqualTo(one.tableRows());
      assertThat(many.pagesVerified()).isEqualTo(one.pagesVerified());
      assertThat(many.indexes().keySet()).isEqualTo(one.indexes().keySet());
    }
  }

  @Test
  void aListenerThatThrowsStopsTheCheckAndTheDatabaseStaysUsable() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      insertRows(db, 0, 3_000);
      RuntimeException stop = new IllegalStateException("stop");
      DatabaseCheck.Listener throwing =
          new DatabaseCheck.Listener() {
            @Override
            public void step(String name, long total, String unit) {}

            @Override
            public void advanced(long n) {
              throw stop;
            }
          };
      assertThatThrownBy(() -> check(db, 4, 1, throwing)).isSameAs(stop);
      // The run released the writer and its threads: the next write and check go through.
      insertRows(db, 3_000, 3_010);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  /** A full check on {@code threads} threads whose tasks take {@code chunkPages} pages each. */
  private static DatabaseCheck.Report check(Database db, int threads, int chunkPages) {
    return check(db, threads, chunkPages, DatabaseCheck.Listener.NONE);
  }

  private static DatabaseCheck.Report check(
      Database db, int threads, int chunkPages, DatabaseCheck.Listener listener) {
    var store = dev.idxkit.core.internal.Internals.store(db);
    var options = new DatabaseCheck.Options(Set.of(), Set.of(), 1_000, threads);
    return store.inspect(
        free -> new CheckRun(store, db.catalog(), options, free, listener, chunkPages).run());
  }

  private static void insertRows(Database db, int from, int to) {
    try (Transaction tx = db.begin()) {
      for (int i = from; i < to; i++) {
        tx.insert(db.table("t"), (long) i, i % 10);
      }
      tx.commit();
    }
  }

  private static long rid(Database db, long id) {
    return db.index("t_pk").get(id).get(0).rid();
  }

  /**
   * Runs {@code changes} in a transaction that index t_grp does not see: inactive while they run,
   * active again after with its tree as it was.
   */
  private static void behindIndex(Database db, Consumer<Transaction> changes) {
    setStatus(db, "t_grp", IndexStatus.INACTIVE);
    try (Transaction tx = db.begin()) {
      changes.accept(tx);
      tx.commit();
    }
    setStatus(db, "t_grp", IndexStatus.ACTIVE);
  }

  /**
   * Rows {@code from}, {@code from + step}, ... below {@code to} moved to group 42 behind t_grp.
   */
  private static void regroupBehindIndex(Database db, long from, long to, long step) {
    behindIndex(
        db,
        tx -> {
          for (long id = from; id < to; id += step) {
            tx.update(db.table("t"), rid(db, id), id, 42);
          }
        });
  }

  /** The index's status set in a bulk session; its tree is kept as it is. */
  private static void setStatus(Database db, String index, IndexStatus status) {
    int id = db.catalog().index(index).id();
    try (BulkWrite bulk = Engine.of(db).beginBulk()) {
      IndexState s = bulk.meta().index(id);
      bulk.meta().index(id, new IndexState(s.root(), status));
      bulk.publish();
    }
  }

  /** What the listener heard: each step's name and total, and the units done in it. */
  private static final class Steps implements DatabaseCheck.Listener {
    final List<String> names = new ArrayList<>();
    final List<Long> totals = new ArrayList<>();
    final List<Long> done = new ArrayList<>();

    @Override
    public void step(String name, long total, String unit) {
      names.add(name);
      totals.add(total);
      done.add(0L);
    }

    @Override
    public void advanced(long n) {
      done.set(done.size() - 1, done.get(done.size() - 1) + n);
    }
  }
}
