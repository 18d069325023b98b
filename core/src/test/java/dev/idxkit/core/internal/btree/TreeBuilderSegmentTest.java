package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.TreeStats;
import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.core.spi.Keys;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.core.spi.TreeSegment;
import dev.idxkit.core.testing.MemoryPageAccess;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Segments built apart and joined give a valid tree with the entries one builder gives, in the same
 * order, with at most one extra (partly filled) leaf per segment boundary.
 */
class TreeBuilderSegmentTest {
  static final int PAGE = 4096;

  private static List<byte[]> sortedEntries(SplittableRandom r, int n) {
    TreeSet<byte[]> set = new TreeSet<>(Keys::compare);
    while (set.size() < n) {
      byte[] e = new byte[8 + r.nextInt(r.nextInt(10) == 0 ? 300 : 24)];
      r.nextBytes(e);
      e[0] = (byte) r.nextInt(3); // long shared prefixes
      set.add(e);
    }
    return new ArrayList<>(set);
  }

  private static List<byte[]> walk(MemoryPageAccess pages, long root) {
    List<byte[]> out = new ArrayList<>();
    TreeCursor c = new BTree(pages, root, "t").cursor();
    for (boolean on = c.first(); on; on = c.next()) {
      out.add(c.entry());
    }
    List<byte[]> back = new ArrayList<>();
    for (boolean on = c.last(); on; on = c.prev()) {
      back.add(0, c.entry());
    }
    assertThat(back).usingElementComparator(Keys::compare).isEqualTo(out);
    return out;
  }

  @Test
  void joinedSegmentsEqualOneBuild() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    for (int round = 0; round < 40; round++) {
      int n = round < 5 ? round : r.nextInt(round % 4 == 0 ? 60_000 : 3_000);
      int fill = r.nextBoolean() ? 100 : 10 + r.nextInt(91);
      List<byte[]> in = sortedEntries(r, n);

      MemoryPageAccess one = new MemoryPageAccess(PAGE);
      TreeBuilder b = new TreeBuilder(new MemoryPageSink(one), PAGE, 1, fill, "t");
      in.forEach(b::add);
      BuildResult whole = b.finish();

      MemoryPageAccess joined = new MemoryPageAccess(PAGE);
      MemoryPageSink sink = new MemoryPageSink(joined);
      int parts = 1 + r.nextInt(8);
      List<TreeSegment> segments = new ArrayList<>();
      int from = 0;
      for (int p = 0; p < parts; p++) {
        // Random cut points, including empty and one-entry segments.
        int to = p == parts - 1 ? n : from + (n == 0 ? 0 : r.nextInt(Math.max(1, n - from + 1)));
        to = Math.min(n, r.nextInt(6) == 0 ? from : r.nextInt(6) == 0 ? Math.min(n, from + 1) : to);
        TreeBuilder seg = TreeBuilder.forSegment(sink, PAGE, 1, fill, "t");
        for (int i = from; i < to; i++) {
          seg.add(in.get(i));
        }
        segments.add(seg.finishSegment());
        from = to;
      }
      TreeBuilder last = TreeBuilder.forSegment(sink, PAGE, 1, fill, "t");
      for (int i = from; i < n; i++) {
        last.add(in.get(i));
      }
      segments.add(last.finishSegment());
      BuildResult result = TreeSegment.join(sink, PAGE, 1, fill, "t", segments);
      sink.assertAllWritten();

      String why = Seeds.reproduce(seed, getClass()) + " round " + round + " n=" + n;
      assertThat(result.entries()).as(why).isEqualTo(n);
      assertThat(result.height()).as(why).isBetween(whole.height(), whole.height() + 1);
      assertThat(joined.livePages()).as(why).isEqualTo(result.pagesWritten());
      assertThat(walk(joined, result.root()))
          .as(why)
          .usingElementComparator(Keys::compare)
          .isEqualTo(in);
      List<String> problems = new ArrayList<>();
      TreeStats js = new BTree(joined, result.root(), "t").check(problems::add);
      TreeStats ws = new BTree(one, whole.root(), "t").check(problems::add);
      assertThat(problems).as(why).isEmpty();
      long boundaries = segments.stream().filter(x -> !x.isEmpty()).count() - 1;
      assertThat(js.pagesPerLevel().get(0))
          .as(why + " leaves")
          .isBetween(
              ws.pagesPerLevel().get(0), ws.pagesPerLevel().get(0) + Math.max(0, boundaries));
    }
  }
}
