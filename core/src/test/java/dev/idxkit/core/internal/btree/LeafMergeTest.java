package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.core.testing.MemoryPageAccess;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link BTree#apply} (a change buffer's merge, {@link LeafMerge}) against a {@code TreeSet}:
 * sorted batches of inserts and deletes on trees built full or half full, in either node format,
 * applied whole or a few at a time; the tree equals the model and passes {@code check} after each
 * batch.
 */
class LeafMergeTest {
  private static final int PAGE = 4096;

  @Test
  void randomBatchesMatchTheModel() {
    long seed = Seeds.seed();
    String repro = Seeds.reproduce(seed, getClass());
    SplittableRandom rnd = Seeds.random(seed);
    for (int trial = 0; trial < 12; trial++) {
      int format = trial % 3 == 0 ? Node.FORMAT_1 : Node.FORMAT_2;
      int fill = trial % 2 == 0 ? 100 : 40 + rnd.nextInt(60);
      MemoryPageAccess pages = new MemoryPageAccess(PAGE);
      EntryGen gen = new EntryGen(rnd, BTree.maxEntryLength(PAGE));
      TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
      int initial = trial == 1 ? 0 : rnd.nextInt(20_000);
      while (model.size() < initial) {
        model.add(gen.next());
      }
      BTree tree = build(pages, model, fill, format);
      String where = repro + " trial " + trial + " fill " + fill + " format " + format;
      for (int batch = 0; batch < 6; batch++) {
        TreeMap<byte[], Boolean> changes = new TreeMap<>(EntryGen.UNSIGNED);
        int size = 1 + rnd.nextInt(batch % 2 == 0 ? 200 : 20_000);
        int deletePercent = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(40);
        List<byte[]> present = new ArrayList<>(model);
        for (int i = 0; i < size; i++) {
          if (!present.isEmpty() && rnd.nextInt(100) < deletePercent) {
            changes.put(present.get(rnd.nextInt(present.size())), false);
          } else {
            byte[] e = gen.next();
            if (!model.contains(e)) {
              changes.put(e, true);
            }
          }
        }
        List<byte[]> entries = new ArrayList<>(changes.keySet());
        List<Boolean> inserts = new ArrayList<>(changes.values());
        // Applied whole, or in pieces of a random size (the merge's bound per transaction).
        int step = rnd.nextBoolean() ? Integer.MAX_VALUE : 1 + rnd.nextInt(500);
        int done = 0;
        while (done < entries.size()) {
          int n = tree.apply(new ListChanges(entries, inserts, done), step);
          assertThat(n).as(where).isEqualTo(Math.min(step, entries.size() - done));
          done += n;
        }
        changes.forEach(
            (e, ins) -> {
              if (ins) {
                model.add(e);
              } else {
                model.remove(e);
              }
            });
        Trees.assertHealthy(tree, pages, model.size(), where + " batch " + batch);
        Trees.assertSameEntries(tree, model, where + " batch " + batch);
      }
    }
  }

  /** Thousands of new entries between two neighbours: one leaf laid out over many. */
  @Test
  void manyInsertsIntoOneLeaf() {
    MemoryPageAccess pages = new MemoryPageAccess(PAGE);
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    for (int i = 0; i < 2000; i++) {
      model.add(entry(i * 10_000L));
    }
    BTree tree = build(pages, model, 100, Node.FORMAT_2);
    List<byte[]> entries = new ArrayList<>();
    for (long k = 500_001; k < 500_001 + 9_000; k++) {
      entries.add(entry(k));
    }
    int n = tree.apply(new ListChanges(entries, inserts(entries.size(), true), 0), 1 << 20);
    assertThat(n).isEqualTo(entries.size());
    model.addAll(entries);
    Trees.assertHealthy(tree, pages, model.size(), "many into one leaf");
    Trees.assertSameEntries(tree, model, "many into one leaf");
  }

  /** New entries above every old one at the right edge fill leaves full, as appends do. */
  @Test
  void appendsAtTheRightEdgeFillLeaves() {
    MemoryPageAccess pages = new MemoryPageAccess(PAGE);
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    for (int i = 0; i < 1000; i++) {
      model.add(entry(i));
    }
    BTree tree = build(pages, model, 100, Node.FORMAT_2);
    List<byte[]> entries = new ArrayList<>();
    for (long k = 1000; k < 50_000; k++) {
      entries.add(entry(k));
    }
    tree.apply(new ListChanges(entries, inserts(entries.size(), true), 0), 1 << 20);
    model.addAll(entries);
    Trees.assertHealthy(tree, pages, model.size(), "appends");
    Trees.assertSameEntries(tree, model, "appends");
    // The same entries built bottom-up, 100 % full: as many leaves, give or take the last.
    BTree built = build(new MemoryPageAccess(PAGE), model, 100, Node.FORMAT_2);
    long leaves = tree.check(p -> {}).pagesPerLevel().get(0);
    long full = built.check(p -> {}).pagesPerLevel().get(0);
    assertThat(leaves).isBetween(full, full + 1);
  }

  /**
   * A few new entries in every leaf of a tree built 100 % full: runs of leaves take each other's
   * overflow, so the tree grows by about the new entries' share instead of splitting every leaf in
   * two, and the run's leaves share the room left.
   */
  @Test
  void insertsSpreadOverFullLeavesGrowTheTreeByTheirShare() {
    MemoryPageAccess pages = new MemoryPageAccess(PAGE);
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    for (int i = 0; i < 60_000; i++) {
      model.add(entry(i * 100L));
    }
    BTree tree = build(pages, model, 100, Node.FORMAT_2);
    long before = tree.check(p -> {}).pagesPerLevel().get(0);
    // One new entry after every tenth: 10 % more entries, several in every leaf.
    List<byte[]> entries = new ArrayList<>();
    for (int i = 0; i < 60_000; i += 10) {
      entries.add(entry(i * 100L + 50));
    }
    int n = tree.apply(new ListChanges(entries, inserts(entries.size(), true), 0), 1 << 20);
    assertThat(n).isEqualTo(entries.size());
    model.addAll(entries);
    Trees.assertHealthy(tree, pages, model.size(), "spread over full leaves");
    Trees.assertSameEntries(tree, model, "spread over full leaves");
    long after = tree.check(p -> {}).pagesPerLevel().get(0);
    long full =
        build(new MemoryPageAccess(PAGE), model, 100, Node.FORMAT_2)
            .check(p -> {})
            .pagesPerLevel()
            .get(0);
    // Splitting each leaf would give 2 x before; runs end at a parent or MAX_GROUP leaves, each
    // rounding up to whole leaves.
    assertThat(after)
        .as("leaves before %d, packed full %d", before, full)
        .isBetween(full, full + full / 20 + 2);
    // A run's leaves share the room it leaves: none is a remainder much emptier than the rest.
    double average = (double) model.size() / after;
    assertThat(fewestEntries(tree, pages)).isGreaterThan((int) (0.9 * average));
  }

  /**
   * The fewest entries a leaf holds, walking the leaves left to right; the last leaf, which the
   * bottom-up build left with what remained, is not counted.
   */
  private static int fewestEntries(BTree tree, MemoryPageAccess pages) {
    tree.descend(new byte[] {0}, 0, 1);
    int fewest = Integer.MAX_VALUE;
    for (long no = tree.pathPage[0]; Node.rightSibling(pages.read(no)) != 0; ) {
      Page leaf = pages.read(no);
      fewest = Math.min(fewest, Node.count(leaf));
      no = Node.rightSibling(leaf);
    }
    return fewest;
  }

  @Test
  void anEntryAlreadyThereOrADeleteOfOneMissingIsRefused() {
    MemoryPageAccess pages = new MemoryPageAccess(PAGE);
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    for (int i = 0; i < 3000; i++) {
      model.add(entry(i * 2L));
    }
    BTree tree = build(pages, model, 100, Node.FORMAT_2);
    List<byte[]> dup = List.of(entry(1), entry(3), entry(40));
    assertThatThrownBy(() -> tree.apply(new ListChanges(dup, inserts(3, true), 0), 10))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already in index");
    BTree again = build(new MemoryPageAccess(PAGE), model, 100, Node.FORMAT_2);
    List<byte[]> missing = List.of(entry(7));
    assertThatThrownBy(() -> again.apply(new ListChanges(missing, inserts(1, false), 0), 10))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("does not hold");
  }

  private static BTree build(MemoryPageAccess pages, TreeSet<byte[]> model, int fill, int format) {
    if (model.isEmpty()) {
      return new BTree(pages, BTree.create(pages), "merge");
    }
    MemoryPageSink sink = new MemoryPageSink(pages);
    TreeBuilder b = new TreeBuilder(sink, PAGE, pages.areaId(), fill, "merge", format);
    for (byte[] e : model) {
      b.add(e, 0, e.length);
    }
    BuildResult r = b.finish();
    sink.assertAllWritten();
    return new BTree(pages, r.root(), "merge");
  }

  /** A 16-byte entry: key {@code k} big-endian, then an 8-byte RID. */
  private static byte[] entry(long k) {
    byte[] key = new byte[8];
    for (int i = 0; i < 8; i++) {
      key[i] = (byte) (k >>> (56 - 8 * i));
    }
    return EntryGen.withRid(key, k);
  }

  private static List<Boolean> inserts(int n, boolean insert) {
    List<Boolean> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add(insert);
    }
    return l;
  }

  /** Changes from sorted lists, starting at {@code from}. */
  private static final class ListChanges implements LeafMerge.Changes {
    private final List<byte[]> entries;
    private final List<Boolean> inserts;
    private int at;

    ListChanges(List<byte[]> entries, List<Boolean> inserts, int from) {
      this.entries = entries;
      this.inserts = inserts;
      this.at = from - 1;
    }

    @Override
    public boolean next() {
      return ++at < entries.size();
    }

    @Override
    public byte[] array() {
      return entries.get(at);
    }

    @Override
    public int offset() {
      return 0;
    }

    @Override
    public int length() {
      return entries.get(at).length;
    }

    @Override
    public boolean insert() {
      return inserts.get(at);
    }
  }
}
