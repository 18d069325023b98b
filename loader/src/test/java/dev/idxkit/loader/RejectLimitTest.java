package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.Row;
import dev.idxkit.core.testing.Seeds;
import dev.idxkit.loader.input.Chunk;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.CsvSource;
import dev.idxkit.loader.input.InputRecord;
import dev.idxkit.loader.input.InputRow;
import dev.idxkit.loader.input.RejectedRow;
import dev.idxkit.loader.input.RowReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code maxErrors}: the load stops at the reject that makes one too many, the table holds exactly
 * the rows of the last checkpoint before it, and a resume with no limit completes the load with
 * every reject written once. The expected rows come from reading the same file through the source
 * (tested on its own): with checkpoints every C records and the (M+1)-th reject at record k, the
 * last checkpoint covers the first {@code C * floor((k-1)/C)} records - in live mode, which also
 * commits at the end of every chunk, the last chunk end before k if that is later. The stopped load
 * leaves every index active (deferred: the kept rows are indexed at the stop).
 */
class RejectLimitTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(IndexMode.class)
  void tooManyRejectsStopAtTheLastCheckpoint(IndexMode mode) throws IOException {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    String why = Seeds.reproduce(seed, getClass());
    Path csv = tmp.resolve("in.csv");
    RandomLoadInput.write(csv, seed, 3000);
    Path rejects = tmp.resolve("rejects.txt");
    int checkpointRows = 20 + r.nextInt(300);
    CsvOptions csvOptions = CsvOptions.defaults().withChunkBytes(2048);
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(RandomLoadInput.DDL);
      List<InputRecord> records = new ArrayList<>();
      try (CsvSource source = CsvSource.open(csv, db.table("t").def(), CsvOptions.defaults())) {
        new RowReader(source).forEachRemaining(records::add);
      }
      long totalRejects = records.stream().filter(x -> x instanceof RejectedRow).count();
      int maxErrors = r.nextInt((int) totalRejects - 1);
      int k = 0; // 1-based record of the (maxErrors+1)-th reject
      for (int seen = 0; seen <= maxErrors; ) {
        if (records.get(k++) instanceof RejectedRow) {
          seen++;
        }
      }
      int kept = checkpointRows * ((k - 1) / checkpointRows);
      if (mode == IndexMode.LIVE) {
        // Live mode also commits (with its resume point) at the end of every batch: one chunk.
        try (CsvSource source = CsvSource.open(csv, db.table("t").def(), csvOptions)) {
          int end = 0;
          for (Chunk c = source.nextChunk(); c != null; c = source.nextChunk()) {
            end += c.parse().records().size();
            if (end <= k - 1) {
              kept = Math.max(kept, end);
            }
          }
        }
      }
      List<Object> expectedIds = new ArrayList<>();
      for (InputRecord x : records.subList(0, kept)) {
        if (x instanceof InputRow row) {
          expectedIds.add(row.values()[0]);
        }
      }
      LoadOptions options =
          LoadOptions.of("t", LoadInput.csv(csv, csvOptions))
              .withIndexMode(mode)
              .withCheckpointRows(checkpointRows)
              .withMaxErrors(maxErrors)
              .withRejectFile(rejects);
      LoadReport stopped = new Loader(db, options, new TestIndexBuild()).run(LoadListener.NONE);
      assertThat(stopped.outcome()).as(why).isEqualTo(LoadOutcome.TOO_MANY_ERRORS);
      assertThat(stopped.outcome().exitCode()).isEqualTo(1);
      assertThat(stopped.rejected()).as(why).isEqualTo(maxErrors + 1);
      assertThat(stopped.recordsRead()).as(why).isEqualTo(k);
      assertThat(stopped.rowsLoaded()).as(why).isEqualTo(expectedIds.size());
      List<Object> ids = LoadTesting.rows(db.table("t")).stream().map(x -> x.values()[0]).toList();
      assertThat(ids).as(why).containsExactlyInAnyOrderElementsOf(expectedIds);
      assertThat(LoadTesting.rejectLines(rejects)).as(why).hasSize(maxErrors + 1);
      assertThat(String.join("\n", stopped.summaryLines()))
          .contains("more than --max-errors " + maxErrors, "--resume");
      if (mode != IndexMode.NONE) {
        // A stopped load leaves no index inactive: the deferred mode indexes the rows it keeps.
        assertThat(stopped.indexes().values()).as(why).containsOnly(IndexStatus.ACTIVE);
        for (String ix : stopped.indexes().keySet()) {
          assertThat(LoadTesting.rows(db.index(ix))).as(why).hasSize(expectedIds.size());
        }
      }
      assertThat(db.check().problems()).as(why).isEmpty();

      LoadReport done =
          new Loader(
                  db,
                  options.withStartMode(StartMode.RESUME).withMaxErrors(-1),
                  new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(done.outcome()).as(why).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(done.rejected()).as(why).isEqualTo(totalRejects);
      List<Object> all = new ArrayList<>();
      List<Long> rejectLines = new ArrayList<>();
      for (InputRecord x : records) {
        if (x instanceof InputRow row) {
          all.add(row.values()[0]);
        } else {
          rejectLines.add(x.line());
        }
      }
      List<Row> rows = LoadTesting.rows(db.table("t"));
      assertThat(rows.stream().map(x -> x.values()[0]).toList())
          .as(why)
          .containsExactlyInAnyOrderElementsOf(all);
      assertThat(
              LoadTesting.rejectLines(rejects).stream()
                  .map(
                      l ->
                          Long.parseLong(l.substring(csv.toString().length() + 1, l.indexOf(": "))))
                  .toList())
          .as(why)
          .containsExactlyElementsOf(rejectLines);
      assertThat(db.check().problems()).as(why).isEmpty();
    }
  }
}
