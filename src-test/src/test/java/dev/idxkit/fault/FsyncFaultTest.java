package dev.idxkit.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.Durability;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.testing.Seeds;
import java.nio.file.Path;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An fsync that fails must be reported to the caller that asked for durability - a SYNC commit, a
 * checkpoint, a close - never swallowed; and what the process showed its readers must be what a
 * reopen finds once the disk works again.
 *
 * <p>What this cannot show: after a failed fsync Linux may drop the dirty pages and report the next
 * fsync as successful ("fsyncgate"). The store retries the fsync at the next commit or checkpoint,
 * so a transient failure followed by a successful retry is taken as durable; PostgreSQL answers
 * that case by crashing and recovering from its log. A test layer that only fails calls cannot
 * simulate lost pages.
 */
class FsyncFaultTest {
  static final long SEED = Seeds.seed();

  @TempDir Path tmp;

  private final FaultyFileIo io = new FaultyFileIo();

  @Test
  void aSyncCommitWhoseLogFsyncFailsThrowsAndAReopenAgreesWithWhatReadersSaw() {
    String why = Seeds.reproduce(SEED, getClass());
    Path dir = tmp.resolve("db");
    ModelTable model = new ModelTable(SEED);
    TreeMap<Long, Object[]> visible;
    try (Database db = Database.create(dir, DatabaseOptions.defaults().withFileIo(io))) {
      db.execute(ModelTable.DDL);
      model.commit(db, 100);
      Fault f = io.add(Fault.failingFsync(Fault.named("wal")));
      TreeMap<Long, Object[]> after;
      try (Transaction tx = db.begin(Durability.SYNC)) {
        after = model.stage(db, tx, 50);
        assertThatThrownBy(tx::commit)
            .as(why)
            .isInstanceOf(IdxkitIOException.class)
            .hasMessageContaining("fsync of write-ahead log " + dir.resolve("wal"))
            .hasMessageContaining(Fault.EIO);
      }
      assertThat(f.hits()).isEqualTo(1);
      // The commit is not known to be durable, but it was installed: readers see it.
      model.rows.clear();
      model.rows.putAll(after);
      model.assertMatches(db, "after the failed fsync; " + why);
      // While fsync keeps failing, every later request for durability fails too.
      assertThatThrownBy(db::checkpoint).as(why).isInstanceOf(IdxkitIOException.class);
      f.disarm();
      model.commit(db, 10);
      visible = new TreeMap<>(model.rows);
    }
    try (Database db = Database.open(dir)) {
      ModelTable reopened = new ModelTable(0);
      reopened.rows.putAll(visible);
      reopened.assertMatches(db, "reopened; " + why);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  @Test
  void asyncCommitsHearOfAFailingFsyncAtTheCheckpoint() {
    String why = Seeds.reproduce(SEED, getClass());
    Path dir = tmp.resolve("async");
    ModelTable model = new ModelTable(SEED ^ 3);
    try (Database db =
        Database.create(
            dir, DatabaseOptions.defaults().withFileIo(io).withDurability(Durability.ASYNC))) {
      db.execute(ModelTable.DDL);
      Fault f = io.add(Fault.failingFsync(Fault.named("wal")));
      model.commit(db, 100); // ASYNC: returns before any fsync
      model.commit(db, 100);
      assertThatThrownBy(db::checkpoint)
          .as(why)
          .isInstanceOf(IdxkitIOException.class)
          .hasMessageContaining("fsync of write-ahead log");
      assertThat(f.hits()).as(why).isGreaterThanOrEqualTo(1);
      f.disarm();
      db.checkpoint();
    }
    try (Database db = Database.open(dir)) {
      model.assertMatches(db, "reopened; " + why);
    }
  }

  @Test
  void aCheckpointWhoseAreaOrMetaFsyncFailsThrowsNamingTheFile() {
    String why = Seeds.reproduce(SEED, getClass());
    for (String file : new String[] {"data.area", "index.area", "meta"}) {
      Path dir = tmp.resolve("ck-" + file);
      ModelTable model = new ModelTable(SEED ^ file.hashCode());
      try (Database db = Database.create(dir, DatabaseOptions.defaults().withFileIo(io))) {
        db.execute(ModelTable.DDL);
        model.commit(db, 300);
        Fault f = io.add(Fault.failingFsync(Fault.named(file)));
        assertThatThrownBy(db::checkpoint)
            .as(file + "; " + why)
            .isInstanceOf(IdxkitIOException.class)
            .hasMessageContaining(dir.resolve(file).toString());
        assertThat(f.hits()).isEqualTo(1);
        model.assertMatches(db, "after the failed checkpoint of " + file + "; " + why);
        // close checkpoints: with the disk still failing it must say so, not pretend.
        assertThatThrownBy(db::close).as(file).isInstanceOf(IdxkitIOException.class);
      }
      io.clear();
      try (Database db = Database.open(dir)) {
        model.assertMatches(db, "reopened after " + file + " fsync failures; " + why);
        assertThat(db.check().problems()).as(file).isEmpty();
      }
    }
  }
}
