package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.core.spi.Keys;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageSink;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.core.spi.TreeSegment;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link TreeBuilder#addNextAll} (fixed-length entries given a batch at a time, as the rebuild's
 * packed merge gives them) writes the same pages, byte for byte and in the same order, as {@link
 * TreeBuilder#addNext} called once per entry; it checks their order the same way and answers {@link
 * TreeBuilder#lastRepeats} the same.
 */
class TreeBuilderAddAllTest {
  static final int PAGE = 4096;

  /** Records every page written, in order, as its number and bytes. */
  private static final class Recorder implements PageSink {
    final List<byte[]> writes = new ArrayList<>();
    private long next = 1;

    @Override
    public long allocate() {
      return next++;
    }

    @Override
    public void write(long pageNo, Page page) {
      byte[] b = new byte[8 + page.size()];
      page.getBytes(0, b, 8, page.size());
      for (int i = 0; i < 8; i++) {
        b[i] = (byte) (pageNo >>> (8 * i));
      }
      writes.add(b);
    }
  }

  /**
   * {@code n} distinct sorted entries of {@code len} (at least 3) bytes: a few leading bytes from a
   * small alphabet (long shared prefixes, as an index's constant bytes and high key bytes), then
   * random.
   */
  private static List<byte[]> entries(SplittableRandom r, int n, int len) {
    TreeSet<byte[]> set = new TreeSet<>(Keys::compare);
    int narrow = r.nextInt(len - 2); // at least three free bytes: 16 M entries to draw from
    while (set.size() < n) {
      byte[] e = new byte[len];
      r.nextBytes(e);
      for (int i = 0; i < narrow; i++) {
        e[i] = (byte) r.nextInt(2);
      }
      set.add(e);
    }
    return new ArrayList<>(set);
  }

  private static int shared(byte[] a, byte[] b) {
    int m = Arrays.mismatch(a, b);
    return m < 0 ? a.length : m;
  }

  private static TreeBuilder builder(PageSink sink, boolean segment, int fill, int format) {
    return segment
        ? TreeBuilder.forSegment(sink, PAGE, 1, fill, "t")
        : new TreeBuilder(sink, PAGE, 1, fill, "t", format);
  }

  @Test
  void batchesWriteTheSamePagesAsOneEntryAtATime() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    for (int round = 0; round < 60; round++) {
      String why = Seeds.reproduce(seed, getClass()) + " round " + round;
      int len = 3 + r.nextInt(round % 5 == 0 ? 200 : 30);
      int n = 1 + r.nextInt(round % 3 == 0 ? 20_000 : 2_000);
      int fill = r.nextBoolean() ? 100 : 10 + r.nextInt(91);
      int format = r.nextBoolean() ? Node.FORMAT_2 : Node.FORMAT_1;
      boolean segment = r.nextInt(4) == 0;
      List<byte[]> in = entries(r, n, len);

      Recorder one = new Recorder();
      TreeBuilder a = builder(one, segment, fill, format);
      Recorder batched = new Recorder();
      TreeBuilder b = builder(batched, segment, fill, format);
      a.add(in.get(0));
      b.add(in.get(0));
      int i = 1;
      while (i < n) {
        int count = Math.min(n - i, 1 + r.nextInt(r.nextBoolean() ? 4 : 300));
        byte[] batch = new byte[count * len];
        int[] shared = new int[count];
        for (int j = 0; j < count; j++) {
          byte[] e = in.get(i + j);
          shared[j] = shared(in.get(i + j - 1), e);
          System.arraycopy(e, 0, batch, j * len, len);
          a.addNext(e, 0, len, shared[j]);
        }
        b.addNextAll(batch, count, len, shared);
        i += count;
        assertThat(b.lastRepeats(len - 1)).as(why).isEqualTo(a.lastRepeats(len - 1));
        assertThat(b.lastRepeats(shared[count - 1])).as(why).isTrue();
        assertThat(b.lastRepeats(shared[count - 1] + 1)).as(why).isFalse();
        assertThat(batched.writes.size()).as(why).isEqualTo(one.writes.size());
      }
      assertThat(b.entries()).as(why).isEqualTo(n);
      if (segment) {
        TreeSegment sa = a.finishSegment();
        TreeSegment sb = b.finishSegment();
        assertThat(sb.entries()).as(why).isEqualTo(sa.entries());
        assertThat(sb.firstEntry()).as(why).isEqualTo(sa.firstEntry());
        assertThat(sb.lastEntry()).as(why).isEqualTo(sa.lastEntry());
      } else {
        BuildResult ra = a.finish();
        BuildResult rb = b.finish();
        assertThat(rb).as(why).isEqualTo(ra);
      }
      assertSameWrites(batched, one, why);
    }
  }

  /** The same pages written in the same order (each number and bytes). */
  private static void assertSameWrites(Recorder actual, Recorder expected, String why) {
    assertThat(actual.writes.size()).as(why).isEqualTo(expected.writes.size());
    for (int i = 0; i < expected.writes.size(); i++) {
      if (!Arrays.equals(actual.writes.get(i), expected.writes.get(i))) {
        throw new AssertionError("write " + i + " differs; " + why);
      }
    }
  }

  @Test
  void aBatchAfterAnEntryOfAnotherLengthRepeatsNothing() {
    // Entry {1, 2, 3, 5} shares 3 bytes with the longer {1, 2, 3, 4, 0}: not a repeat of a 3-byte
    // key, which only an entry as long as the one before can be.
    byte[] first = {1, 2, 3, 4, 0};
    byte[] next = {1, 2, 3, 5};
    TreeBuilder a = builder(new Recorder(), false, 100, Node.FORMAT_2);
    TreeBuilder b = builder(new Recorder(), false, 100, Node.FORMAT_2);
    a.add(first);
    b.add(first);
    a.addNext(next, 0, next.length, 3);
    b.addNextAll(next.clone(), 1, next.length, new int[] {3});
    assertThat(a.lastRepeats(3)).isFalse();
    assertThat(b.lastRepeats(3)).isFalse();
    assertThat(b.entries()).isEqualTo(2);
  }

  @Test
  void anEntryOutOfOrderInABatchFailsAsItWouldAlone() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    for (int round = 0; round < 20; round++) {
      String why = Seeds.reproduce(seed, getClass()) + " round " + round;
      int len = 4 + r.nextInt(20);
      int n = 3 + r.nextInt(3_000);
      List<byte[]> in = entries(r, n, len);
      // Entry bad (>= 1) takes the place of one at or below its predecessor: a repeat or a lower
      // one.
      int bad = 1 + r.nextInt(n - 1);
      byte[] wrong = in.get(round % 2 == 0 ? bad - 1 : r.nextInt(bad)).clone();
      in.set(bad, wrong);

      TreeBuilder a = builder(new Recorder(), false, 100, Node.FORMAT_2);
      TreeBuilder b = builder(new Recorder(), false, 100, Node.FORMAT_2);
      a.add(in.get(0));
      b.add(in.get(0));
      String expected = null;
      for (int i = 1; i < n && expected == null; i++) {
        byte[] e = in.get(i);
        try {
          a.addNext(e, 0, len, shared(in.get(i - 1), e));
        } catch (IllegalArgumentException x) {
          expected = x.getMessage();
        }
      }
      assertThat(expected).as(why).contains("out of order");
      byte[] batch = new byte[(n - 1) * len];
      int[] shared = new int[n - 1];
      for (int j = 0; j < n - 1; j++) {
        System.arraycopy(in.get(j + 1), 0, batch, j * len, len);
        shared[j] = shared(in.get(j), in.get(j + 1));
      }
      String message = expected;
      assertThatThrownBy(() -> b.addNextAll(batch, n - 1, len, shared))
          .as(why)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(message);
    }
  }
}
