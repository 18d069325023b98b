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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link LoserTree} over k random sources (in-memory buffers, run readers and empty sources mixed)
 * against one {@code Arrays.sort} of everything.
 */
class LoserTreeTest {
  @TempDir Path tmp;
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());
  private final SplittableRandom rnd = Seeds.random(seed);
  private ExecutorService pool;
  private TempSpace space;

  @BeforeEach
  void setUp() {
    pool = RunReader.newPrefetchExecutor(2);
    space = new TempSpace(SrtFile.ofDirectory(tmp), "lt");
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    space.close();
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 7, 100, 1000})
  void mergeEqualsModel(int k) {
    List<byte[]> all = new ArrayList<>();
    List<EntrySource> sources = new ArrayList<>();
    List<TrackedSource> tracked = new ArrayList<>();
    int perSource = Math.max(20, 40_000 / k);
    for (int i = 0; i < k; i++) {
      int kind = rnd.nextInt(10);
      int n = kind == 0 ? 0 : rnd.nextInt(2 * perSource);
      List<byte[]> in = TestEntries.entries(rnd, n, Shape.RANDOM, Shape.FEW_KEYS, Shape.DUPLICATES);
      all.addAll(in);
      EntrySource s;
      if (kind < 5) {
        s = TestEntries.buffer(in).source();
      } else {
        Run run = RunFileTest.write(space, i, 8 * 1024, TestEntries.sorted(in));
        s = RunReader.open(run, rnd.nextBoolean() ? pool : null, rnd.nextInt(3));
      }
      TrackedSource t = new TrackedSource(s);
      tracked.add(t);
      sources.add(t);
    }
    LoserTree tree = new LoserTree(sources);
    assertThat(tree.fanIn()).isEqualTo(k);
    assertSameEntries(drain(tree), TestEntries.sorted(all), "k " + k + "; " + repro);
    assertThat(tree.next()).isFalse();
    for (TrackedSource t : tracked) {
      assertThat(t.closes).as("every source closed").isGreaterThan(0);
    }
  }

  @Test
  void emptyMergesEndAtOnce() {
    LoserTree none = new LoserTree(List.of());
    assertThat(none.next()).isFalse();
    assertThatThrownBy(none::array).isInstanceOf(IllegalStateException.class);
    none.close();
    List<EntrySource> empties = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      empties.add(TestEntries.buffer(List.of()).source());
    }
    try (LoserTree t = new LoserTree(empties)) {
      assertThat(t.next()).isFalse();
      assertThat(t.next()).isFalse();
    }
  }

  @Test
  void equalEntriesComeOutInSourceOrder() {
    // The same bytes from every source: the merge is stable, so the owner of each copy is known.
    byte[] e = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    List<EntryBuffer> buffers = new ArrayList<>();
    List<EntrySource> sources = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      EntryBuffer b = TestEntries.buffer(List.of(e, e));
      buffers.add(b);
      sources.add(b.source());
    }
    List<byte[]> arrays = new ArrayList<>();
    try (LoserTree t = new LoserTree(sources)) {
      while (t.next()) {
        arrays.add(t.array());
      }
    }
    assertThat(arrays).hasSize(10);
    // EntryBuffer sources hand out their own backing array: identity shows the source
    for (int i = 0; i < 10; i++) {
      assertThat(arrays.get(i)).isSameAs(arrays.get(i / 2 * 2));
    }
    assertThat(arrays.get(0)).isNotSameAs(arrays.get(2));
  }

  /** Counts closes; closing twice must be harmless. */
  private static final class TrackedSource implements EntrySource {
    private final EntrySource in;
    int closes;

    TrackedSource(EntrySource in) {
      this.in = in;
    }

    @Override
    public boolean next() {
      return in.next();
    }

    @Override
    public byte[] array() {
      return in.array();
    }

    @Override
    public int offset() {
      return in.offset();
    }

    @Override
    public int length() {
      return in.length();
    }

    @Override
    public void close() {
      closes++;
      in.close();
    }
  }
}
