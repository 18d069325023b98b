package dev.idxkit.core.internal.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.Database;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.internal.io.PageFile;
import dev.idxkit.core.internal.io.PagePool;
import dev.idxkit.core.internal.meta.MetaCodec;
import dev.idxkit.core.internal.meta.MetaFile;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.testing.CrashCopy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database whose log was written in format 1 (page images; what the version before redo records
 * leaves after a crash) opens: its log is replayed, checkpointed, and continued in the current
 * format; so does one in format 2 (redo records of sealed images). A log of an unknown format is
 * refused with one line naming both versions.
 *
 * <p>The format 1 log is made the way the old version would have written it: a crash copy of a
 * database with committed work in its log, whose current-format log is replayed here (over the
 * copy's area files, which hold the pages its deltas start from) and written back as the same
 * transactions (same LSNs, salt and edits) with each changed page's whole image; formats 2 and 3
 * the same, as FULL redo records (sealed in format 2).
 */
class LogFormatUpgradeTest {
  @TempDir Path tmp;

  private static final String DDL =
      "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(200)); CREATE INDEX t_v ON t (v);";

  /** Commits to {@code db} and returns the rows as they must be found. */
  private static TreeMap<Long, String> work(Database db) {
    TreeMap<Long, String> rows = new TreeMap<>();
    Table t = db.table("t");
    for (int txn = 0; txn < 12; txn++) {
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < 150; i++) {
          long id = txn * 1000L + i;
          String v = "v" + (id * 7919 % 1000) + "-" + "x".repeat((int) (id % 50));
          tx.insert(t, id, v);
          rows.put(id, v);
        }
        tx.commit();
      }
    }
    return rows;
  }

  private static void assertRows(Database db, TreeMap<Long, String> rows) {
    TreeMap<Long, String> found = new TreeMap<>();
    try (RowCursor c = db.index("t_pk").scan()) {
      while (c.hasNext()) {
        Row r = c.next();
        found.put((Long) r.get(0), (String) r.get(1));
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertThat(found).isEqualTo(rows);
    try (RowCursor c = db.index("t_v").scan()) {
      assertThat(c.take(Integer.MAX_VALUE)).hasSize(rows.size());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertThat(db.check().problems()).isEmpty();
  }

  /** A crash copy of a database after {@link #work}, and the rows it must hold. */
  private record Crashed(Path dir, TreeMap<Long, String> rows) {}

  /**
   * Makes a database, crashes a copy of it, and rewrites the copy's log in the older record format
   * {@code recordVersion}, whose log header says {@code expectedHeader}.
   */
  private Crashed crashedWithLogIn(int recordVersion, int expectedHeader) throws Exception {
    Path dir = tmp.resolve("db");
    Path crash;
    TreeMap<Long, String> rows;
    // No change buffers: the older formats had none, so their logs hold no edits of them.
    try (Database db = Database.create(dir, NO_BUFFERS)) {
      db.execute(DDL);
      rows = work(db);
      crash = CrashCopy.of(dir, tmp.resolve("crash"));
    }
    assertThat(rewrite(crash.resolve("wal"), recordVersion)).isGreaterThanOrEqualTo(12);
    assertThat(headerVersion(crash.resolve("wal"))).isEqualTo(expectedHeader);
    return new Crashed(crash, rows);
  }

  private static final Database.DatabaseOptions NO_BUFFERS =
      Database.DatabaseOptions.defaults().withChangeBufferBytes(0);

  /** Format 4 is format 5 without change-buffer edits: a header saying 4 is all that differs. */
  @Test
  void aFormat4LogIsReplayedThenContinuedInTheCurrentFormat() throws Exception {
    Path dir = tmp.resolve("db");
    Path crash;
    TreeMap<Long, String> rows;
    try (Database db = Database.create(dir, NO_BUFFERS)) {
      db.execute(DDL);
      rows = work(db);
      crash = CrashCopy.of(dir, tmp.resolve("crash"));
    }
    Path wal = crash.resolve("wal");
    long salt = readHeader(wal).getLong(16);
    try (FileChannel ch = FileChannel.open(wal, StandardOpenOption.WRITE)) {
      ch.write(WalFormat.header(Page.DEFAULT_SIZE, salt, WalFormat.FORMAT_VERSION_NO_BUFFERS), 0);
    }
    assertThat(headerVersion(wal)).isEqualTo(4);
    replayedThenContinued(new Crashed(crash, rows));
  }

  /** A change-buffer edit in a log whose header says format 4 is damage, not a buffered change. */
  @Test
  void aChangeBufferEditInAFormat4LogIsReportedAsDamage() throws Exception {
    Path dir = tmp.resolve("db");
    Path crash;
    try (Database db = Database.create(dir)) {
      db.execute(DDL);
      work(db);
      crash = CrashCopy.of(dir, tmp.resolve("crash"));
    }
    Path wal = crash.resolve("wal");
    long salt = readHeader(wal).getLong(16);
    try (FileChannel ch = FileChannel.open(wal, StandardOpenOption.WRITE)) {
      ch.write(WalFormat.header(Page.DEFAULT_SIZE, salt, WalFormat.FORMAT_VERSION_NO_BUFFERS), 0);
    }
    assertThatThrownBy(() -> Database.open(crash))
        .isInstanceOf(CorruptDatabaseException.class)
        .hasMessageContaining("change-buffer edit for index");
  }

  @Test
  void aFormat1LogIsReplayedThenContinuedInTheCurrentFormat() throws Exception {
    replayedThenContinued(crashedWithLogIn(WalFormat.FORMAT_VERSION_IMAGES, 1));
  }

  @Test
  void aFormat2LogOfSealedImagesIsReplayedThenContinuedInTheCurrentFormat() throws Exception {
    replayedThenContinued(crashedWithLogIn(RedoRecord.FORMAT_VERSION_SEALED, 2));
  }

  @Test
  void aFormat3LogOfFullFirstImagesIsReplayedThenContinuedInTheCurrentFormat() throws Exception {
    replayedThenContinued(crashedWithLogIn(WalFormat.FORMAT_VERSION_FULL_FIRST, 3));
  }

  /**
   * Opens the crashed database: its rows are back and its log is now in the current format; a
   * commit after the upgrade survives a crash of its own.
   */
  private void replayedThenContinued(Crashed c) throws Exception {
    Path crash = c.dir();
    TreeMap<Long, String> rows = c.rows();
    try (Database db = Database.open(crash)) {
      assertRows(db, rows);
      assertThat(headerVersion(crash.resolve("wal"))).isEqualTo(WalFormat.FORMAT_VERSION);
      try (Transaction tx = db.begin()) {
        tx.insert(db.table("t"), -1L, "after the upgrade");
        tx.commit();
      }
      rows.put(-1L, "after the upgrade");
      Path again = CrashCopy.of(crash, tmp.resolve("again"));
      try (Database copy = Database.open(again)) {
        assertRows(copy, rows);
      }
    }
  }

  @Test
  void anEmptyFormat1LogIsStartedAfreshInTheCurrentFormatBeforeTheFirstCommit() throws Exception {
    Path dir = tmp.resolve("db");
    try (Database db = Database.create(dir)) {
      db.execute(DDL);
    }
    Path wal = dir.resolve("wal");
    ByteBuffer h = readHeader(wal);
    long salt = h.getLong(16);
    writeFile(wal, WalFormat.header(Page.DEFAULT_SIZE, salt, 1));
    TreeMap<Long, String> rows;
    try (Database db = Database.open(dir)) {
      assertThat(headerVersion(wal)).isEqualTo(WalFormat.FORMAT_VERSION);
      rows = work(db);
      Path crash = CrashCopy.of(dir, tmp.resolve("crash"));
      try (Database copy = Database.open(crash)) {
        assertRows(copy, rows);
      }
    }
  }

  @Test
  void aLogOfAnUnknownFormatIsRefusedNamingBothVersions() throws Exception {
    Path dir = tmp.resolve("db");
    try (Database db = Database.create(dir)) {
      db.execute(DDL);
    }
    Path wal = dir.resolve("wal");
    long salt = readHeader(wal).getLong(16);
    writeFile(wal, WalFormat.header(Page.DEFAULT_SIZE, salt, 7));
    assertThatThrownBy(() -> Database.open(dir))
        .isInstanceOf(CorruptDatabaseException.class)
        .hasMessage(
            "corrupt database file "
                + wal
                + ": write-ahead log format version 7 (expected: 5, or 4, 3, 2 or 1 from an older"
                + " version, replayed then checkpointed)");
    assertThat(headerVersion(wal)).as("nothing rewritten").isEqualTo(7);
  }

  /**
   * Replays the current format's log at {@code wal} and writes it back in an older format: 1 (a
   * PAGE frame of each changed page's sealed image) or 2 (a FULL redo record of it, sealed);
   * returns the number of transactions.
   */
  private static int rewrite(Path wal, int version) throws IOException {
    int pageSize = Page.DEFAULT_SIZE;
    ByteBuffer out = ByteBuffer.allocateDirect(64 << 20).order(ByteOrder.LITTLE_ENDIAN);
    BytesStore<?, ?> outStore = BytesStore.wrap(out);
    PageIndex images = new PageIndex(new PagePool(pageSize, 16));
    long salt;
    int[] txns = {0};
    // The format 4 log's first delta of a page applies to its home copy: the crash copy's areas,
    // by id as the meta names them.
    MetaState meta;
    try (MetaFile mf = MetaFile.open(wal.resolveSibling("meta"), true)) {
      meta = MetaCodec.decode(mf.readCurrent()).state();
    }
    List<PageFile> areas = new ArrayList<>();
    for (int a = 0; a < meta.areaSlots(); a++) {
      String name = meta.areaName(a);
      areas.add(
          name == null
              ? null
              : PageFile.open(wal.resolveSibling(name + ".area"), pageSize, false, true));
    }
    try (Wal w = Wal.open(wal, pageSize, true)) {
      salt = w.headerSalt();
      out.put(WalFormat.header(pageSize, salt, version));
      PageDiff diff = new PageDiff();
      byte[] scratch = new byte[pageSize];
      List<long[]> touched = new ArrayList<>();
      WalReader.recover(
          w,
          0,
          new WalReader.Replay() {
            @Override
            public void page(int area, long pageNo, Page image) {
              throw new AssertionError("a format 3 log holds no PAGE frames");
            }

            @Override
            public void redo(
                ByteBuffer record, int pos, long lsn, int logVersion, RedoRecord.Layout layout) {
              images.applyRedo(record, pos, lsn, false, (a, p) -> areas.get(a).read(p), layout);
              RedoRecord.Header h = RedoRecord.readHeader(record, pos, pageSize, layout, lsn);
              touched.add(new long[] {h.area(), h.pageNo()});
            }

            @Override
            public void commit(long lsn, byte[] edits) {
              for (long[] p : touched) {
                // Formats 1 and 2 sealed their images; format 3 only stamped them, and starting
                // every change with a full image is within its rules.
                Page image = images.get((int) p[0], p[1]);
                if (version != WalFormat.FORMAT_VERSION_FULL_FIRST) {
                  image.seal(image.lsn());
                }
                if (version == WalFormat.FORMAT_VERSION_IMAGES) {
                  WalFormat.putPageFrame(out, outStore, lsn, salt, image);
                } else {
                  WalFormat.putRedoFrame(out, lsn, salt, image, null, diff, scratch);
                }
              }
              WalFormat.putCommitFrame(out, lsn, salt, edits, touched.size());
              touched.clear();
              txns[0]++;
            }
          },
          true);
      out.flip();
      writeFile(wal, out);
    } finally {
      // Releasing the wrapper frees the buffer's memory: only after the last use of it.
      outStore.releaseLast();
      for (PageFile f : areas) {
        if (f != null) {
          f.close();
        }
      }
    }
    return txns[0];
  }

  private static ByteBuffer readHeader(Path wal) throws IOException {
    ByteBuffer h = ByteBuffer.allocate(WalFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    try (FileChannel ch = FileChannel.open(wal, StandardOpenOption.READ)) {
      ch.read(h, 0);
    }
    return h;
  }

  private static int headerVersion(Path wal) throws IOException {
    return readHeader(wal).getInt(8);
  }

  private static void writeFile(Path file, ByteBuffer content) throws IOException {
    try (FileChannel ch =
        FileChannel.open(
            file,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.CREATE)) {
      while (content.hasRemaining()) {
        ch.write(content);
      }
      ch.force(false);
    }
  }
}
