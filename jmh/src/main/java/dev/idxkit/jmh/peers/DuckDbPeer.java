package dev.idxkit.jmh.peers;

import dev.idxkit.core.schema.TableDef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;

/**
 * DuckDB (duckdb_jdbc, embedded, a database file in the peer's directory) as a SQL peer. Settings:
 * {@code threads} = the peer threads, {@code memory_limit} = the peer budget, temp files in its
 * directory. Load: {@code COPY lineitem FROM 'file' (HEADER)}, DuckDB's parallel CSV reader. The
 * six indexes are ART indexes ({@code CREATE [UNIQUE] INDEX}); DuckDB holds the whole table in
 * columns, so they are its only row-order structures.
 */
final class DuckDbPeer extends SqlPeer {
  DuckDbPeer(Path dir, long cacheBytes, int threads) {
    super(dir, cacheBytes, threads);
  }

  @Override
  String name() {
    return "duckdb";
  }

  @Override
  String settings() {
    return "DuckDB "
        + version()
        + " (duckdb_jdbc, a database file), "
        + String.join(", ", settingsSql(cacheBytes, threads, dir))
        + "; load: COPY FROM file (HEADER); ART indexes";
  }

  private String version() {
    try {
      return conn == null ? "?" : conn.getMetaData().getDatabaseProductVersion();
    } catch (SQLException e) {
      return "?";
    }
  }

  /** The {@code SET} statements run on every connection. */
  static List<String> settingsSql(long cacheBytes, int threads, Path dir) {
    return List.of(
        "SET threads = " + Math.max(1, threads),
        "SET memory_limit = '" + Math.max(64, cacheBytes >> 20) + "MiB'",
        "SET temp_directory = " + quote(dir.toAbsolutePath().resolve("tmp").toString()));
  }

  @Override
  void open() throws Exception {
    Files.createDirectories(dir);
    try {
      Class.forName("org.duckdb.DuckDBDriver");
      conn =
          DriverManager.getConnection(
              "jdbc:duckdb:" + dir.toAbsolutePath().resolve("lineitem.duckdb"));
    } catch (ClassNotFoundException | SQLException | UnsatisfiedLinkError e) {
      throw new PeerUnavailableException("duckdb: not run: " + e.getMessage(), e);
    }
    try (Statement s = conn.createStatement()) {
      for (String sql : settingsSql(cacheBytes, threads, dir)) {
        s.execute(sql);
      }
    }
  }

  @Override
  long load(Path csv, TableDef table) throws Exception {
    try (Statement s = conn.createStatement()) {
      s.execute(Lineitem.createTableSql(table));
      s.execute(copySql(table.name(), csv));
    }
    return rowCount(table.name());
  }

  static String copySql(String table, Path csv) {
    return "COPY " + table + " FROM " + quote(csv.toAbsolutePath().toString()) + " (HEADER)";
  }

  /** A SQL string literal. */
  static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  @Override
  void bind(PreparedStatement ps, int position, Object value) throws SQLException {
    if (value instanceof LocalDate d) {
      ps.setDate(position, Date.valueOf(d));
    } else {
      ps.setObject(position, value);
    }
  }
}
