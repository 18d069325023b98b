package dev.idxkit.jmh.peers;

import dev.idxkit.jmh.btree.TreeEntries;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * SQLite (sqlite-jdbc) in the {@code compare} experiment: a rowid table {@code kv(k INTEGER PRIMARY
 * KEY, v INTEGER)}, SQLite's own B+tree keyed by a 64-bit integer, the cheapest layout it has for
 * this map.
 *
 * <p>Build: one transaction of prepared inserts in key order (batches of {@value #BATCH}), with
 * {@code journal_mode=OFF} (no rollback journal: a bulk load into an empty file) and {@code
 * synchronous=NORMAL}, so the commit fsyncs the database file once, as idxkit's publish does.
 * {@code locking_mode=EXCLUSIVE}, {@code cache_size} = the experiment's cache budget, default page
 * size (4 KiB). Reads: one prepared statement each for the lookup and the scan, reused; each
 * execution is its own autocommit read transaction. Inserts: {@link #prepareInserts} switches to
 * {@code journal_mode=WAL} (SQLite's own write-ahead log; without a journal a transaction would not
 * be atomic) and {@code synchronous=OFF} (no fsync at commit); each batch is one transaction of
 * prepared inserts.
 */
final class SqliteKv implements KvStore {
  static final int BATCH = 10_000;

  private final Path dir;
  private final long cacheBytes;
  private Connection conn;
  private PreparedStatement get;
  private PreparedStatement scan;
  private PreparedStatement insert;

  SqliteKv(Path dir, long cacheBytes) {
    this.dir = dir;
    this.cacheBytes = cacheBytes;
  }

  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public String settings() {
    return "sqlite-jdbc, rowid table kv(k INTEGER PRIMARY KEY, v), journal_mode=OFF,"
        + " synchronous=NORMAL (one fsync at the build's single commit), locking_mode=EXCLUSIVE,"
        + " cache_size="
        + (cacheBytes >> 20)
        + " MiB, page size 4 KiB (default), no mmap; reads: reused prepared statements, autocommit;"
        + " inserts: journal_mode=WAL, synchronous=OFF, one transaction per batch,"
        + " wal_checkpoint(FULL) after the rounds";
  }

  @Override
  public void build(long n) throws Exception {
    java.nio.file.Files.createDirectories(dir);
    conn = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("kv.sqlite"));
    try (Statement s = conn.createStatement()) {
      s.execute("PRAGMA journal_mode=OFF");
      s.execute("PRAGMA synchronous=NORMAL");
      s.execute("PRAGMA locking_mode=EXCLUSIVE");
      s.execute("PRAGMA cache_size=-" + (cacheBytes >> 10));
      s.execute("CREATE TABLE kv(k INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
    }
    conn.setAutoCommit(false);
    try (PreparedStatement ins = conn.prepareStatement("INSERT INTO kv(k, v) VALUES (?, ?)")) {
      for (long i = 0; i < n; i++) {
        ins.setLong(1, TreeEntries.keyOf(i));
        ins.setLong(2, i);
        ins.addBatch();
        if ((i + 1) % BATCH == 0) {
          ins.executeBatch();
        }
      }
      ins.executeBatch();
    }
    conn.commit();
    conn.setAutoCommit(true);
    get = conn.prepareStatement("SELECT v FROM kv WHERE k = ?");
    scan = conn.prepareStatement("SELECT v FROM kv WHERE k >= ? ORDER BY k LIMIT ?");
  }

  @Override
  public void prepareInserts() throws Exception {
    try (Statement s = conn.createStatement()) {
      s.execute("PRAGMA journal_mode=WAL");
      s.execute("PRAGMA synchronous=OFF");
    }
    insert = conn.prepareStatement("INSERT INTO kv(k, v) VALUES (?, ?)");
  }

  @Override
  public void insertBatch(long[] keys, long[] values, int from, int to) throws Exception {
    conn.setAutoCommit(false);
    try {
      for (int i = from; i < to; i++) {
        insert.setLong(1, keys[i]);
        insert.setLong(2, values[i]);
        insert.addBatch();
      }
      insert.executeBatch();
      conn.commit();
    } finally {
      conn.setAutoCommit(true);
    }
  }

  /**
   * A full checkpoint of the write-ahead log: its frames copied into the database file and both
   * fsynced (the inserts committed with {@code synchronous=OFF} were not).
   */
  @Override
  public void persistInserts() throws Exception {
    try (Statement s = conn.createStatement()) {
      s.execute("PRAGMA wal_checkpoint(FULL)");
    }
  }

  @Override
  public long get(long key) throws Exception {
    get.setLong(1, key);
    try (ResultSet rs = get.executeQuery()) {
      return rs.next() ? rs.getLong(1) : -1;
    }
  }

  @Override
  public int scan(long from, long[] values) throws Exception {
    scan.setLong(1, from);
    scan.setInt(2, values.length);
    int n = 0;
    try (ResultSet rs = scan.executeQuery()) {
      while (n < values.length && rs.next()) {
        values[n++] = rs.getLong(1);
      }
    }
    return n;
  }

  @Override
  public void close() throws Exception {
    if (conn != null) {
      try {
        conn.close();
      } finally {
        conn = null;
      }
    }
  }
}
