package dev.idxkit.idxbuild.sort;

import static dev.idxkit.idxbuild.sort.TestEntries.assertSameEntries;
import static dev.idxkit.idxbuild.sort.TestEntries.drain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import dev.idxkit.idxbuild.sort.TestEntries.Shape;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.idxbuild.temp.TempSpace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Splitters}: boundaries strictly increasing; merging each range on its own (range-opened
 * readers and buffer sources) and concatenating gives exactly the whole; each range is within the
 * sparse index's precision (one block per run, one sample step per buffer) of an equal share.
 */
class SplittersTest {
  @TempDir Path tmp;
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());
  private final SplittableRandom rnd = Seeds.random(seed);
  private TempSpace space;

  @BeforeEach
  void setUp() {
    space = new TempSpace(SrtFile.ofDirectory(tmp), "sp");
  }

  @AfterEach
  void tearDown() {
    space.close();
  }

  @Test
  void rangesAreBalancedOrderedDisjointAndComplete() {
    List<byte[]> all = new ArrayList<>();
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      List<byte[]> in =
          TestEntries.entries(rnd, 2_000 + rnd.nextInt(30_000), Shape.RANDOM, Shape.FEW_KEYS);
      all.addAll(in);
      runs.add(RunFileTest.write(space, 0, 8 * 1024, TestEntries.sorted(in)));
    }
    List<EntryBuffer> buffers = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      List<byte[]> in = TestEntries.entries(rnd, 10_000 + rnd.nextInt(10_000), Shape.RANDOM);
      all.addAll(in);
      buffers.add(TestEntries.buffer(in));
    }
    List<byte[]> model = TestEntries.sorted(all);
    // the precision the sparse index allows: half a block per source, one sample, both ends
    long runBlocks = 0;
    long maxBlock = 0;
    for (Run r : runs) {
      long runMax = 0;
      for (int b = 0; b < r.blocks(); b++) {
        runMax = Math.max(runMax, r.blockEntryCount(b));
      }
      runBlocks += (runMax + 1) / 2;
      maxBlock = Math.max(maxBlock, runMax);
    }
    for (int parts : new int[] {1, 2, 3, 4, 7, 16}) {
      long halfBlocks = runBlocks;
      long maxSample = maxBlock;
      for (EntryBuffer b : buffers) { // buffers are sampled more finely the more parts are asked
        long step = Splitters.bufferStep(b.size(), parts);
        halfBlocks += (step + 1) / 2;
        maxSample = Math.max(maxSample, step);
      }
      long slack = 2 * (halfBlocks + maxSample) + 1;
      long share = model.size() / parts;
      long steps = 0;
      for (EntryBuffer b : buffers) {
        steps += Splitters.bufferStep(b.size(), parts);
      }
      assertThat(
              steps) // the buffers' sampling costs at most 1/64 of a range, whatever their number
          .as("sum of the buffers' sample steps, " + parts + " parts")
          .isLessThanOrEqualTo(share / Splitters.SAMPLES_PER_PART + buffers.size());
      List<byte[]> bounds = Splitters.split(runs, buffers, parts);
      String what = parts + " parts, bound " + slack + "; " + repro;
      assertThat(bounds).as(what).hasSize(parts - 1);
      List<Integer> counts = checkRanges(runs, buffers, bounds, model, what);
      System.out.println(
          parts + " parts: range sizes " + counts + ", equal share " + share + ", bound " + slack);
      for (int c : counts) {
        assertThat((long) Math.abs(c - share))
            .as("range sizes " + counts + " for " + what)
            .isLessThanOrEqualTo(slack);
      }
    }
  }

  @Test
  void fewDistinctKeysGiveFewerBoundariesButStillTheWhole() {
    List<byte[]> all = new ArrayList<>();
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      List<byte[]> in = TestEntries.entries(rnd, 5_000, Shape.DUPLICATES);
      all.addAll(in);
      runs.add(RunFileTest.write(space, 0, 8 * 1024, TestEntries.sorted(in)));
    }
    List<byte[]> model = TestEntries.sorted(all);
    List<byte[]> bounds = Splitters.split(runs, List.of(), 8);
    assertThat(bounds.size()).isLessThanOrEqualTo(4); // five distinct entries in all
    checkRanges(runs, List.of(), bounds, model, repro);
  }

  @Test
  void nothingToSplit() {
    assertThat(Splitters.split(List.of(), List.of(), 4)).isEmpty();
    assertThat(Splitters.split(List.of(), List.of(TestEntries.buffer(List.of())), 4)).isEmpty();
  }

  /** Merges every range on its own; returns the range sizes. */
  private List<Integer> checkRanges(
      List<Run> runs,
      List<EntryBuffer> buffers,
      List<byte[]> bounds,
      List<byte[]> model,
      String what) {
    for (int i = 1; i < bounds.size(); i++) {
      assertThat(Arrays.compareUnsigned(bounds.get(i - 1), bounds.get(i)))
          .as("boundaries strictly increasing; " + what)
          .isNegative();
    }
    List<byte[]> joined = new ArrayList<>();
    List<Integer> counts = new ArrayList<>();
    for (int p = 0; p <= bounds.size(); p++) {
      byte[] from = p == 0 ? null : bounds.get(p - 1);
      byte[] to = p == bounds.size() ? null : bounds.get(p);
      List<EntrySource> sources = new ArrayList<>();
      for (Run r : runs) {
        sources.add(RunReader.open(r, null, 0, from, to));
      }
      for (EntryBuffer b : buffers) {
        sources.add(b.source(from, to));
      }
      List<byte[]> range = drain(new LoserTree(sources));
      for (byte[] e : range) {
        if ((from != null && Arrays.compareUnsigned(e, from) < 0)
            || (to != null && Arrays.compareUnsigned(e, to) >= 0)) {
          throw new AssertionError("entry outside its range " + p + "; " + what);
        }
      }
      counts.add(range.size());
      joined.addAll(range);
    }
    assertSameEntries(joined, model, "union of the ranges; " + what);
    return counts;
  }
}
