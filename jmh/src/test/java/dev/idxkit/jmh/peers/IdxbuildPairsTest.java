package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.loader.IndexMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --pairs}: a peer's six index builds and the command line timed in turn, on 6,000 rows,
 * with SQLite standing in for PostgreSQL (the pairing does not depend on the peer; the benchmark
 * pairs PostgreSQL only). Needs the packaged command line, as the benchmark does ({@code cli} is
 * packaged before this module in the build).
 */
class IdxbuildPairsTest {
  @TempDir Path dir;

  @Test
  void eachPairRebuildsBothSidesAndTheRatioIsTakenPairByPair() throws Exception {
    Path home = IdxbuildCli.home();
    assumeTrue(home != null, "cli/target/idxkit.jar is not built");
    Path dbDir = dir.resolve("idxkit");
    Path csv = dir.resolve("lineitem.csv");
    List<IndexInfo> indexes;
    long rows;
    try (Database db = Lineitem.create(dbDir)) {
      rows = Lineitem.generate(db, 0.001, IndexMode.NONE, null).runRows();
      Lineitem.exportCsv(db, csv);
      indexes = Lineitem.indexes(db);
    }
    Machine machine = Machine.describe();
    ResultSheet sheet = new ResultSheet("idxbuild", machine);
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
    List<String> names = indexes.stream().map(IndexInfo::name).toList();
    try (SqlPeer peer = SqlPeer.of("sqlite", dir.resolve("sqlite"), 64L << 20, 1)) {
      try (Database db = Database.open(dbDir)) {
        peer.loadAndIndex(csv, db.catalog().table(Lineitem.TABLE).def(), indexes);
      }
      IdxbuildPairs.Result r =
          IdxbuildPairs.run(
              3,
              peer,
              names,
              Lineitem.createIndexSql(indexes),
              new IdxbuildPairs.Cli(
                  home,
                  IdxbuildCli.Archive.none("test"),
                  dbDir,
                  IdxkitRebuilds.srtFile(dir).file(),
                  64L << 20,
                  2,
                  rows,
                  dir),
              machine,
              sheet,
              out);

      assertThat(java.util.Arrays.stream(r.peerSeconds()).boxed().toList())
          .hasSize(3)
          .allSatisfy(v -> assertThat(v).isPositive());
      assertThat(java.util.Arrays.stream(r.cliSeconds()).boxed().toList())
          .hasSize(3)
          .allSatisfy(v -> assertThat(v).isPositive());
      double[] ratios = r.ratios();
      for (int i = 0; i < 3; i++) {
        assertThat(ratios[i]).isEqualTo(r.peerSeconds()[i] / r.cliSeconds()[i]);
      }
      double[] sorted = ratios.clone();
      java.util.Arrays.sort(sorted);
      assertThat(sheet.value("sqlite", "pairs", "ratio")).isEqualTo(sorted[1]);
      assertThat(sheet.value("sqlite", "pairs", "ratio min")).isEqualTo(sorted[0]);
      assertThat(sheet.value("sqlite", "pairs", "ratio max")).isEqualTo(sorted[2]);
      assertThat(sheet.value("sqlite", "pairs", "count")).isEqualTo(3);
      // The peer's indexes were dropped and built again: all six are there, over every row.
      List<String> built = new java.util.ArrayList<>();
      try (java.sql.Statement st = peer.conn.createStatement();
          java.sql.ResultSet rs =
              st.executeQuery(
                  "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '"
                      + Lineitem.TABLE
                      + "'")) {
        while (rs.next()) {
          built.add(rs.getString(1));
        }
      }
      assertThat(built).containsExactlyInAnyOrderElementsOf(names);
      assertThat(peer.rowCount(Lineitem.TABLE)).isEqualTo(rows);
    }
    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(text)
        .contains("pair 1: sqlite six CREATE INDEX", "pair 3: sqlite six CREATE INDEX")
        .contains("3 pairs in turn, sqlite six CREATE INDEX / idxkit idxbuild (new JVM): min");
    try (Database db = Database.open(dbDir)) {
      assertThat(
              db.check(
                      new dev.idxkit.core.DatabaseCheck.Options(
                          java.util.Set.of(Lineitem.TABLE), java.util.Set.of(), 10))
                  .clean())
          .as("the database after the command line's rebuilds")
          .isTrue();
    }
  }
}
