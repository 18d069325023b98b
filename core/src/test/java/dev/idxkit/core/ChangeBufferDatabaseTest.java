package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.core.testing.Seeds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The change buffers of non-unique indexes seen through the public API: entries buffered by commits
 * are found by lookups and scans (both directions) before any merge, by the transaction that
 * buffered them, after a crash (the log's edits replayed into the buffers), on a read-only open of
 * a crashed database (buffers recovered, not merged), and after merges forced by a small bound;
 * {@code check} passes in every state. A unique index next to them is never buffered.
 */
class ChangeBufferDatabaseTest {
  @TempDir Path tmp;

  static final String DDL =
      """
      CREATE TABLE t (id BIGINT NOT NULL, grp INT, tag VARCHAR(40), PRIMARY KEY (id));
      CREATE INDEX t_grp ON t (grp);
      CREATE INDEX t_tag ON t (tag);
      """;

  /** The model: id to (grp, tag). */
  private final TreeMap<Long, Object[]> rows = new TreeMap<>();

  /** The random of this test's seed (each test runs on an instance of its own). */
  private final SplittableRandom rnd = Seeds.random(Seeds.seed());

  @Test
  void committedChangesAreReadFromTheBufferBeforeAnyMerge() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      work(db, rnd, 20, 300);
      assertThat(Engine.of(db).bufferedChanges()).isPositive();
      assertMatches(db, rnd);
      assertThat(db.check().problems()).isEmpty();
    }
    // Closing merged them (the last checkpoint); the trees alone hold every entry now.
    try (Database db = Database.open(tmp.resolve("db"))) {
      assertThat(Engine.of(db).bufferedChanges()).isZero();
      assertMatches(db, rnd);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  @Test
  void aTransactionReadsItsOwnBufferedChangesAndARollbackDropsThem() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      work(db, rnd, 5, 200);
      Table t = db.table("t");
      try (Transaction tx = db.begin()) {
        long rid = tx.insert(t, 1_000_000L, 7, "own");
        assertThat(ids(tx.lookup(db.index("t_grp"), 7))).contains(1_000_000L);
        assertThat(ids(tx.lookup(db.index("t_tag"), "own"))).containsExactly(1_000_000L);
        tx.delete(t, rid);
        assertThat(ids(tx.lookup(db.index("t_tag"), "own"))).isEmpty();
        tx.insert(t, 1_000_001L, 7, "own");
        tx.rollback();
      }
      assertThat(ids(db.index("t_tag").get("own"))).isEmpty();
      assertMatches(db, rnd);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  @Test
  void aCrashKeepsEveryCommittedBufferedChange() throws IOException {
    Path dir = tmp.resolve("db");
    Path crash;
    try (Database db = Database.create(dir)) {
      db.execute(DDL);
      work(db, rnd, 30, 200);
      assertThat(Engine.of(db).bufferedChanges()).isPositive();
      crash = CrashCopy.of(dir, tmp.resolve("crash"));
    }
    assertThat(walVersion(crash)).isEqualTo(5);
    Path readOnlyCopy = CrashCopy.of(crash, tmp.resolve("crash-ro"));
    // Read-only: the log is replayed into memory, buffers included, and nothing is merged.
    try (Database db = Database.open(readOnlyCopy, DatabaseOptions.defaults().readOnly())) {
      assertThat(Engine.of(db).bufferedChanges()).isPositive();
      assertMatches(db, rnd);
      assertThat(db.check().problems()).isEmpty();
    }
    // Read-write: recovery replays and checkpoints, the buffers written at the head of the new log
    // segment rather than merged; later work goes on as before, and the close merges them.
    try (Database db = Database.open(crash)) {
      assertThat(Engine.of(db).bufferedChanges()).isPositive();
      assertMatches(db, rnd);
      work(db, rnd, 10, 200);
      assertMatches(db, rnd);
      assertThat(db.check().problems()).isEmpty();
    }
    try (Database db = Database.open(crash)) {
      assertThat(Engine.of(db).bufferedChanges()).isZero();
      assertMatches(db, rnd);
    }
  }

  /**
   * A damaged log header (the log is read with the salt the meta recorded) leaves no segment to
   * append to: recovery merges the buffers in memory and checkpoints holding the writer.
   */
  @Test
  void aDamagedLogHeaderStillRecoversTheBufferedChanges() throws IOException {
    Path dir = tmp.resolve("db");
    Path crash;
    try (Database db = Database.create(dir)) {
      db.execute(DDL);
      work(db, rnd, 20, 200);
      assertThat(Engine.of(db).bufferedChanges()).isPositive();
      crash = CrashCopy.of(dir, tmp.resolve("crash"));
    }
    try (FileChannel ch = FileChannel.open(crash.resolve("wal"), StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {0x55, 0x55, 0x55, 0x55}), 8); // the format version
    }
    try (Database db = Database.open(crash)) {
      assertThat(Engine.of(db).bufferedChanges()).isZero();
      assertMatches(db, rnd);
      assertThat(db.check().problems()).isEmpty();
      work(db, rnd, 5, 200);
      assertMatches(db, rnd);
    }
    try (Database db = Database.open(crash)) {
      assertMatches(db, rnd);
    }
  }

  @Test
  void aSmallBoundMergesAsItGoesAndNothingIsLost() {
    DatabaseOptions small = DatabaseOptions.defaults().withChangeBufferBytes(16 << 10);
    try (Database db = Database.create(tmp.resolve("db"), small)) {
      db.execute(DDL);
      long most = 0;
      for (int i = 0; i < 40; i++) {
        work(db, rnd, 1, 250);
        most = Math.max(most, Engine.of(db).bufferedChanges());
      }
      // After every commit the buffers hold at most 16 KiB (a commit past it merges them back to
      // half), and a change costs at least its entry (a key byte and the 8-byte RID) and 5 bytes
      // in a run: at most 16 KiB / 14 changes, where unmerged the 40 commits would leave ~24,000.
      assertThat(most).isPositive().isLessThanOrEqualTo((16 << 10) / 14);
      assertMatches(db, rnd);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  /**
   * Checkpoints beside the commits (forced by a 1 MiB dirty-page bound) leave the buffers as they
   * are and write them at the head of the log segment they start: a crash after several of them
   * still finds every buffered change, though the segments that buffered them are gone.
   */
  @Test
  void checkpointsBesideTheCommitsKeepTheBuffersInTheLog() throws IOException {
    Path dir = tmp.resolve("db");
    DatabaseOptions o = DatabaseOptions.defaults().withDirtyPageBytes(1 << 20);
    Path crash;
    try (Database db = Database.create(dir, o)) {
      db.execute(DDL);
      work(db, rnd, 150, 400);
      // A checkpoint beside the commits switches the log to its second segment.
      assertThat(dir.resolve("wal2")).as("a checkpoint beside the commits ran").exists();
      assertThat(Engine.of(db).bufferedChanges()).isPositive();
      assertMatches(db, rnd);
      crash = CrashCopy.of(dir, tmp.resolve("crash"));
    }
    try (Database db = Database.open(crash, DatabaseOptions.defaults().readOnly())) {
      assertThat(Engine.of(db).bufferedChanges()).isPositive();
      assertMatches(db, rnd);
      assertThat(db.check().problems()).isEmpty();
    }
    try (Database db = Database.open(crash)) {
      assertMatches(db, rnd);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  @Test
  void withBufferingOffNothingIsBuffered() {
    DatabaseOptions off = DatabaseOptions.defaults().withChangeBufferBytes(0);
    try (Database db = Database.create(tmp.resolve("db"), off)) {
      db.execute(DDL);
      work(db, rnd, 10, 200);
      assertThat(Engine.of(db).bufferedChanges()).isZero();
      assertMatches(db, rnd);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  /** Transactions of random inserts, updates (grp and tag change) and deletes. */
  private void work(Database db, SplittableRandom rnd, int txns, int opsPerTxn) {
    Table t = db.table("t");
    for (int n = 0; n < txns; n++) {
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < opsPerTxn; i++) {
          int op = rnd.nextInt(10);
          if (op < 6 || rows.isEmpty()) {
            long id = rnd.nextLong(1, 1L << 40);
            if (rows.containsKey(id)) {
              continue;
            }
            Object[] v = {rnd.nextInt(50), "tag" + rnd.nextInt(300)};
            tx.insert(t, id, v[0], v[1]);
            rows.put(id, v);
          } else {
            Long id = rows.ceilingKey(rnd.nextLong(1, 1L << 40));
            id = id == null ? rows.firstKey() : id;
            long rid = ridOf(db, tx, id);
            if (op < 8) {
              Object[] v = {rnd.nextInt(50), "tag" + rnd.nextInt(300)};
              tx.update(t, rid, id, v[0], v[1]);
              rows.put(id, v);
            } else {
              tx.delete(t, rid);
              rows.remove(id);
            }
          }
        }
        tx.commit();
      }
    }
  }

  private static long ridOf(Database db, Transaction tx, long id) {
    List<Row> r = tx.lookup(db.index("t_pk"), id);
    assertThat(r).hasSize(1);
    return r.get(0).rid();
  }

  /** Every index gives what the model says: lookups of some keys, full scans both ways. */
  private void assertMatches(Database db, SplittableRandom rnd) {
    for (int k = 0; k < 10; k++) {
      int grp = rnd.nextInt(50);
      assertThat(ids(db.index("t_grp").get(grp))).isEqualTo(expectedIds(0, grp));
      String tag = "tag" + rnd.nextInt(300);
      assertThat(ids(db.index("t_tag").get(tag))).isEqualTo(expectedIds(1, tag));
    }
    for (String ix : List.of("t_grp", "t_tag")) {
      List<Long> forward = new ArrayList<>();
      try (RowCursor c = db.index(ix).scan(KeyRange.ALL, false, -1)) {
        c.forEachRemaining(r -> forward.add((Long) r.get(0)));
      }
      List<Long> backward = new ArrayList<>();
      try (RowCursor c = db.index(ix).scan(KeyRange.ALL, true, -1)) {
        c.forEachRemaining(r -> backward.add(0, (Long) r.get(0)));
      }
      assertThat(forward).hasSize(rows.size()).isEqualTo(backward);
    }
  }

  private List<Long> expectedIds(int column, Object value) {
    List<Long> out = new ArrayList<>();
    rows.forEach(
        (id, v) -> {
          if (v[column].equals(value)) {
            out.add(id);
          }
        });
    return out;
  }

  /** Ids in id order (rows of equal keys come in RID order, not id order). */
  private static List<Long> ids(List<Row> found) {
    List<Long> out = new ArrayList<>();
    for (Row r : found) {
      out.add((Long) r.get(0));
    }
    out.sort(null);
    return out;
  }

  private static int walVersion(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir.resolve("wal"))) {
      ByteBuffer h = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(h, 0);
      return h.getInt(8);
    }
  }
}
