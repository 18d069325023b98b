package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Database;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.loader.IndexMode;
import dev.idxkit.loader.RebuildIndexBuild;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cross-check of the lineitem experiments fails on a store that differs in one row. */
class CrossCheckTest {
  static final double SF = 0.001;

  @TempDir Path dir;

  RebuildIndexBuild build() {
    return new RebuildIndexBuild(
        RebuildOptions.defaults(SrtFile.ofDirectory(dir)).withMemory(16L << 20), "test");
  }

  @Test
  void aMovedRowIsFoundThroughTheIndexesItLeft() throws Exception {
    long rows = Lineitem.rows(SF);
    try (Database a = Lineitem.create(dir.resolve("a"));
        Database b = Lineitem.create(dir.resolve("b"))) {
      Lineitem.generate(a, SF, IndexMode.DEFERRED, build());
      Lineitem.generate(b, SF, IndexMode.DEFERRED, build());
      Row first;
      try (RowCursor c = b.table(Lineitem.TABLE).scan()) {
        first = c.next();
      }
      List<Object[]> probes = List.<Object[]>of(first.values().clone());
      assertThat(CrossCheck.run(a, Map.of("b", b), List.of(), probes, rows)).isEqualTo(6);

      Object[] moved = first.values().clone();
      int partkey = b.table(Lineitem.TABLE).def().requireColumn("l_partkey");
      moved[partkey] = (Long) moved[partkey] + 1_000_000;
      b.table(Lineitem.TABLE).update(first.rid(), moved);
      long want =
          Lineitem.count(
              a, a.catalog().index("lineitem_partkey_ix"), new Object[] {first.values()[partkey]});
      assertThatThrownBy(() -> CrossCheck.run(a, Map.of("b", b), List.of(), probes, rows))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "b: lineitem_partkey_ix key ["
                  + first.values()[partkey]
                  + "] : "
                  + (want - 1)
                  + " rows (expected: "
                  + want
                  + ")");
    }
  }

  @Test
  void aPeerMissingARowIsCaught() throws Exception {
    long rows = Lineitem.rows(SF);
    try (Database a = Lineitem.create(dir.resolve("a"))) {
      Lineitem.generate(a, SF, IndexMode.DEFERRED, build());
      Path csv = dir.resolve("lineitem.csv");
      Lineitem.exportCsv(a, csv);
      try (SqlPeer p = SqlPeer.of("sqlite", dir.resolve("sqlite"), 4L << 20, 1)) {
        p.loadAndIndex(csv, a.catalog().table(Lineitem.TABLE).def(), Lineitem.indexes(a));
        List<Object[]> probes = Lineitem.sample(a, 5, 1);
        assertThat(CrossCheck.run(a, Map.of(), List.of(p), probes, rows)).isEqualTo(30);
        try (Statement s = p.conn.createStatement()) {
          s.execute("DELETE FROM lineitem WHERE rowid = 1");
        }
        assertThatThrownBy(() -> CrossCheck.run(a, Map.of(), List.of(p), probes, rows))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("sqlite: lineitem has " + (rows - 1) + " rows (expected: " + rows + ")");
      }
    }
  }
}
