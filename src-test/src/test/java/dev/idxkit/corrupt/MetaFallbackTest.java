package dev.idxkit.corrupt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.internal.meta.MetaFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one bug the corruption sweep found: when the newest meta slot was damaged after the
 * checkpoint that wrote it had also reset the log, open fell back to the older slot silently - and
 * that slot no longer described the files: the work between the two checkpoints was in the area
 * files but not in the older slot's row counts, page lists, roots and free lists, and the log that
 * could have replayed it was cut. Table scans missed rows while index entries pointed at them, and
 * the free list could hold pages in use.
 *
 * <p>The fix: every meta write records the salt of the log that follows it, and open accepts the
 * older slot only while the log still carries that slot's salt, which is the case exactly when the
 * newest slot was torn while being written (the log is reset after the meta write). These tests pin
 * both sides: a damaged newest slot after the log moved on is refused, naming the meta file; a torn
 * newest slot with the log as it was falls back and loses nothing. Deterministic (no seed).
 */
class MetaFallbackTest {
  @TempDir Path tmp;

  @Test
  void aDamagedNewestMetaSlotIsNotReplacedByAStaleOne() throws IOException {
    Path dir = tmp.resolve("db");
    twoCheckpoints(dir); // the second cuts the log back to its header
    damageNewestAnchor(dir.resolve("meta"));
    assertThatThrownBy(() -> Database.open(dir))
        .isInstanceOf(CorruptDatabaseException.class)
        .hasMessageContaining(dir.resolve("meta").toString())
        .hasMessageContaining("out of date");
    // Refusing changed nothing: the same answer again, read-only too.
    assertThatThrownBy(() -> Database.open(dir, DatabaseOptions.defaults().readOnly()))
        .isInstanceOf(CorruptDatabaseException.class);
  }

  @Test
  void aNewestSlotTornWhileBeingWrittenFallsBackAndLosesNothing() throws IOException {
    Path dir = tmp.resolve("db");
    Path logBefore = twoCheckpoints(dir);
    // A crash in the middle of the last checkpoint's meta write: the slot is torn and the log was
    // never reset.
    Files.copy(logBefore, dir.resolve("wal"), StandardCopyOption.REPLACE_EXISTING);
    damageNewestAnchor(dir.resolve("meta"));
    try (Database db = Database.open(dir)) {
      assertThat(db.table("t").rowCount()).isEqualTo(200);
      assertThat(db.index("t_pk").get(150L)).hasSize(1);
      assertThat(db.check().clean()).isTrue();
    }
  }

  /**
   * Creates a table of 100 rows, checkpoints, inserts 100 more and checkpoints again: the newest
   * meta slot holds 200 rows. Returns a copy of the log as it was before the second checkpoint,
   * when rows 100..199 were only in the log.
   */
  Path twoCheckpoints(Path dir) throws IOException {
    Path logBefore = tmp.resolve("wal-before-checkpoint");
    try (Database db = Database.create(dir)) {
      db.execute("CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(20))");
      Table t = db.table("t");
      insert(db, t, 0, 100);
      db.checkpoint();
      insert(db, t, 100, 200);
      Files.copy(dir.resolve("wal"), logBefore);
      db.checkpoint();
    }
    return logBefore;
  }

  static void insert(Database db, Table t, long from, long to) {
    try (Transaction tx = db.begin()) {
      for (long id = from; id < to; id++) {
        tx.insert(t, id, "v" + id);
      }
      tx.commit();
    }
  }

  /** Zeroes the anchor of the slot open would choose: a bit-rotted sector. */
  static void damageNewestAnchor(Path meta) throws IOException {
    int slot;
    try (MetaFile f = MetaFile.open(meta, true)) {
      slot = f.currentSlot();
    }
    try (FileChannel ch = FileChannel.open(meta, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(64), slot * 512L);
    }
  }
}
