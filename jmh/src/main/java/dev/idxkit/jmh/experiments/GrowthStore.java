package dev.idxkit.jmh.experiments;

import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.internal.txn.StoreOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

/**
 * A store the {@code growth} experiment inserts into: the same table - an id, nine BIGINT keys each
 * with its own non-unique index, and a text pad - in idxkit through the public {@link Database} /
 * {@link Transaction} API, and in SQLite through JDBC. Both commit every {@code batch} rows and
 * neither fsyncs at commit (see {@link Idxkit} and {@link Sqlite} for the exact settings), so the
 * comparison is of index maintenance and logging, not of fsync latency.
 */
interface GrowthStore extends AutoCloseable {
  int KEYS = 9;

  /** For the results: {@code idxkit} or {@code sqlite}. */
  String name();

  /** One line on the durability and cache settings, for the results' notes. */
  String settings();

  /**
   * Inserts rows {@code from .. from + keys.length - 1}: row {@code i} is {@code (from + i,
   * keys[i][0..8], pads[i])}, committed every {@code batch} rows and at the end.
   */
  void insert(long from, long[][] keys, String[] pads, int batch) throws Exception;

  /** The bytes the store's files take on disk now (logs included). */
  long fileBytes();

  /** The bytes of its table and index files alone (without the write-ahead log). */
  long dataBytes();

  @Override
  void close() throws Exception;

  /**
   * idxkit: {@link Durability#ASYNC} commits (log written at commit, fsynced in the background).
   */
  final class Idxkit implements GrowthStore {
    private final Path dir;
    private final Database db;
    private final Table table;
    private final long changeBufferBytes;

    /** {@code changeBufferBytes}: the store's change-buffer bound, or -1 for its default. */
    Idxkit(Path dir, long changeBufferBytes) {
      this.dir = dir;
      Database.DatabaseOptions o =
          Database.DatabaseOptions.defaults().withDurability(Durability.ASYNC);
      if (changeBufferBytes >= 0) {
        o = o.withChangeBufferBytes(changeBufferBytes);
      }
      this.changeBufferBytes = o.storeOptions().changeBufferBytes();
      this.db = Database.create(dir, o);
      StringBuilder ddl = new StringBuilder("CREATE TABLE growth (id BIGINT");
      for (int k = 1; k <= KEYS; k++) {
        ddl.append(", k").append(k).append(" BIGINT");
      }
      ddl.append(", pad VARCHAR(200));");
      for (int k = 1; k <= KEYS; k++) {
        ddl.append("CREATE INDEX growth_k")
            .append(k)
            .append(" ON growth (k")
            .append(k)
            .append(");");
      }
      db.execute(ddl.toString(), "growth schema");
      this.table = db.table("growth");
    }

    @Override
    public String name() {
      return "idxkit";
    }

    @Override
    public String settings() {
      return "idxkit: Durability.ASYNC (log written at each commit, fsynced by the background"
          + " flush), 8 KiB pages, default checkpoint bounds ("
          + (StoreOptions.DEFAULT_CHECKPOINT_BYTES >> 20)
          + " MiB of log, "
          + (StoreOptions.DEFAULT_DIRTY_PAGE_BYTES >> 20)
          + " MiB of dirty pages here; checkpoints beside the commits from half of them), "
          + (changeBufferBytes == 0
              ? "no change buffers (every index entry inserted into its tree at once)"
              : "change buffers of "
                  + (changeBufferBytes >> 20)
                  + " MiB (index entries held sorted in memory, merged into the trees in key"
                  + " order past that and at every checkpoint and close)")
          + ", reads through the page cache (no cache limit)";
    }

    @Override
    public void insert(long from, long[][] keys, String[] pads, int batch) {
      Object[] row = new Object[KEYS + 2];
      for (int i = 0; i < keys.length; ) {
        try (Transaction t = db.begin(Durability.ASYNC)) {
          for (int end = Math.min(keys.length, i + batch); i < end; i++) {
            row[0] = from + i;
            for (int k = 0; k < KEYS; k++) {
              row[k + 1] = keys[i][k];
            }
            row[KEYS + 1] = pads[i];
            t.insert(table, row);
          }
          t.commit();
        }
      }
    }

    @Override
    public long fileBytes() {
      return directoryBytes(dir);
    }

    @Override
    public long dataBytes() {
      try (Stream<Path> s = Files.list(dir)) {
        return s.filter(p -> p.getFileName().toString().endsWith(".area"))
            .mapToLong(GrowthStore::size)
            .sum();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + dir, e);
      }
    }

    @Override
    public void close() {
      db.close();
    }
  }

  /**
   * SQLite (sqlite-jdbc): WAL journal, {@code synchronous=NORMAL} (no fsync at commit, as idxkit's
   * ASYNC), a 256 MiB page cache, the default 4 KiB pages; the same table with INTEGER columns and
   * nine {@code CREATE INDEX}.
   */
  final class Sqlite implements GrowthStore {
    static final int CACHE_KIB = 256 * 1024;

    private final Path file;
    private final Connection c;
    private final PreparedStatement insert;

    Sqlite(Path file) throws SQLException {
      this.file = file;
      this.c = DriverManager.getConnection("jdbc:sqlite:" + file);
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA journal_mode=WAL");
        s.execute("PRAGMA synchronous=NORMAL");
        s.execute("PRAGMA cache_size=-" + CACHE_KIB);
        StringBuilder ddl = new StringBuilder("CREATE TABLE growth (id INTEGER");
        for (int k = 1; k <= KEYS; k++) {
          ddl.append(", k").append(k).append(" INTEGER");
        }
        s.execute(ddl.append(", pad TEXT)").toString());
        for (int k = 1; k <= KEYS; k++) {
          s.execute("CREATE INDEX growth_k" + k + " ON growth (k" + k + ")");
        }
      }
      c.setAutoCommit(false);
      StringBuilder sql = new StringBuilder("INSERT INTO growth VALUES (?");
      for (int k = 0; k <= KEYS; k++) {
        sql.append(", ?");
      }
      this.insert = c.prepareStatement(sql.append(')').toString());
    }

    @Override
    public String name() {
      return "sqlite";
    }

    @Override
    public String settings() {
      return "sqlite "
          + sqliteVersion()
          + ": journal_mode=WAL, synchronous=NORMAL (no fsync at commit), cache_size 256 MiB,"
          + " 4 KiB pages, one prepared INSERT executed per row";
    }

    private String sqliteVersion() {
      try (Statement s = c.createStatement();
          var r = s.executeQuery("SELECT sqlite_version()")) {
        return r.next() ? r.getString(1) : "?";
      } catch (SQLException e) {
        return "?";
      }
    }

    @Override
    public void insert(long from, long[][] keys, String[] pads, int batch) throws SQLException {
      for (int i = 0; i < keys.length; ) {
        for (int end = Math.min(keys.length, i + batch); i < end; i++) {
          insert.setLong(1, from + i);
          for (int k = 0; k < KEYS; k++) {
            insert.setLong(k + 2, keys[i][k]);
          }
          insert.setString(KEYS + 2, pads[i]);
          insert.executeUpdate();
        }
        c.commit();
      }
    }

    @Override
    public long fileBytes() {
      long n = 0;
      for (String suffix : new String[] {"", "-wal", "-shm"}) {
        Path p = Path.of(file + suffix);
        n += Files.exists(p) ? size(p) : 0;
      }
      return n;
    }

    @Override
    public long dataBytes() {
      return size(file);
    }

    @Override
    public void close() throws SQLException {
      try {
        insert.close();
      } finally {
        c.close();
      }
    }
  }

  static long directoryBytes(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(GrowthStore::size).sum();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot size " + dir, e);
    }
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot size " + p, e);
    }
  }
}
