package dev.idxkit.jmh.peers;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.TableDef;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A SQL database (SQLite, H2, PostgreSQL or DuckDB) in the {@code idxbuild} and {@code load}
 * experiments: it loads the lineitem CSV into a table without keys, then builds the six indexes
 * with {@code CREATE INDEX}, each timed; and answers the cross-check ({@link #count}) through the
 * index it names, so that the check reads the indexes just built, not the table.
 *
 * <p>Call order: {@link #open}, {@link #load}, {@link #reopen} (so that the index builds start with
 * the peer's own cache cold, as idxkit's rebuild starts; the OS page cache stays warm for every
 * store alike), {@link #createIndexes}, {@link #rowCount} / {@link #count}, {@link #close()}
 * (idempotent).
 */
abstract class SqlPeer implements AutoCloseable {
  final Path dir;
  final long cacheBytes;
  final int threads;
  Connection conn;

  /**
   * @param dir the peer's own directory (created)
   * @param cacheBytes its page cache budget
   * @param threads helper threads for sorting, where the peer has them
   */
  SqlPeer(Path dir, long cacheBytes, int threads) {
    this.dir = dir;
    this.cacheBytes = cacheBytes;
    this.threads = threads;
  }

  /** {@code sqlite}, {@code h2}, {@code postgres} or {@code duckdb}, not opened yet. */
  static SqlPeer of(String name, Path dir, long cacheBytes, int threads) {
    return switch (name) {
      case "sqlite" -> new SqlitePeer(dir, cacheBytes, threads);
      case "h2" -> new H2Peer(dir, cacheBytes, threads);
      case "postgres" -> new PostgresPeer(dir, cacheBytes, threads);
      case "duckdb" -> new DuckDbPeer(dir, cacheBytes, threads);
      default ->
          throw new InvalidInputException(
              "peer : " + name + " (expected: sqlite, h2, postgres or duckdb)");
    };
  }

  abstract String name();

  /** Durability, cache, threads: a line for the report. */
  abstract String settings();

  /** Opens the database (a new one on the first call) and applies the settings. */
  abstract void open() throws Exception;

  /** Creates {@code table} as a heap (no key) and fills it from {@code csv}; returns its rows. */
  abstract long load(Path csv, TableDef table) throws Exception;

  /**
   * {@code SELECT count(*)} of rows whose {@code ix} key equals the bound values, through ix. This
   * plain form leaves the choice to the planner (PostgreSQL and DuckDB pick the index on their
   * own); a peer that must be told which index to read overrides it.
   */
  String countSql(IndexInfo ix) {
    return "SELECT count(*) FROM " + ix.table().name() + " WHERE " + keyPredicate(ix);
  }

  /**
   * Binds one key value (Long, Integer, LocalDate, ...) the way this peer stores it: as the JDBC
   * driver maps the Java type, unless the peer overrides it.
   */
  void bind(PreparedStatement ps, int position, Object value) throws SQLException {
    ps.setObject(position, value);
  }

  /**
   * What {@link #loadAndIndex} took: rows loaded, wall and process CPU nanos of the load and of the
   * index builds (per index, in order).
   */
  record Timed(
      long rows,
      long loadNanos,
      long loadCpuNanos,
      Map<String, Long> indexNanos,
      long indexCpuNanos) {
    long indexTotalNanos() {
      return indexNanos.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /**
   * Opens a new database, loads {@code csv} into {@code table}, reopens it and builds {@code
   * indexes}; the row count is checked against the CSV's by the caller.
   */
  Timed loadAndIndex(Path csv, TableDef table, List<IndexInfo> indexes) throws Exception {
    open();
    long c0 = Machine.processCpuNanos();
    long t0 = System.nanoTime();
    long rows = load(csv, table);
    long loadNanos = System.nanoTime() - t0;
    long loadCpu = Machine.processCpuNanos() - c0;
    reopen();
    // What the load deferred, done first (settle), and its pages written back: PostgreSQL (fsync
    // off) leaves the table and its VACUUM FREEZE dirty, and the kernel's write-back of them, 30 s
    // later, can fall under the first index builds (in one run of SF 0.5: 13.1 s, against 8.3-10.2
    // s for the same builds repeated).
    settle();
    Machine.syncDisks();
    List<String> names = indexes.stream().map(IndexInfo::name).toList();
    long c1 = Machine.processCpuNanos();
    Map<String, Long> perIndex = createIndexes(names, Lineitem.createIndexSql(indexes));
    long indexCpu = Machine.processCpuNanos() - c1;
    return new Timed(rows, loadNanos, loadCpu, perIndex, indexCpu);
  }

  /**
   * {@link #loadAndIndex}, or null when the peer cannot run on this machine: then its one-line
   * reason is printed and noted in {@code sheet}, and the peer is closed. Any other failure closes
   * the peer and is thrown.
   */
  static Timed loadAndIndexOrSkip(
      SqlPeer p,
      Path csv,
      TableDef table,
      List<IndexInfo> indexes,
      java.io.PrintStream out,
      ResultSheet sheet)
      throws Exception {
    try {
      return p.loadAndIndex(csv, table, indexes);
    } catch (PeerUnavailableException e) {
      out.println("  " + e.getMessage());
      sheet.note(e.getMessage());
      p.close();
      return null;
    } catch (Exception | Error e) {
      try {
        p.close();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** Closes and opens the database again. */
  void reopen() throws Exception {
    close();
    open();
  }

  /**
   * Finishes the work the database defers after a build (untimed, before the next timed run);
   * nothing by default.
   */
  void settle() throws SQLException {}

  /** Drops the indexes {@code names}, as {@link #createIndexes} made them. */
  void dropIndexes(List<String> names) throws SQLException {
    try (Statement s = conn.createStatement()) {
      for (String name : names) {
        s.execute("DROP INDEX " + name);
      }
    }
  }

  /** Runs each statement of {@code ddl} (named by {@code names}); returns nanos per name. */
  Map<String, Long> createIndexes(List<String> names, List<String> ddl) throws SQLException {
    Map<String, Long> out = new LinkedHashMap<>();
    try (Statement s = conn.createStatement()) {
      for (int i = 0; i < ddl.size(); i++) {
        long t0 = System.nanoTime();
        s.execute(ddl.get(i));
        out.put(names.get(i), System.nanoTime() - t0);
      }
    }
    return out;
  }

  long rowCount(String table) throws SQLException {
    try (Statement s = conn.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Rows whose key in {@code ix} equals {@code key}, read through that index. */
  long count(IndexInfo ix, Object[] key) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(countSql(ix))) {
      for (int i = 0; i < key.length; i++) {
        bind(ps, i + 1, key[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** {@code c1 = ? AND c2 = ?} over the key columns of {@code ix}. */
  static String keyPredicate(IndexInfo ix) {
    StringBuilder b = new StringBuilder();
    for (String c : Lineitem.keyColumns(ix)) {
      b.append(b.length() == 0 ? "" : " AND ").append(c.replace(" DESC", "")).append(" = ?");
    }
    return b.toString();
  }

  @Override
  public void close() throws SQLException {
    if (conn != null) {
      try {
        conn.close();
      } finally {
        conn = null;
      }
    }
  }
}
