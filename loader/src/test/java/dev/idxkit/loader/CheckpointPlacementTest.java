package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.testing.Seeds;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.CsvSource;
import dev.idxkit.loader.input.InputRecord;
import dev.idxkit.loader.input.ResumePoint;
import dev.idxkit.loader.input.RowReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints fall exactly where the options say - after the record that completes {@code
 * checkpointRows} records or {@code checkpointBytes} of input since the last one - whatever the
 * chunking; and a listener sees the phases in order, progress that only grows, and the deferred
 * build's progress.
 */
class CheckpointPlacementTest {
  @TempDir Path tmp;

  /** Where checkpoints must fall, replayed from the source's own records. */
  static List<ResumePoint> expected(List<InputRecord> records, long rows, long bytes, long start) {
    List<ResumePoint> out = new ArrayList<>();
    long sinceRecords = 0;
    long lastOffset = start;
    for (InputRecord r : records) {
      sinceRecords++;
      ResumePoint at = r.resumePoint();
      if (sinceRecords >= rows || at.offset() - lastOffset >= bytes) {
        out.add(at);
        sinceRecords = 0;
        lastOffset = at.offset();
      }
    }
    return out;
  }

  @Test
  void checkpointsFallAfterTheRecordThatCompletesTheInterval() throws IOException {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    String why = Seeds.reproduce(seed, getClass());
    Path csv = tmp.resolve("in.csv");
    RandomLoadInput.write(csv, seed, 2500);
    for (int round = 0; round < 4; round++) {
      try (Database db = Database.create(tmp.resolve("db" + round))) {
        db.execute(RandomLoadInput.DDL);
        List<InputRecord> records = new ArrayList<>();
        try (CsvSource s = CsvSource.open(csv, db.table("t").def(), CsvOptions.defaults())) {
          new RowReader(s).forEachRemaining(records::add);
        }
        long rows = round % 2 == 0 ? 1 + r.nextInt(700) : Long.MAX_VALUE;
        long bytes = round % 2 == 1 || round == 2 ? 1 + r.nextInt(40_000) : Long.MAX_VALUE;
        List<ResumePoint> seen = new ArrayList<>();
        List<LoadPhase> phases = new ArrayList<>();
        List<Long> positions = new ArrayList<>();
        List<String> buildSteps = new ArrayList<>();
        LoadReport report =
            new Loader(
                    db,
                    LoadOptions.of(
                            "t",
                            LoadInput.csv(
                                csv, CsvOptions.defaults().withChunkBytes(64 + r.nextInt(8192))))
                        .withCheckpointRows(rows)
                        .withCheckpointBytes(bytes),
                    new TestIndexBuild())
                .run(
                    new LoadListener() {
                      @Override
                      public void phase(LoadPhase phase) {
                        phases.add(phase);
                      }

                      @Override
                      public void checkpoint(LoadProgress p) {
                        seen.add(p.lastCheckpoint());
                      }

                      @Override
                      public void progress(LoadProgress p) {
                        positions.add(p.position());
                        assertThat(p.size()).isEqualTo(csv.toFile().length());
                        assertThat(p.fraction()).isBetween(0.0, 1.0);
                      }

                      @Override
                      public void indexBuild(String step, long done, long total) {
                        buildSteps.add(step);
                      }
                    });
        assertThat(report.outcome()).isEqualTo(LoadOutcome.COMPLETED);
        assertThat(seen)
            .as("rows %d, bytes %d; %s", rows, bytes, why)
            // Bytes count from the file's start: the header was read too.
            .containsExactlyElementsOf(expected(records, rows, bytes, 0));
        // Every checkpoint, plus the first and the last publish.
        assertThat(report.checkpoints()).isEqualTo(seen.size() + 2);
        assertThat(phases)
            .containsExactly(
                LoadPhase.STARTING, LoadPhase.LOADING, LoadPhase.BUILDING_INDEXES, LoadPhase.DONE);
        assertThat(positions).isSorted().last().isEqualTo(csv.toFile().length());
        assertThat(buildSteps).as("the rebuilder's phases").contains("scan", "build");
        assertThat(report.runPosition()).isEqualTo(csv.toFile().length());
      }
    }
  }
}
