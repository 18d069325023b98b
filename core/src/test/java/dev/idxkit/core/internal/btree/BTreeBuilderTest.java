package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.idxkit.core.KeyTooLongException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.TreeStats;
import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.core.testing.MemoryPageAccess;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeSet;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TreeBuilder}: the built tree equals its input (cursor walks both ways), passes {@code
 * check}, uses exactly the pages it wrote, packs leaves to the fill factor (each leaf could not
 * take its right neighbour's first entry), and behaves as an ordinary tree under later inserts and
 * deletes; in both node formats.
 */
class BTreeBuilderTest {
  private static final int PAGE = 4096;

  /** Entry {@code i} of a sequential input: key {@code 3i} (8 bytes) then a rid. */
  private static void sequential(long i, byte[] e) {
    Rid.write(i * 3, e, 0);
    Rid.write(Rid.of(i >>> 4, (int) (i & 0xF)), e, 8);
  }

  /** Entries per format 1 leaf for 16-byte entries at this fill. */
  private static int leafCapacity(int fill) {
    return Node.bodySize(PAGE) * fill / 100 / (16 + Node.slotSize(Node.FORMAT_1));
  }

  private static BuildResult buildSequential(MemoryPageSink sink, long n, int fill, int format) {
    TreeBuilder b = new TreeBuilder(sink, PAGE, sink.pages.areaId(), fill, "seq", format);
    byte[] e = new byte[16];
    for (long i = 0; i < n; i++) {
      sequential(i, e);
      b.add(e, 0, e.length);
    }
    return b.finish();
  }

  @ParameterizedTest
  @CsvSource({"100, 1", "70, 1", "10, 1", "100, 2", "70, 2", "10, 2"})
  void pageBoundaries(int fill, int format) {
    int cap = leafCapacity(fill);
    for (long n : new long[] {0, 1, 2, cap - 1, cap, cap + 1, 2L * cap, 2L * cap + 1, 3L * cap}) {
      verifySequential(n, fill, format);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void everySizeUpToThreeLeaves(int format) {
    for (long n = 0; n <= 3L * leafCapacity(100) + 1; n++) {
      verifySequential(n, 100, format);
    }
  }

  @ParameterizedTest
  @CsvSource({"100, 1", "70, 1", "10, 1", "100, 2", "70, 2", "10, 2"})
  void oneMillionEntries(int fill, int format) {
    verifySequential(1_000_000, fill, format);
  }

  private static void verifySequential(long n, int fill, int format) {
    String what = n + " entries at fill " + fill + ", node format " + format;
    MemoryPageAccess pages = new MemoryPageAccess(PAGE);
    MemoryPageSink sink = new MemoryPageSink(pages);
    BuildResult r = buildSequential(sink, n, fill, format);
    sink.assertAllWritten();
    assertThat(r.entries()).as(what).isEqualTo(n);
    assertThat(r.pagesWritten()).as(what).isEqualTo(pages.livePages());
    BTree tree = new BTree(pages, r.root(), "seq");
    assertThat(tree.height()).as(what).isEqualTo(r.height());
    TreeStats s = Trees.assertHealthy(tree, pages, n, what);
    assertLeavesFull(tree, format, Node.bodySize(PAGE) * fill / 100, what);
    long cap = leafCapacity(fill);
    long formatOneLeaves = Math.max(1, (n + cap - 1) / cap);
    if (format == Node.FORMAT_1) {
      assertThat(s.pagesPerLevel().get(0)).as(what).isEqualTo(formatOneLeaves);
    } else {
      // These entries share 5 bytes or more per leaf, so format 2 packs at least as many.
      assertThat(s.pagesPerLevel().get(0)).as(what).isLessThanOrEqualTo(formatOneLeaves);
    }
    if (n >= 10L * cap) {
      assertThat(s.leafFillPercent()).as(what).isCloseTo(fill, within(2.0));
    }
    // Each branch page is written after the leaf allocated before it; nothing else is reordered.
    long branches = s.pages() - s.pagesPerLevel().get(0);
    assertThat((long) sink.outOfOrderWrites()).as(what).isLessThanOrEqualTo(branches);

    byte[] e = new byte[16];
    TreeCursor c = tree.cursor();
    boolean on = c.first();
    for (long i = 0; i < n; i++) {
      sequential(i, e);
      if (!on || c.compareTo(e) != 0) {
        throw new AssertionError(what + ": forward walk differs at entry " + i);
      }
      on = c.next();
    }
    assertThat(on).as(what).isFalse();
    on = c.last();
    for (long i = n - 1; i >= 0; i--) {
      sequential(i, e);
      if (!on || c.compareTo(e) != 0) {
        throw new AssertionError(what + ": backward walk differs at entry " + i);
      }
      on = c.prev();
    }
    assertThat(on).as(what).isFalse();
  }

  /**
   * Every leaf is in {@code format}, within {@code limit} body bytes, and full: with its right
   * neighbour's first entry added it would pass {@code limit} (counted as the builder counts: in
   * format 2 with the prefix all the keys share).
   */
  private static void assertLeavesFull(BTree tree, int format, int limit, String what) {
    Cells c = new Cells(PAGE);
    Page p = tree.edgeLeaf(false);
    while (true) {
      assertThat(Node.format(p)).as(what).isEqualTo(format);
      c.clear();
      c.addAll(p);
      int n = c.size();
      assertThat(n == 0 ? 0 : c.pageBytes(format, true, 0, n)).as(what).isLessThanOrEqualTo(limit);
      long right = Node.rightSibling(p);
      if (right == 0) {
        return;
      }
      p = tree.pages.read(right);
      c.addFrom(p, 0);
      assertThat(c.pageBytes(format, true, 0, n + 1))
          .as(what + ": leaf before page " + right + " could have held one more entry")
          .isGreaterThan(limit);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {100, 70, 10})
  void randomEntriesThenInsertsAndDeletes(int fill) {
    long seed = Seeds.seed();
    String repro = "fill " + fill + ", " + Seeds.reproduce(seed, getClass());
    SplittableRandom rnd = Seeds.random(seed);
    MemoryPageAccess pages = new MemoryPageAccess(PAGE);
    EntryGen gen = new EntryGen(rnd, Node.maxEntryLength(PAGE));
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    while (model.size() < 20_000) {
      model.add(gen.next());
    }

    // The input through add (from an array and from off-heap memory) and, after the first entry,
    // through addNext as a merge loop adds, with the bytes each entry shares with the one before
    // it given (as a packed merge gives them) or to be computed.
    long total = 0;
    for (byte[] e : model) {
      total += e.length;
    }
    BytesStore<?, Void> store = BytesStore.nativeStore(total);
    try {
      MemoryPageSink sink = new MemoryPageSink(pages);
      TreeBuilder b = new TreeBuilder(sink, PAGE, pages.areaId(), fill, "rnd");
      long off = 0;
      byte[] prev = null;
      for (byte[] e : model) {
        int how = rnd.nextInt(4);
        if (how == 0) {
          b.add(e, 0, e.length);
        } else if (how == 1 && prev != null) {
          b.addNext(e, 0, e.length, Keys.commonPrefix(prev, 0, prev.length, e, 0, e.length));
        } else if (how == 2 && prev != null) {
          b.addNext(e, 0, e.length, -1);
        } else {
          store.write(off, e, 0, e.length);
          b.add(store, off, e.length);
          off += e.length;
        }
        prev = e;
      }
      BuildResult r = b.finish();
      sink.assertAllWritten();
      BTree tree = new BTree(pages, r.root(), "rnd");
      Trees.assertHealthy(tree, pages, model.size(), repro);
      Trees.assertSameEntries(tree, model, repro);

      for (int op = 0; op < 30_000; op++) {
        if (rnd.nextBoolean()) {
          byte[] e = gen.next();
          if (model.add(e)) {
            tree.insert(e);
          }
        } else {
          byte[] k = gen.next();
          byte[] e = model.ceiling(k);
          if (e != null) {
            assertThat(tree.delete(e)).as(repro).isTrue();
            model.remove(e);
          }
        }
      }
      Trees.assertHealthy(tree, pages, model.size(), repro);
      Trees.assertSameEntries(tree, model, repro);
      List<byte[]> all = new ArrayList<>(model);
      Collections.shuffle(all, new Random(rnd.nextLong()));
      for (byte[] e : all) {
        assertThat(tree.delete(e)).as(repro).isTrue();
      }
      Trees.assertHealthy(tree, pages, 0, repro);
      assertThat(pages.livePages()).as(repro).isEqualTo(1);
    } finally {
      store.releaseLast();
    }
  }

  @Test
  void disorderIsRejectedNamingTheIndex() {
    TreeBuilder b =
        new TreeBuilder(new MemoryPageSink(new MemoryPageAccess(PAGE)), PAGE, 1, 100, "cust_name");
    assertThatThrownBy(() -> b.addNext(new byte[] {1, 2, 3}, 0, 3, -1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("first entry");
    b.add(new byte[] {1, 2, 3});
    assertThatThrownBy(() -> b.add(new byte[] {1, 2, 3}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cust_name")
        .hasMessageContaining("entry #2");
    assertThatThrownBy(() -> b.add(new byte[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cust_name");
    BytesStore<?, byte[]> src = BytesStore.wrap(new byte[] {9, 1, 2});
    assertThatThrownBy(() -> b.add(src, 1, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0102 after 010203");
    b.add(src, 0, 3);
    // A shared length given by the caller: the order check reads the byte there, and one that
    // stops short of the first difference (equal bytes there) is refused.
    assertThatThrownBy(() -> b.addNext(new byte[] {9, 1, 3}, 0, 3, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("090103 after 090102");
    b.addNext(new byte[] {9, 1, 3}, 0, 3, 2);
    assertThat(b.finish().entries()).isEqualTo(3);
    assertThatThrownBy(b::finish).isInstanceOf(IllegalStateException.class);
  }

  /**
   * {@code lastRepeats(keyLen)} says whether the entry just added repeats the key of the one before
   * it (same length, equal first keyLen bytes), across leaf boundaries too; never for the first
   * entry, nor for a key that is a prefix of the one before it or longer than it.
   */
  @Test
  void lastRepeatsTellsAKeyAddedAgainFromTheOrderCheck() {
    long seed = Seeds.seed();
    SplittableRandom rnd = Seeds.random(seed);
    String why = Seeds.reproduce(seed, getClass());
    TreeBuilder b =
        new TreeBuilder(new MemoryPageSink(new MemoryPageAccess(PAGE)), PAGE, 1, 100, "u");
    byte[] first = entry(new byte[] {0}, 1);
    b.add(first);
    assertThat(b.lastRepeats(1)).as("the first entry, " + why).isFalse();
    int rid = 2;
    int repeats = 0;
    // Keys of 1 to 3 bytes in order, some added twice or three times (new RIDs): thousands of
    // entries, so that repeats fall on leaf boundaries as well.
    for (int k = 1; k < 6000; k++) {
      byte[] key = keyOf(k);
      int times = 1 + (rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(2) : 0);
      for (int t = 0; t < times; t++) {
        b.add(entry(key, rid++));
        assertThat(b.lastRepeats(key.length)).as("key %d, time %d, %s", k, t, why).isEqualTo(t > 0);
        repeats += t > 0 ? 1 : 0;
      }
    }
    assertThat(repeats).as(why).isGreaterThan(1000);
    assertThat(b.finish().entries()).isEqualTo(rid - 1);
    // A key that is a prefix of the one before it, or that extends it, is not a repeat.
    TreeBuilder c =
        new TreeBuilder(new MemoryPageSink(new MemoryPageAccess(PAGE)), PAGE, 1, 100, "p");
    c.add(entry(new byte[] {7}, 0));
    c.add(entry(new byte[] {7, 0}, 1));
    assertThat(c.lastRepeats(1)).as("a longer key sharing the first byte").isFalse();
    c.add(entry(new byte[] {7, 0}, 2));
    assertThat(c.lastRepeats(2)).isTrue();
  }

  /** A key of 1 to 3 bytes that sorts as {@code k} does (a length byte first). */
  private static byte[] keyOf(int k) {
    int len = k < 200 ? 1 : k < 4000 ? 2 : 3;
    byte[] key = new byte[len];
    key[0] = (byte) (len == 1 ? k : len == 2 ? 200 + (k >>> 8) : 240 + (k >>> 16));
    if (len == 2) {
      key[1] = (byte) k;
    } else if (len == 3) {
      key[1] = (byte) (k >>> 8);
      key[2] = (byte) k;
    }
    return key;
  }

  private static byte[] entry(byte[] key, long rid) {
    byte[] e = Arrays.copyOf(key, key.length + Rid.BYTES);
    Rid.write(rid, e, key.length);
    return e;
  }

  @Test
  void entryLengthLimits() {
    MemoryPageAccess pages = new MemoryPageAccess(PAGE);
    MemoryPageSink sink = new MemoryPageSink(pages);
    TreeBuilder b = new TreeBuilder(sink, PAGE, 1, 100, "wide");
    int max = BTree.maxEntryLength(PAGE);
    assertThatThrownBy(() -> b.add(new byte[max + 1]))
        .isInstanceOfSatisfying(KeyTooLongException.class, e -> assertThat(e.max()).isEqualTo(max));
    assertThatThrownBy(() -> b.add(new byte[0])).isInstanceOf(IllegalArgumentException.class);
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    // Leaves hold three each; entries 3k + 2 and 3k + 3 (the last of a leaf and the first of the
    // next) differ only in the RID, so the separators are long, and no three in a row share a
    // prefix to store once.
    for (int i = 0; i < 30; i++) {
      byte[] e = new byte[max];
      Arrays.fill(e, (byte) 0x33);
      e[0] = (byte) ((i + 1) / 3);
      Rid.write(i, e, max - 8);
      b.add(e);
      model.add(e);
    }
    BTree tree = new BTree(pages, b.finish().root(), "wide");
    assertThat(tree.height()).isGreaterThan(2);
    Trees.assertHealthy(tree, pages, 30, "");
    Trees.assertSameEntries(tree, model, "");
  }

  @Test
  void argumentsAreChecked() {
    MemoryPageSink sink = new MemoryPageSink(new MemoryPageAccess(PAGE));
    assertThatThrownBy(() -> new TreeBuilder(sink, PAGE, 1, 9, "i"))
        .hasMessageContaining("leafFillPercent : 9 (expected: 10..100)");
    assertThatThrownBy(() -> new TreeBuilder(sink, PAGE, 1, 101, "i"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TreeBuilder(sink, 5000, 1, 100, "i"))
        .hasMessageContaining("pageSize : 5000");
  }
}
