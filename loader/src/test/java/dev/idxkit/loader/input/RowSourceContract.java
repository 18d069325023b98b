package dev.idxkit.loader.input;

import static dev.idxkit.loader.input.InputTesting.assertSameRecords;
import static dev.idxkit.loader.input.InputTesting.readAll;
import static dev.idxkit.loader.input.InputTesting.readParallel;
import static dev.idxkit.loader.input.InputTesting.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What every {@link RowSource} promises, checked on an input of the subclass's choosing (which
 * should hold many chunks, and rejects where the format has them):
 *
 * <ul>
 *   <li>chunks chain: each starts where the previous batch ended; positions only grow;
 *   <li>parsing the chunks in parallel gives exactly the sequential records, in order;
 *   <li>opening at any record's resume point yields exactly the records after it - rows and
 *       rejects, values, line numbers and resume points - so a resumed load neither loses nor
 *       repeats a row.
 * </ul>
 */
abstract class RowSourceContract {
  /** Opens the input under test at {@code from}, or at its start if null; same input each time. */
  abstract RowSource open(ResumePoint from);

  /** The least number of chunks the input should cut into, so chunking is really exercised. */
  int minChunks() {
    return 3;
  }

  @Test
  void chunksChainAndPositionsGrow() {
    List<InputRecord> all = new ArrayList<>();
    int chunks = 0;
    try (RowSource source = open(null)) {
      ResumePoint previousEnd = null;
      Chunk chunk;
      while ((chunk = source.nextChunk()) != null) {
        assertThat(chunk.index()).isEqualTo(chunks);
        if (previousEnd != null) {
          assertThat(chunk.start()).as("chunk %d start", chunks).isEqualTo(previousEnd);
        }
        Batch batch = chunk.parse();
        assertThat(batch.chunkIndex()).isEqualTo(chunk.index());
        assertThat(batch.rows() + batch.rejects()).isEqualTo(batch.records().size());
        if (!batch.records().isEmpty()) {
          InputRecord last = batch.records().get(batch.records().size() - 1);
          // Not always equal: empty lines after the last record belong to the chunk too.
          assertThat(batch.end().offset()).isGreaterThanOrEqualTo(last.resumePoint().offset());
        }
        previousEnd = batch.end();
        all.addAll(batch.records());
        chunks++;
      }
    }
    assertThat(chunks).isGreaterThanOrEqualTo(minChunks());
    for (int i = 1; i < all.size(); i++) {
      InputRecord a = all.get(i - 1);
      InputRecord b = all.get(i);
      assertThat(b.line()).as("line after %s", text(a)).isGreaterThan(a.line());
      assertThat(b.line()).as("line of %s", text(b)).isGreaterThanOrEqualTo(a.resumePoint().line());
      assertThat(b.resumePoint().offset()).isGreaterThan(a.resumePoint().offset());
    }
  }

  @Test
  void parallelParsingGivesTheSequentialRecords() {
    List<InputRecord> sequential = readAll(open(null));
    assertThat(sequential).isNotEmpty();
    assertSameRecords(readParallel(open(null), 3), sequential, "parallel");
  }

  @Test
  void resumingAtEveryKthRecordYieldsExactlyTheRest() {
    List<InputRecord> all = readAll(open(null));
    long seed = Seeds.seed();
    SplittableRandom random = Seeds.random(seed);
    int k = Math.max(1, all.size() / 25);
    int resumes = 0;
    for (int i = random.nextInt(k); i < all.size(); i += k) {
      ResumePoint at = all.get(i).resumePoint();
      assertSameRecords(
          readAll(open(at)),
          all.subList(i + 1, all.size()),
          "resume after record " + i + " at " + at + "; " + Seeds.reproduce(seed, getClass()));
      resumes++;
    }
    assertThat(resumes).isGreaterThanOrEqualTo(Math.min(all.size(), 20));
    // And the resume point of the last record is the end: nothing more.
    assertThat(readAll(open(all.get(all.size() - 1).resumePoint()))).isEmpty();
  }
}
