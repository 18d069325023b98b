package dev.idxkit.idxbuild.sort;

import static dev.idxkit.idxbuild.sort.TestEntries.assertSameEntries;
import static dev.idxkit.idxbuild.sort.TestEntries.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idxkit.core.testing.Seeds;
import dev.idxkit.idxbuild.sort.TestEntries.Shape;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.idxbuild.temp.TempSpace;
import dev.idxkit.idxbuild.temp.TempSpaceExhaustedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
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
 * {@link RunWriter} and {@link RunReader}: round trips at both ends of {@code -TB}, range opening,
 * runs across segments, every flipped bit and truncation reported as {@link CorruptRunException}
 * with file and block offset, and no thread or file handle left behind.
 */
class RunFileTest {
  @TempDir Path tmp;
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());
  private final SplittableRandom rnd = Seeds.random(seed);
  private ExecutorService pool;
  private TempSpace space;

  @BeforeEach
  void setUp() {
    pool = RunReader.newPrefetchExecutor(2);
    space = new TempSpace(SrtFile.ofDirectory(tmp), "test");
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    space.close();
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    assertThat(TestEntries.files(tmp)).as("files left after close").isEmpty();
  }

  @ParameterizedTest
  @ValueSource(ints = {8 * 1024, 64 * 1024})
  void roundTrip(int blockSize) {
    List<byte[]> in =
        TestEntries.entries(rnd, 30_000, Shape.RANDOM, Shape.FEW_KEYS, Shape.DUPLICATES);
    in.addAll(TestEntries.entries(rnd, 200, Shape.LONG));
    // entries larger than a block get a block of their own
    in.add(TestEntries.bytes(rnd, 20_000));
    in.add(TestEntries.bytes(rnd, 70_000));
    List<byte[]> model = TestEntries.sorted(in);
    Run run = write(space, 3, blockSize, model);

    assertThat(run.entries()).isEqualTo(model.size());
    assertThat(run.entryBytes()).isEqualTo(model.stream().mapToLong(e -> e.length).sum());
    assertThat(run.blocks()).isGreaterThan(1);
    assertThat(run.group()).isEqualTo(3);
    long onDisk = run.segments().stream().mapToLong(s -> sizeOf(s.path())).sum();
    assertThat(run.diskBytes()).isEqualTo(onDisk);
    for (int b = 0; b < run.blocks(); b++) {
      assertThat(run.blockFirstEntry(b)).isEqualTo(model.get((int) run.entriesBefore(b)));
    }
    assertThat(run.entriesBefore(run.blocks())).isEqualTo(model.size());

    assertSameEntries(drain(RunReader.open(run, null, 0)), model, "no prefetch; " + repro);
    assertSameEntries(drain(RunReader.open(run, pool, 3)), model, "prefetch 3; " + repro);
    run.delete();
    assertThat(TestEntries.files(tmp)).isEmpty();
    assertThatThrownBy(() -> RunReader.open(run, pool, 1))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void rangeOpeningMatchesModel() {
    List<byte[]> in = TestEntries.entries(rnd, 20_000, Shape.RANDOM, Shape.DUPLICATES);
    List<byte[]> model = TestEntries.sorted(in);
    Run run = write(space, 0, 8 * 1024, model);
    for (int i = 0; i < 300; i++) {
      byte[] from = rnd.nextInt(6) == 0 ? null : EntryBufferTest.bound(rnd, model);
      byte[] to = rnd.nextInt(6) == 0 ? null : EntryBufferTest.bound(rnd, model);
      List<byte[]> expected = new ArrayList<>();
      for (byte[] e : model) {
        if ((from == null || Arrays.compareUnsigned(e, from) >= 0)
            && (to == null || Arrays.compareUnsigned(e, to) < 0)) {
          expected.add(e);
        }
      }
      assertSameEntries(
          drain(RunReader.open(run, rnd.nextBoolean() ? pool : null, rnd.nextInt(3), from, to)),
          expected,
          "range " + i + "; " + repro);
    }
  }

  @Test
  void runRollsOverAcrossDirectoriesAndReadsBack() throws IOException {
    List<Path> dirs = new ArrayList<>();
    StringBuilder srt = new StringBuilder();
    for (String d : List.of("d0", "d1", "d2")) {
      Path p = Files.createDirectory(tmp.resolve(d));
      dirs.add(p);
      srt.append("64 ").append(p).append('\n');
    }
    Path f = Files.writeString(tmp.resolve("x.srt"), srt.toString());
    // about 160 KB of random entries: more than two 64 KB directories, less than three
    List<byte[]> model = TestEntries.sorted(TestEntries.entries(rnd, 5_000, Shape.RANDOM));
    try (TempSpace limited = new TempSpace(SrtFile.parse(f), "roll")) {
      Run run = write(limited, 2, 8 * 1024, model);
      assertThat(run.segments()).hasSizeGreaterThanOrEqualTo(3);
      assertThat(run.segments().stream().map(s -> s.path().getParent()).distinct())
          .containsExactlyInAnyOrderElementsOf(dirs);
      assertSameEntries(drain(RunReader.open(run, pool, 2)), model, repro);
      run.delete();
      for (Path d : dirs) {
        assertThat(TestEntries.files(d)).isEmpty();
        Files.delete(d);
      }
    }
    Files.delete(f);
  }

  @Test
  void exhaustedSortSpaceFailsTheRunAndLeavesNoFile() throws IOException {
    Path d0 = Files.createDirectory(tmp.resolve("small0"));
    Path d1 = Files.createDirectory(tmp.resolve("small1"));
    Path f = Files.writeString(tmp.resolve("small.srt"), "40 " + d0 + "\n40 " + d1 + "\n");
    List<byte[]> model = TestEntries.sorted(TestEntries.entries(rnd, 10_000, Shape.RANDOM));
    try (TempSpace small = new TempSpace(SrtFile.parse(f), "full")) {
      RunWriter w = new RunWriter(small, 0, 8 * 1024);
      assertThatThrownBy(
              () -> {
                for (byte[] e : model) {
                  w.add(e);
                }
              })
          .isInstanceOf(TempSpaceExhaustedException.class)
          .hasMessageContaining(d0 + " limit 40 KB")
          .hasMessageContaining(d1 + " limit 40 KB");
      assertThat(TestEntries.files(d0)).isNotEmpty();
      w.close(); // the failed run deletes what it wrote
      assertThat(TestEntries.files(d0)).isEmpty();
      assertThat(TestEntries.files(d1)).isEmpty();
      assertThat(small.currentBytes()).isZero();
    }
    Files.delete(d0);
    Files.delete(d1);
    Files.delete(f);
  }

  @Test
  void emptyRunHasNoFile() {
    Run run;
    try (RunWriter w = new RunWriter(space, 0, 8 * 1024)) {
      run = w.finish();
    }
    assertThat(run.entries()).isZero();
    assertThat(run.blocks()).isZero();
    assertThat(run.segments()).isEmpty();
    try (RunReader r = RunReader.open(run, pool, 2)) {
      assertThat(r.next()).isFalse();
      assertThatThrownBy(r::array).isInstanceOf(IllegalStateException.class);
    }
    assertThat(TestEntries.files(tmp)).isEmpty();
  }

  @Test
  void outOfOrderEntryFailsAndAbandonedWriterDeletesItsFiles() {
    RunWriter w = new RunWriter(space, 0, 8 * 1024);
    byte[] big = new byte[20];
    for (int i = 0; i < 2000; i++) { // several blocks on disk already
      big[0] = (byte) (i >> 8);
      big[1] = (byte) i;
      w.add(big);
    }
    assertThat(TestEntries.files(tmp)).isNotEmpty();
    assertThatThrownBy(() -> w.add(new byte[] {0, 5}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("run entries out of order: entry 2000 (0005) sorts below");
    // a proper prefix of the previous entry sorts below it too
    assertThatThrownBy(() -> w.add(Arrays.copyOf(big, 19)))
        .isInstanceOf(IllegalArgumentException.class);
    w.add(big.clone()); // an equal entry is fine
    w.close();
    w.close();
    assertThat(TestEntries.files(tmp)).isEmpty();
    assertThatThrownBy(() -> new RunWriter(space, 0, 4096))
        .hasMessage("blockSize : 4096 (expected: 8192..65536)");
  }

  @Test
  void everyFlippedBitIsReportedWithFileAndBlockOffset() throws IOException {
    List<byte[]> model =
        TestEntries.sorted(TestEntries.entries(rnd, 5_000, Shape.RANDOM, Shape.FEW_KEYS));
    Run run = write(space, 0, 8 * 1024, model);
    Path file = run.segments().get(0).path();
    long size = sizeOf(file);
    for (int trial = 0; trial < 200; trial++) {
      long pos = rnd.nextLong(size);
      int bit = rnd.nextInt(8);
      flip(file, pos, bit);
      try {
        int block = blockAt(run, pos);
        List<byte[]> got = new ArrayList<>();
        RunReader r = RunReader.open(run, rnd.nextBoolean() ? pool : null, rnd.nextInt(3));
        String what = "bit " + bit + " of byte " + pos + " (block " + block + "); " + repro;
        assertThatThrownBy(
                () -> {
                  try (r) {
                    while (r.next()) {
                      got.add(Arrays.copyOf(r.array(), r.length()));
                    }
                  }
                })
            .as(what)
            .isInstanceOf(CorruptRunException.class)
            .hasMessageContaining(file.toString())
            .hasMessageContaining("block at offset " + run.blockOffset(block) + ":")
            .satisfies(
                e -> {
                  CorruptRunException c = (CorruptRunException) e;
                  assertThat(c.file()).isEqualTo(file);
                  assertThat(c.blockOffset()).isEqualTo(run.blockOffset(block));
                });
        // never a wrong entry: what came out before the damage is the model's start
        assertSameEntries(got, model.subList(0, got.size()), what);
      } finally {
        flip(file, pos, bit);
      }
    }
    assertSameEntries(drain(RunReader.open(run, pool, 1)), model, "restored; " + repro);
  }

  @Test
  void truncatedSegmentIsReported() throws IOException {
    List<byte[]> model = TestEntries.sorted(TestEntries.entries(rnd, 3_000, Shape.RANDOM));
    Run run = write(space, 0, 8 * 1024, model);
    Path file = run.segments().get(0).path();
    int last = run.blocks() - 1;
    long cut = run.blockOffset(last) + 1 + rnd.nextInt(run.blockLength(last) - 1);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(cut);
    }
    assertThatThrownBy(() -> drain(RunReader.open(run, pool, 2)))
        .isInstanceOf(CorruptRunException.class)
        .hasMessage(
            "corrupt sort run file "
                + file
                + ", block at offset "
                + run.blockOffset(last)
                + ": truncated: the block has "
                + run.blockLength(last)
                + " bytes, the file ends after "
                + (cut - run.blockOffset(last))
                + " of them");
  }

  @Test
  void readersLeaveNoThreadOrOpenFileAfterCloseOrFailure() throws Exception {
    assumeTrue(Leaks.canCountOpenFiles(), "skipped: open files are counted via /proc/self/fd");
    long filesBefore = Leaks.openFilesUnder(tmp);
    Set<Thread> threadsBefore = Leaks.liveThreads();
    ExecutorService own = RunReader.newPrefetchExecutor(3);
    List<byte[]> model = TestEntries.sorted(TestEntries.entries(rnd, 20_000, Shape.RANDOM));
    Run good = write(space, 0, 8 * 1024, model);
    Run bad = write(space, 1, 8 * 1024, model);
    flip(bad.segments().get(0).path(), bad.blockOffset(bad.blocks() / 2) + 30, 3);

    // closed early, half read, and run to the end
    for (int i = 0; i < 20; i++) {
      RunReader r = RunReader.open(good, own, 4);
      int stop = i % 3 == 0 ? 0 : i % 3 == 1 ? model.size() / 2 : Integer.MAX_VALUE;
      for (int n = 0; n < stop && r.next(); n++) {
        if (!Arrays.equals(
            r.array(), r.offset(), r.offset() + r.length(), model.get(n), 0, model.get(n).length)) {
          throw new AssertionError("entry " + n + " differs; " + repro);
        }
      }
      r.close();
      r.close();
      assertThat(Leaks.openFilesUnder(tmp)).isEqualTo(filesBefore);
    }
    // failed in the middle
    for (int i = 0; i < 5; i++) {
      RunReader r = RunReader.open(bad, own, 4);
      assertThatThrownBy(
              () -> {
                while (r.next()) {
                  // read until the damage
                }
              })
          .isInstanceOf(CorruptRunException.class);
      r.close();
      assertThat(Leaks.openFilesUnder(tmp)).isEqualTo(filesBefore);
    }
    // a merge over many readers, some exhausted early
    List<EntrySource> sources = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      sources.add(RunReader.open(good, own, 1, null, model.get(rnd.nextInt(model.size()))));
    }
    try (LoserTree t = new LoserTree(sources)) {
      int n = 0;
      while (n < 10_000 && t.next()) {
        n++;
      }
      assertThat(n).isEqualTo(10_000);
    }
    assertThat(Leaks.openFilesUnder(tmp)).isEqualTo(filesBefore);

    own.shutdown();
    assertThat(own.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    assertThat(Leaks.newThreads(threadsBefore)).as("threads started by the test").isEmpty();
  }

  static Run write(TempSpace space, int group, int blockSize, List<byte[]> sorted) {
    try (RunWriter w = new RunWriter(space, group, blockSize)) {
      for (byte[] e : sorted) {
        w.add(e, 0, e.length);
      }
      return w.finish();
    }
  }

  private static int blockAt(Run run, long pos) {
    for (int b = 0; b < run.blocks(); b++) {
      if (run.blockSegment(b) == 0
          && pos >= run.blockOffset(b)
          && pos < run.blockOffset(b) + run.blockLength(b)) {
        return b;
      }
    }
    throw new AssertionError("no block holds byte " + pos);
  }

  private static void flip(Path file, long pos, int bit) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, pos);
      one.put(0, (byte) (one.get(0) ^ (1 << bit)));
      one.rewind();
      ch.write(one, pos);
    }
  }

  private static long sizeOf(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** The writer's prefix measure is {@link Arrays#mismatch} on every length and offset. */
  @Test
  void mismatchIsTheLibrarys() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    for (int i = 0; i < 100_000; i++) {
      byte[] a = new byte[r.nextInt(40)];
      r.nextBytes(a);
      int off = r.nextInt(4);
      byte[] b = new byte[off + r.nextInt(40) + 4];
      r.nextBytes(b);
      int common = Math.min(a.length, b.length - off);
      System.arraycopy(a, 0, b, off, r.nextInt(common + 1)); // a shared prefix of any length
      int len = r.nextInt(b.length - off + 1);
      assertThat(RunWriter.mismatch(a, a.length, b, off, len))
          .as(Seeds.reproduce(seed, getClass()))
          .isEqualTo(Arrays.mismatch(a, 0, a.length, b, off, off + len));
    }
  }
}
