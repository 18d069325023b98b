package dev.idxkit.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.core.testing.Seeds;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes that fail: an {@code IOException} after N bytes of a commit's log append, of a
 * checkpoint's writes home and of its meta slot, and short writes everywhere.
 *
 * <p>A failed commit must throw, leave nothing of itself visible, release the writer (the next
 * transaction starts at once), and leave a database that keeps working, passes {@code check}, and
 * reopens - also from a copy taken right after the failure, as a crash there would leave it - to
 * exactly the committed state. A failed checkpoint must throw and change nothing a reader or a
 * reopen sees.
 */
class WriteFaultTest {
  static final long SEED = Seeds.seed();

  @TempDir Path tmp;

  private final FaultyFileIo io = new FaultyFileIo();

  private DatabaseOptions options() {
    return DatabaseOptions.defaults().withFileIo(io);
  }

  @Test
  void aCommitWhoseLogWriteFailsRollsBackAndTheDatabaseGoesOn() throws Exception {
    SplittableRandom r = Seeds.random(SEED);
    String why = Seeds.reproduce(SEED, getClass());
    for (int trial = 0; trial < 6; trial++) {
      Path dir = tmp.resolve("t" + trial);
      ModelTable model = new ModelTable(r.nextLong());
      long budget = r.nextLong(0, 60_000); // the failing append is larger: 500 rows, 10+ pages
      String when = "trial " + trial + ", write error after " + budget + " bytes; " + why;
      try (Database db = Database.create(dir, options())) {
        db.execute(ModelTable.DDL);
        for (int i = 0; i < 5; i++) {
          model.commit(db, 40);
        }
        Fault f = io.add(Fault.ioErrorAfter(Fault.named("wal"), budget));
        try (Transaction tx = db.begin()) {
          model.stage(db, tx, 500);
          assertThatThrownBy(tx::commit)
              .as(when)
              .isInstanceOf(IdxkitIOException.class)
              .hasMessageContaining(dir.resolve("wal").toString())
              .hasMessageContaining(Fault.EIO);
        }
        assertThat(f.hits()).as(when).isEqualTo(1);
        model.assertMatches(db, "after the failed commit, " + when);
        // What a crash right now would leave: the failed commit's partial frames must not replay.
        Path crash = CrashCopy.of(dir, tmp.resolve("crash" + trial));
        try (Database copy = Database.open(crash)) {
          model.assertMatches(copy, "recovered from a crash after the failed commit, " + when);
          assertThat(copy.check().problems()).as("crash copy, " + when).isEmpty();
        }
        // The writer was released: the next transaction starts and commits.
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> model.commit(db, 30));
        if (trial % 2 == 0) {
          db.checkpoint();
        }
        model.commit(db, 10);
        model.assertMatches(db, "after later commits, " + when);
        assertThat(db.check().problems()).as(when).isEmpty();
      }
      try (Database db = Database.open(dir)) {
        model.assertMatches(db, "after reopening, " + when);
        assertThat(db.check().problems()).as(when).isEmpty();
      }
      io.clear();
    }
  }

  @Test
  void aCheckpointWhoseWritesFailChangesNothing() throws Exception {
    SplittableRandom r = Seeds.random(SEED ^ 2);
    String why = Seeds.reproduce(SEED, getClass());
    for (String file : new String[] {"data.area", "index.area", "meta"}) {
      Path dir = tmp.resolve("k-" + file);
      ModelTable model = new ModelTable(r.nextLong());
      String when = "write error in " + file + " during a checkpoint; " + why;
      Database db = Database.create(dir, options());
      db.execute(ModelTable.DDL);
      for (int i = 0; i < 4; i++) {
        model.commit(db, 200);
      }
      Fault f = io.add(Fault.ioErrorAfter(Fault.named(file), r.nextLong(0, 20)));
      Throwable first = catchThrowable(db::checkpoint);
      assertThat(first)
          .as(when)
          .isInstanceOf(IdxkitIOException.class)
          .hasMessageContaining(dir.resolve(file).toString());
      assertThat(f.hits()).as(when).isEqualTo(1);
      model.assertMatches(db, "after the failed checkpoint, " + when);
      try (Database copy = Database.open(CrashCopy.of(dir, tmp.resolve("k-crash-" + file)))) {
        model.assertMatches(copy, "recovered from a crash after the failed checkpoint, " + when);
        assertThat(copy.check().problems()).as(when).isEmpty();
      }
      // The disk works again (the fault was one-shot). Until the stale-failure bug is fixed
      // (aFailedCheckpointDoesNotPoisonTheNextOne, disabled), close rethrows the first failure
      // itself for the area files; anything else thrown here is a new problem.
      Throwable atClose = catchThrowable(db::close);
      assertThat(atClose == null || atClose == first)
          .as("close after the disk recovered threw %s; %s", atClose, when)
          .isTrue();
      io.clear();
      try (Database reopened = Database.open(dir)) {
        model.assertMatches(reopened, "after reopening, " + when);
        assertThat(reopened.check().problems()).as(when).isEmpty();
      }
    }
  }

  /**
   * A write that fails while a checkpoint copies pages home must not poison later checkpoints: the
   * store drops the failed writer, so once the disk works the next checkpoint and close succeed.
   * (Before the fix every later checkpoint, close and automatic checkpoint rethrew the first
   * failure until the database was reopened.)
   */
  @Test
  void aFailedCheckpointDoesNotPoisonTheNextOne() {
    Path dir = tmp.resolve("poison");
    ModelTable model = new ModelTable(SEED);
    Database db = Database.create(dir, options());
    try {
      db.execute(ModelTable.DDL);
      model.commit(db, 200);
      io.add(Fault.ioErrorAfter(Fault.named("data.area"), 0));
      assertThatThrownBy(db::checkpoint).isInstanceOf(IdxkitIOException.class);
      model.commit(db, 20);
      // The one-shot fault is spent: the disk works, so this checkpoint and the close must too.
      assertThat(catchThrowable(db::checkpoint)).as("the next checkpoint").isNull();
      model.assertMatches(db, "after a good checkpoint");
      assertThat(catchThrowable(db::close)).as("close").isNull();
    } finally {
      // Only releases the files if an assertion above failed first; close is idempotent.
      catchThrowable(db::close);
    }
  }

  @Test
  void shortWritesEverywhereChangeNothing() {
    String why = Seeds.reproduce(SEED, getClass());
    Fault f = io.add(Fault.shortWrites(p -> true, SEED));
    Path dir = tmp.resolve("short");
    ModelTable model = new ModelTable(SEED);
    try (Database db = Database.create(dir, options())) {
      db.execute(ModelTable.DDL);
      for (int i = 0; i < 6; i++) {
        model.commit(db, 150);
        if (i % 2 == 1) {
          db.checkpoint();
        }
      }
      model.assertMatches(db, "with short writes; " + why);
    }
    try (Database db = Database.open(dir, options())) {
      model.assertMatches(db, "reopened with short writes; " + why);
      assertThat(db.check().problems()).as(why).isEmpty();
    }
    assertThat(f.hits()).as("writes were cut short; " + why).isGreaterThan(10);
  }
}
