package dev.idxkit.idxbuild.sort;

import static dev.idxkit.idxbuild.sort.TestEntries.assertSameEntries;
import static dev.idxkit.idxbuild.sort.TestEntries.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.testing.Seeds;
import dev.idxkit.idxbuild.sort.TestEntries.Shape;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.idxbuild.temp.TempSpace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link MultiPassMerge} with tiny fan-ins: the runs left merge to the model, the number of merges
 * is the minimum, consumed runs are deleted at once, and no file is left.
 */
class MultiPassMergeTest {
  @TempDir Path tmp;
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());
  private final SplittableRandom rnd = Seeds.random(seed);
  private ExecutorService pool;
  private TempSpace space;

  @BeforeEach
  void setUp() {
    pool = RunReader.newPrefetchExecutor(2);
    space = new TempSpace(SrtFile.ofDirectory(tmp), "mp");
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    space.close();
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
  }

  @ParameterizedTest(name = "fan-in {0}, {1} runs")
  @CsvSource({"2, 2", "2, 9", "3, 3", "3, 4", "3, 11", "3, 12", "5, 23"})
  void reducesToFanInAndMergesToModel(int fanIn, int runCount) {
    List<byte[]> all = new ArrayList<>();
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < runCount; i++) {
      // sizes differ a lot, so smallest-first is visible in the bytes written
      int n = rnd.nextInt(4) == 0 ? rnd.nextInt(8000) : rnd.nextInt(800);
      List<byte[]> in = TestEntries.entries(rnd, n, Shape.RANDOM, Shape.FEW_KEYS);
      all.addAll(in);
      runs.add(RunFileTest.write(space, 0, 8 * 1024, TestEntries.sorted(in)));
    }
    MultiPassMerge merge =
        new MultiPassMerge(space, 0, new MultiPassMerge.Settings(fanIn, 8 * 1024, 1), pool);
    MultiPassMerge.Result r = merge.reduce(runs);

    int expectedMerges = runCount <= fanIn ? 0 : ceilDiv(runCount - fanIn, fanIn - 1);
    assertThat(r.merges()).as(repro).isEqualTo(expectedMerges);
    assertThat(r.runs()).hasSize(Math.min(runCount, fanIn));
    assertThat(r.passes()).isBetween(expectedMerges == 0 ? 0 : 1, expectedMerges);
    if (expectedMerges > 0) {
      assertThat(r.bytesWritten()).isPositive();
    }
    long left = r.runs().stream().mapToLong(Run::entries).sum();
    assertThat(left).isEqualTo(all.size());
    // consumed runs are gone; the files on disk are exactly the runs left
    long consumed = runs.stream().filter(Run::isDeleted).count();
    assertThat(consumed).isEqualTo(runs.stream().filter(x -> !r.runs().contains(x)).count());
    assertThat(space.liveSegments())
        .containsExactlyInAnyOrderElementsOf(
            r.runs().stream().flatMap(x -> x.segments().stream()).toList());

    // the final pass, as the orchestrator will stream it
    List<EntrySource> readers = new ArrayList<>();
    for (Run x : r.runs()) {
      readers.add(RunReader.open(x, pool, 1));
    }
    assertSameEntries(drain(new LoserTree(readers)), TestEntries.sorted(all), repro);
    for (Run x : r.runs()) {
      x.delete();
    }
    assertThat(TestEntries.files(tmp)).as("files left").isEmpty();
  }

  @Test
  void smallestRunsAreMergedFirst() {
    // one big run and many small ones with fan-in 2: the big run is rewritten once, at the end
    List<Run> runs = new ArrayList<>();
    runs.add(RunFileTest.write(space, 0, 8 * 1024, sortedRandom(20_000)));
    for (int i = 0; i < 5; i++) {
      runs.add(RunFileTest.write(space, 0, 8 * 1024, sortedRandom(100)));
    }
    Run big = runs.get(0);
    MultiPassMerge.Result r =
        new MultiPassMerge(space, 0, new MultiPassMerge.Settings(2, 8 * 1024, 0), null)
            .reduce(runs);
    assertThat(r.merges()).isEqualTo(4);
    assertThat(big.isDeleted()).isFalse();
    assertThat(r.runs()).contains(big);
    // Huffman order over the small runs: 100+100, 100+100, 100+200, 200+300 entries written;
    // a chain (100+100, +100, +100, +100) would write 1400 and rewrite the first ones 4 times
    assertThat(r.entriesWritten()).isEqualTo(1200);
    assertThat(r.passes()).isEqualTo(3);
  }

  @Test
  void rejectsBadSettings() {
    assertThatThrownBy(() -> new MultiPassMerge.Settings(1, 8192, 1))
        .hasMessage("fanIn : 1 (expected: >= 2)");
    assertThatThrownBy(() -> new MultiPassMerge.Settings(2, 100, 1))
        .hasMessage("blockSize : 100 (expected: 8192..65536)");
    assertThatThrownBy(() -> new MultiPassMerge.Settings(2, 8192, 65))
        .hasMessage("prefetchBlocks : 65 (expected: 0..64)");
  }

  private List<byte[]> sortedRandom(int n) {
    return TestEntries.sorted(TestEntries.entries(rnd, n, Shape.RANDOM));
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }
}
