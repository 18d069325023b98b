package dev.idxkit.jmh.peers;

import dev.idxkit.core.schema.TableDef;
import java.io.BufferedInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;

/**
 * PostgreSQL as a SQL peer: a throwaway cluster of the installed package ({@link PostgresCluster},
 * Unix socket only) reached through pgjdbc. Settings as a DBA would give a bulk index build: {@code
 * maintenance_work_mem} = the peer budget, {@code max_parallel_maintenance_workers} = peer threads
 * - 1 (the leader sorts too), {@code fsync=off}; otherwise the defaults.
 *
 * <p>Load: {@code COPY lineitem FROM STDIN (FORMAT csv, HEADER true)} fed the CSV file by the
 * driver's copy API (the file stays where it is, readable by this process only), then {@code VACUUM
 * (FREEZE, ANALYZE)} inside the load's time, so that the first {@code CREATE INDEX} does not pay
 * for setting every tuple's hint bits (a loaded table is vacuumed before it is indexed in
 * practice). The cross-check runs with {@code enable_seqscan=off}, so its counts come from the
 * indexes. CPU: the server's processes are not this JVM's, so the process CPU figures of this peer
 * count the driver only.
 */
final class PostgresPeer extends SqlPeer {
  static final String NAME = "postgres";

  private PostgresCluster cluster;
  private String version = "?";

  PostgresPeer(Path dir, long cacheBytes, int threads) {
    super(dir, cacheBytes, threads);
  }

  @Override
  String name() {
    return NAME;
  }

  /** The cluster's settings for a budget of {@code cacheBytes} and {@code threads} sorters. */
  static PostgresCluster.Settings settingsFor(long cacheBytes, int threads) {
    return new PostgresCluster.Settings(cacheBytes, Math.max(0, threads - 1));
  }

  @Override
  String settings() {
    PostgresCluster.Settings s = settingsFor(cacheBytes, threads);
    return "PostgreSQL "
        + version
        + " (throwaway cluster, Unix socket only, pgjdbc), maintenance_work_mem="
        + (s.maintenanceWorkMemBytes() >> 20)
        + " MiB, max_parallel_maintenance_workers="
        + s.parallelMaintenanceWorkers()
        + ", fsync=off, synchronous_commit=off, full_page_writes=off, defaults otherwise;"
        + " load: COPY FROM STDIN (FORMAT csv, HEADER) + VACUUM (FREEZE, ANALYZE);"
        + " CPU figures count the driver, not the server";
  }

  @Override
  void open() throws Exception {
    Files.createDirectories(dir);
    if (cluster == null) {
      cluster = PostgresCluster.start(settingsFor(cacheBytes, threads));
    }
    conn = DriverManager.getConnection(cluster.jdbcUrl());
    version = conn.getMetaData().getDatabaseProductVersion();
    try (Statement s = conn.createStatement()) {
      s.execute("SET enable_seqscan = off");
    }
  }

  /**
   * A checkpoint. The builds WAL-log their pages (wal_level is the default, replica) and so start
   * checkpoints; presumably one still under way when the builds return went on under the run that
   * followed: in five SF 1 pairs idxkit's command took a median 7.06 s after PostgreSQL's builds
   * against 5.72 s before they started, and 5.77 s against 5.87 s with this checkpoint first (one
   * run each, JDK 17).
   */
  @Override
  void settle() throws SQLException {
    try (Statement s = conn.createStatement()) {
      s.execute("CHECKPOINT");
    }
  }

  /** A new connection; the server (and its buffer cache) stays up. */
  @Override
  void reopen() throws Exception {
    super.close();
    open();
  }

  @Override
  long load(Path csv, TableDef table) throws Exception {
    try (Statement s = conn.createStatement()) {
      s.execute(Lineitem.createTableSql(table));
    }
    long rows;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(csv), 1 << 20)) {
      rows =
          conn.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql(table.name()), in, 1 << 20);
    }
    try (Statement s = conn.createStatement()) {
      s.execute("VACUUM (FREEZE, ANALYZE) " + table.name());
    }
    return rows;
  }

  static String copySql(String table) {
    return "COPY " + table + " FROM STDIN (FORMAT csv, HEADER true)";
  }

  @Override
  public void close() throws SQLException {
    try {
      super.close();
    } finally {
      if (cluster != null) {
        cluster.close();
        cluster = null;
      }
    }
  }
}
