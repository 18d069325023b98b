package dev.idxkit.jmh.peers;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.schema.TableDef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * H2 (SQL, embedded, MVStore engine) as a SQL peer. Load: {@code CREATE TABLE lineitem (...) AS
 * SELECT * FROM CSVREAD(...)}, the import H2's documentation recommends (one statement, no undo of
 * a prior table). Settings: {@code CACHE_SIZE} = the budget; otherwise H2's defaults (commits
 * written by the MVStore in the background within {@code WRITE_DELAY}, no fsync per commit). H2
 * builds an index on one thread whatever {@code threads} says.
 */
final class H2Peer extends SqlPeer {
  H2Peer(Path dir, long cacheBytes, int threads) {
    super(dir, cacheBytes, threads);
  }

  @Override
  String name() {
    return "h2";
  }

  @Override
  String settings() {
    return "H2 "
        + org.h2.engine.Constants.VERSION
        + " embedded (MVStore), CACHE_SIZE="
        + (cacheBytes >> 20)
        + " MiB, defaults otherwise (background writes within WRITE_DELAY, no fsync per commit),"
        + " CREATE INDEX on one thread; load: CREATE TABLE ... AS SELECT * FROM CSVREAD";
  }

  @Override
  void open() throws Exception {
    Files.createDirectories(dir);
    conn =
        DriverManager.getConnection(
            "jdbc:h2:file:"
                + dir.toAbsolutePath().resolve("lineitem")
                + ";CACHE_SIZE="
                + (cacheBytes >> 10),
            "sa",
            "");
  }

  @Override
  long load(Path csv, TableDef table) throws Exception {
    String file = csv.toAbsolutePath().toString().replace("'", "''");
    try (Statement s = conn.createStatement()) {
      s.execute(
          Lineitem.createTableSql(table)
              + " AS SELECT * FROM CSVREAD('"
              + file
              + "', NULL, 'charset=UTF-8')");
    }
    return rowCount(table.name());
  }

  @Override
  String countSql(IndexInfo ix) {
    return "SELECT count(*) FROM "
        + ix.table().name()
        + " USE INDEX ("
        + ix.name()
        + ") WHERE "
        + keyPredicate(ix);
  }

  @Override
  void bind(PreparedStatement ps, int position, Object value) throws SQLException {
    ps.setObject(position, value);
  }
}
