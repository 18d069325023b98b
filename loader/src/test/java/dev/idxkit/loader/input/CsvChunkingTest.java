package dev.idxkit.loader.input;

import static dev.idxkit.loader.input.InputTesting.assertSameRecords;
import static dev.idxkit.loader.input.InputTesting.readAll;
import static dev.idxkit.loader.input.InputTesting.readParallel;
import static dev.idxkit.loader.input.InputTesting.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 100,000 random rows with awkward fields ({@link RandomCsv}) read as one chunk equal the model the
 * generator kept, and read in small chunks - sequentially and on three threads - equal that
 * single-chunk read exactly: rows, rejects, line numbers and resume points.
 */
class CsvChunkingTest {
  @TempDir Path dir;

  @Test
  void chunkedAndParallelReadsEqualTheSequentialReadAndTheModel() {
    long seed = Seeds.seed();
    String reproduce = Seeds.reproduce(seed, getClass());
    RandomCsv csv = new RandomCsv(seed, 100_000);
    Path file = csv.writeTo(dir);

    CsvOptions whole = CsvOptions.defaults().withChunkBytes(csv.bytes.length + 16);
    List<InputRecord> sequential = readAll(CsvSource.open(file, RandomCsv.TABLE, whole));
    assertThat(sequential).as(reproduce).hasSize(csv.expected.size());
    for (int i = 0; i < sequential.size(); i++) {
      RandomCsv.Expected e = csv.expected.get(i);
      InputRecord r = sequential.get(i);
      assertThat(r.line()).as("record %d; %s", i, reproduce).isEqualTo(e.line());
      if (e.badColumn() != null) {
        assertThat(r).as("record %d; %s", i, reproduce).isInstanceOf(RejectedRow.class);
        assertThat(((RejectedRow) r).column()).isEqualTo(e.badColumn());
        assertThat(((RejectedRow) r).rawValue()).isEqualTo("x1");
      } else {
        assertThat(r).as("record %d: %s; %s", i, r, reproduce).isInstanceOf(InputRow.class);
        assertThat(values(((InputRow) r).values()))
            .as("record %d; %s", i, reproduce)
            .isEqualTo(values(e.values()));
      }
    }

    SplittableRandom random = Seeds.random(seed);
    int odd = 300 + random.nextInt(1000); // about 10,000 chunks
    CsvOptions small = CsvOptions.defaults().withChunkBytes(odd);
    assertSameRecords(
        readAll(CsvSource.open(file, RandomCsv.TABLE, small)),
        sequential,
        "chunkBytes " + odd + "; " + reproduce);
    CsvOptions parallel = CsvOptions.defaults().withChunkBytes(4096);
    assertSameRecords(
        readParallel(CsvSource.open(file, RandomCsv.TABLE, parallel), 3),
        sequential,
        "parallel, chunkBytes 4096; " + reproduce);
  }
}
