package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.schema.TpchDdl;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.TpchOptions;
import dev.idxkit.loader.input.TpchSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The round trip: the eight TPC-H tables loaded from the generator, exported with {@link
 * CsvExport}, and loaded from those files into a second database give identical tables and indexes
 * - every row with its RID, every index's entries in order (both loads checkpoint at the same row
 * counts, so rows land on the same pages). Both loads use the deferred index build.
 *
 * <p>{@code -Dloader.tpch.sf=0.05} (default 0.01: lineitem 60,175 rows) enlarges it.
 */
class TpchRoundTripTest {
  static final double SF = Double.parseDouble(System.getProperty("loader.tpch.sf", "0.01"));

  @TempDir Path tmp;

  @Test
  void generatorAndCsvLoadsGiveTheSameDatabase() {
    try (Database generated = Database.create(tmp.resolve("generated"));
        Database fromCsv = Database.create(tmp.resolve("csv"))) {
      generated.execute(TpchDdl.text(), TpchDdl.SOURCE);
      fromCsv.execute(TpchDdl.text(), TpchDdl.SOURCE);
      List<String> summaries = new ArrayList<>();
      for (TpchSchema table : TpchSchema.values()) {
        String name = table.tableName();
        LoadReport g =
            new Loader(
                    generated,
                    LoadOptions.of(name, LoadInput.tpch(table, TpchOptions.scale(SF)))
                        .withCheckpointRows(10_000),
                    new TestIndexBuild())
                .run(LoadListener.NONE);
        assertThat(g.outcome()).as(name).isEqualTo(LoadOutcome.COMPLETED);
        assertThat(g.rejected()).as(name).isZero();
        assertThat(g.rowsLoaded()).as(name).isEqualTo(table.rowCount(SF));
        Path csv = tmp.resolve(name + ".csv");
        assertThat(CsvExport.write(generated, name, csv, CsvOptions.defaults()))
            .isEqualTo(g.rowsLoaded());
        LoadReport c =
            new Loader(
                    fromCsv,
                    LoadOptions.of(name, LoadInput.csv(csv, CsvOptions.defaults()))
                        .withCheckpointRows(10_000),
                    new TestIndexBuild())
                .run(LoadListener.NONE);
        assertThat(c.outcome()).as(name).isEqualTo(LoadOutcome.COMPLETED);
        assertThat(c.rowsLoaded()).as(name).isEqualTo(g.rowsLoaded());
        summaries.add(String.join("\n  ", c.summaryLines()));
      }
      LoadTesting.assertSameDatabase(fromCsv, generated, true);
      for (var ix : generated.catalog().indexes()) {
        assertThat(generated.index(ix.name()).isActive()).as(ix.name()).isTrue();
      }
      LoadTesting.assertClean(generated, "generated");
      LoadTesting.assertClean(fromCsv, "from CSV");
      System.out.println("TPC-H sf " + SF + " from CSV:\n  " + String.join("\n  ", summaries));
    }
  }
}
