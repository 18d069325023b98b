package dev.idxkit.jmh.peers;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.schema.TableDef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;

/**
 * SQLite (sqlite-jdbc) as a SQL peer. The settings are SQLite's fastest for a bulk load into a new
 * file, which favour it over idxkit (whose load publishes fsynced checkpoints and stays crash-safe
 * throughout): {@code journal_mode=OFF}, {@code synchronous=OFF} (no fsync at all), {@code
 * locking_mode=EXCLUSIVE}, {@code cache_size} = the budget, {@code threads} = the sorter's helper
 * threads for {@code CREATE INDEX}, temp files in the peer's directory.
 *
 * <p>Load: the CSV is read with FastCSV (a fast Java CSV reader) and inserted through one prepared
 * statement in transactions of {@value #ROWS_PER_TRANSACTION} rows, fields bound as text; SQLite's
 * column affinity converts them (integers to INTEGER, decimals to REAL, dates stay ISO text), as
 * the sqlite3 shell's {@code .import} does.
 */
final class SqlitePeer extends SqlPeer {
  static final int ROWS_PER_TRANSACTION = 100_000;

  private int effectiveThreads = -1;

  SqlitePeer(Path dir, long cacheBytes, int threads) {
    super(dir, cacheBytes, threads);
  }

  @Override
  String name() {
    return "sqlite";
  }

  @Override
  String settings() {
    return "sqlite-jdbc (SQLite "
        + version()
        + "), journal_mode=OFF, synchronous=OFF (no fsync), locking_mode=EXCLUSIVE, cache_size="
        + (cacheBytes >> 20)
        + " MiB, PRAGMA threads="
        + threads
        + (effectiveThreads >= 0 ? " (SQLite reports " + effectiveThreads + ")" : "")
        + ", temp files in its directory; load: FastCSV, prepared INSERT, "
        + ROWS_PER_TRANSACTION
        + " rows per transaction, values bound as text";
  }

  private String version() {
    try {
      return conn == null ? "?" : conn.getMetaData().getDatabaseProductVersion();
    } catch (SQLException e) {
      return "?";
    }
  }

  @Override
  void open() throws Exception {
    Files.createDirectories(dir);
    conn = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("lineitem.sqlite"));
    try (Statement s = conn.createStatement()) {
      s.execute("PRAGMA journal_mode=OFF");
      s.execute("PRAGMA synchronous=OFF");
      s.execute("PRAGMA locking_mode=EXCLUSIVE");
      s.execute("PRAGMA cache_size=-" + (cacheBytes >> 10));
      s.execute("PRAGMA temp_store_directory='" + dir.toAbsolutePath() + "'");
      try (ResultSet rs = s.executeQuery("PRAGMA threads=" + threads)) {
        effectiveThreads = rs.next() ? rs.getInt(1) : -1;
      }
    }
  }

  @Override
  long load(Path csv, TableDef table) throws Exception {
    int n = table.columns().size();
    try (Statement s = conn.createStatement()) {
      s.execute(Lineitem.createTableSql(table));
    }
    StringBuilder sql = new StringBuilder("INSERT INTO " + table.name() + " VALUES (");
    for (int i = 0; i < n; i++) {
      sql.append(i == 0 ? "?" : ", ?");
    }
    sql.append(')');
    conn.setAutoCommit(false);
    long rows = 0;
    try (PreparedStatement ins = conn.prepareStatement(sql.toString());
        CsvReader<CsvRecord> reader = CsvReader.builder().ofCsvRecord(csv)) {
      boolean header = true;
      for (CsvRecord r : reader) {
        if (header) {
          header = false;
          continue;
        }
        if (r.getFieldCount() != n) {
          throw new IllegalStateException(
              csv
                  + ":"
                  + r.getStartingLineNumber()
                  + ": "
                  + r.getFieldCount()
                  + " fields (expected: "
                  + n
                  + ")");
        }
        for (int i = 0; i < n; i++) {
          ins.setString(i + 1, r.getField(i));
        }
        ins.addBatch();
        if (++rows % ROWS_PER_TRANSACTION == 0) {
          ins.executeBatch();
          conn.commit();
        }
      }
      ins.executeBatch();
      conn.commit();
    } finally {
      conn.setAutoCommit(true);
    }
    return rows;
  }

  @Override
  String countSql(IndexInfo ix) {
    return "SELECT count(*) FROM "
        + ix.table().name()
        + " INDEXED BY "
        + ix.name()
        + " WHERE "
        + keyPredicate(ix);
  }

  @Override
  void bind(PreparedStatement ps, int position, Object value) throws SQLException {
    if (value instanceof Long l) {
      ps.setLong(position, l);
    } else if (value instanceof Integer i) {
      ps.setInt(position, i);
    } else if (value instanceof LocalDate d) {
      // Loaded from the CSV as ISO text (DATE has NUMERIC affinity, which keeps such text).
      ps.setString(position, d.toString());
    } else {
      ps.setString(position, String.valueOf(value));
    }
  }
}
