package dev.idxkit.core.internal.btree;

import static dev.idxkit.core.internal.btree.CursorChecks.assertFullWalks;
import static dev.idxkit.core.internal.btree.CursorChecks.assertSeek;
import static dev.idxkit.core.internal.btree.CursorChecks.entry;
import static dev.idxkit.core.internal.btree.CursorChecks.hex;
import static dev.idxkit.core.internal.btree.CursorChecks.keyPool;
import static dev.idxkit.core.internal.btree.CursorChecks.newSet;
import static dev.idxkit.core.internal.btree.CursorChecks.probe;
import static dev.idxkit.core.internal.btree.CursorChecks.randomEntry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.testing.MemoryPageAccess;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link BufferedCursor} against a {@code TreeSet} model of the effective entries: a tree of a few
 * thousand {@code key || rid} entries, a committed {@link ChangeBuffer} over it and a transaction's
 * buffer over that, walked from the ends and from many seek keys in both directions. The seed is
 * fixed ({@code -Dtests.seed=N} picks another).
 */
class BufferedCursorTest {
  private static final long SEED = Long.getLong("tests.seed", 42L);

  private final MemoryPageAccess pages = new MemoryPageAccess(4096);
  private final BTree tree = new BTree(pages, BTree.create(pages), "t");

  // ---- deterministic cases ----

  @Test
  void laterLayerWinsOnEqualEntries() {
    byte[] a = entry(1, 1);
    byte[] b = entry(2, 1);
    byte[] c = entry(3, 1);
    byte[] d = entry(4, 1);
    byte[] e = entry(5, 1);
    tree.insert(a);
    tree.insert(b);
    tree.insert(c);
    ChangeBuffer committed = new ChangeBuffer();
    committed.apply(b, false); // hides the tree's b
    committed.apply(d, true);
    ChangeBuffer txn = new ChangeBuffer();
    txn.apply(b, true); // b back over the committed delete
    txn.apply(d, false); // cancels the committed insert
    txn.apply(e, true);

    assertThat(forward(new BufferedCursor(tree, new ChangeBuffer[] {committed}, false)))
        .containsExactly(a, c, d);
    assertThat(forward(new BufferedCursor(tree, new ChangeBuffer[] {committed, txn}, false)))
        .containsExactly(a, b, c, e);
    assertThat(forward(new BufferedCursor(tree, new ChangeBuffer[] {committed, txn}, true)))
        .containsExactly(e, c, b, a);
    BufferedCursor r = new BufferedCursor(tree, new ChangeBuffer[] {committed, txn}, true);
    assertThat(r.seek(d)).isTrue();
    assertThat(r.entry()).isEqualTo(c);
    assertThat(r.seek(e)).isTrue();
    assertThat(r.entry()).isEqualTo(c);
    BufferedCursor f = new BufferedCursor(tree, new ChangeBuffer[] {committed, txn}, false);
    assertThat(f.seek(d)).isTrue();
    assertThat(f.entry()).isEqualTo(e);
    assertThat(f.seek(b)).isTrue();
    assertThat(f.entry()).isEqualTo(b);
    assertThat(f.rid()).isEqualTo(1);
    assertThat(f.startsWith(Arrays.copyOf(b, 8))).isTrue();
    assertThat(f.startsWith(Arrays.copyOf(c, 8))).isFalse();
    assertThat(f.compareTo(b)).isZero();
    assertThat(f.compareTo(a)).isPositive();
    assertThat(f.compareTo(c)).isNegative();
  }

  @Test
  void everythingDeleted() {
    TreeSet<byte[]> model = newSet();
    ChangeBuffer layer = new ChangeBuffer();
    for (int k = 0; k < 500; k++) {
      tree.insert(entry(k, 7));
      layer.apply(entry(k, 7), false);
    }
    ChangeBuffer[] layers = {layer};
    BufferedCursor c = new BufferedCursor(tree, layers, false);
    assertThat(c.first()).isFalse();
    assertThat(c.valid()).isFalse();
    assertThat(c.seek(entry(10, 0))).isFalse();
    assertThat(new BufferedCursor(tree, layers, true).first()).isFalse();
    checkAll(layers, model, new SplittableRandom(SEED), "everything deleted");
  }

  @Test
  void offTheEndThrowsAndStays() {
    tree.insert(entry(1, 1));
    ChangeBuffer layer = new ChangeBuffer();
    layer.apply(entry(2, 2), true);
    BufferedCursor c = new BufferedCursor(tree, new ChangeBuffer[] {layer}, false);
    assertThatThrownBy(c::entry).isInstanceOf(IllegalStateException.class);
    assertThat(c.next()).isFalse(); // unpositioned
    assertThat(c.first()).isTrue();
    assertThat(c.next()).isTrue();
    assertThat(c.entry()).isEqualTo(entry(2, 2));
    assertThat(c.rid()).isEqualTo(2);
    assertThat(c.next()).isFalse();
    assertThat(c.valid()).isFalse();
    assertThat(c.next()).isFalse();
    assertThatThrownBy(c::entry).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(c::rid).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> c.compareTo(entry(1, 1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> c.startsWith(new byte[0])).isInstanceOf(IllegalStateException.class);
    // Positioned again after the end.
    assertThat(c.seek(entry(1, 2))).isTrue();
    assertThat(c.entry()).isEqualTo(entry(2, 2));
  }

  @Test
  void emptyTreeWithoutChanges() {
    for (ChangeBuffer[] layers :
        new ChangeBuffer[][] {{}, {new ChangeBuffer()}, {new ChangeBuffer(), new ChangeBuffer()}}) {
      for (boolean reverse : new boolean[] {false, true}) {
        BufferedCursor c = new BufferedCursor(tree, layers, reverse);
        assertThat(c.first()).isFalse();
        assertThat(c.seek(new byte[0])).isFalse();
        assertThat(c.seek(entry(-1, -1))).isFalse();
        assertThat(c.valid()).isFalse();
      }
    }
  }

  // ---- randomized model tests ----

  /** An empty tree: every entry comes from the buffers. */
  @Test
  void emptyTreeWithBufferedInserts() {
    String repro = Seeds.reproduce(SEED, getClass());
    System.out.println("emptyTreeWithBufferedInserts " + repro);
    SplittableRandom rnd = Seeds.random(SEED);
    byte[][] keys = keyPool(rnd, 150);
    TreeSet<byte[]> model = newSet();
    ChangeBuffer committed = new ChangeBuffer();
    List<byte[]> inserted = new ArrayList<>();
    while (inserted.size() < 400) {
      byte[] e = newEntry(rnd, keys, model, newSet());
      committed.apply(e, true);
      model.add(e);
      inserted.add(e);
    }
    ChangeBuffer[] one = {committed};
    TreeSet<byte[]> model1 = new TreeSet<>(model);
    ChangeBuffer txn = new ChangeBuffer();
    for (int i = 0; i < 150; i++) {
      byte[] e = newEntry(rnd, keys, model, newSet());
      txn.apply(e, true);
      model.add(e);
    }
    int cancelled = 0;
    for (byte[] e : inserted) {
      if (rnd.nextInt(4) == 0) {
        txn.apply(e, false);
        model.remove(e);
        cancelled++;
      }
    }
    assertThat(cancelled).isPositive();
    try {
      checkAll(one, model1, rnd, "committed inserts only");
      checkAll(new ChangeBuffer[] {committed, txn}, model, rnd, "two layers of inserts");
    } catch (AssertionError | RuntimeException ex) {
      throw new AssertionError(repro + ": " + ex.getMessage(), ex);
    }
  }

  /** A few thousand tree entries, a committed buffer over them and a transaction's over that. */
  @Test
  void treeWithTwoLayers() {
    String repro = Seeds.reproduce(SEED, getClass());
    System.out.println("treeWithTwoLayers " + repro);
    SplittableRandom rnd = Seeds.random(SEED);
    byte[][] keys = keyPool(rnd, 600);

    TreeSet<byte[]> treeModel = newSet();
    List<byte[]> treeList = new ArrayList<>();
    // The lowest and highest entries possible with 8-byte keys, to be deleted below.
    byte[] lowest = new byte[16];
    byte[] highest = new byte[16];
    Arrays.fill(highest, (byte) 0xff);
    for (byte[] e : new byte[][] {lowest, highest}) {
      tree.insert(e); // not in treeList: only the explicit changes below touch them
      treeModel.add(e);
    }
    while (treeModel.size() < 3002) {
      byte[] e = newEntry(rnd, keys, treeModel, treeModel);
      tree.insert(e);
      treeModel.add(e);
      treeList.add(e);
    }
    assertThat(tree.height()).isGreaterThan(1);
    Trees.assertSameEntries(tree, treeModel, repro);

    // The committed layer: deletes of tree entries, inserts of new ones, and some pairs that
    // cancel within the layer.
    ChangeBuffer committed = new ChangeBuffer();
    TreeSet<byte[]> model1 = new TreeSet<>(treeModel);
    List<byte[]> inserted1 = new ArrayList<>();
    List<byte[]> deleted1 = new ArrayList<>();
    apply(committed, model1, lowest, false);
    deleted1.add(lowest);
    byte[] belowAll = new byte[15]; // a prefix of `lowest`, so below every 16-byte entry
    apply(committed, model1, belowAll, true);
    inserted1.add(belowAll);
    for (int i = 0; i < 400; i++) {
      byte[] e = pickPresent(rnd, treeList, model1);
      apply(committed, model1, e, false);
      deleted1.add(e);
      byte[] n = newEntry(rnd, keys, model1, treeModel);
      apply(committed, model1, n, true);
      inserted1.add(n);
    }
    for (int i = 0; i < 30; i++) {
      byte[] n = newEntry(rnd, keys, model1, treeModel);
      apply(committed, model1, n, true);
      apply(committed, model1, n, false);
      byte[] e = pickPresent(rnd, treeList, model1);
      apply(committed, model1, e, false);
      apply(committed, model1, e, true);
    }
    assertThat(committed.size()).isEqualTo(inserted1.size() + deleted1.size());

    // The transaction's layer over it.
    ChangeBuffer txn = new ChangeBuffer();
    TreeSet<byte[]> model2 = new TreeSet<>(model1);
    int lowerInsertsDeleted = 0;
    int lowerDeletesInserted = 0;
    apply(txn, model2, highest, false);
    apply(txn, model2, lowest, true); // back over the committed delete
    lowerDeletesInserted++;
    for (int i = 0; i < 150; i++) {
      apply(txn, model2, newEntry(rnd, keys, model2, treeModel), true);
      apply(txn, model2, pickPresent(rnd, treeList, model2), false);
    }
    for (byte[] e : inserted1) {
      if (rnd.nextInt(4) == 0) {
        apply(txn, model2, e, false); // a delete hiding the committed layer's insert
        lowerInsertsDeleted++;
      }
    }
    for (byte[] e : deleted1) {
      if (rnd.nextInt(4) == 0 && !model2.contains(e)) {
        apply(txn, model2, e, true); // the tree's entry back over the committed delete
        lowerDeletesInserted++;
      }
    }
    for (int i = 0; i < 20; i++) {
      byte[] n = newEntry(rnd, keys, model2, treeModel);
      apply(txn, model2, n, true);
      apply(txn, model2, n, false);
      byte[] e = pickPresent(rnd, treeList, model2);
      apply(txn, model2, e, false);
      apply(txn, model2, e, true);
    }
    assertThat(lowerInsertsDeleted).isGreaterThan(50);
    assertThat(lowerDeletesInserted).isGreaterThan(50);
    assertThat(effective(treeModel, committed)).isEqualTo(model1);
    assertThat(effective(effective(treeModel, committed), txn)).isEqualTo(model2);
    System.out.printf(
        "tree %d entries, height %d; committed %d changes -> %d entries; txn %d changes"
            + " (%d committed inserts deleted, %d committed deletes inserted) -> %d entries%n",
        treeModel.size(),
        tree.height(),
        committed.size(),
        model1.size(),
        txn.size(),
        lowerInsertsDeleted,
        lowerDeletesInserted,
        model2.size());

    try {
      checkAll(new ChangeBuffer[0], treeModel, rnd, "no layers");
      checkAll(new ChangeBuffer[] {new ChangeBuffer()}, treeModel, rnd, "one empty layer");
      checkAll(new ChangeBuffer[] {committed}, model1, rnd, "committed");
      checkAll(new ChangeBuffer[] {committed, txn}, model2, rnd, "committed + txn");
      checkAll(
          new ChangeBuffer[] {new ChangeBuffer(), committed, new ChangeBuffer(), txn},
          model2,
          rnd,
          "committed + txn with empty layers between");
    } catch (AssertionError | RuntimeException ex) {
      throw new AssertionError(repro + ": " + ex.getMessage(), ex);
    }
  }

  /** With no layers the cursor walks exactly as the tree's own cursor. */
  @Test
  void noLayersIsThePlainTree() {
    SplittableRandom rnd = Seeds.random(SEED);
    byte[][] keys = keyPool(rnd, 200);
    TreeSet<byte[]> model = newSet();
    while (model.size() < 2000) {
      byte[] e = newEntry(rnd, keys, model, model);
      tree.insert(e);
      model.add(e);
    }
    BufferedCursor b = new BufferedCursor(tree, new ChangeBuffer[0], false);
    TreeCursor t = tree.cursor();
    boolean on = t.first();
    assertThat(b.first()).isEqualTo(on);
    while (on) {
      assertThat(b.entry()).isEqualTo(t.entry());
      assertThat(b.rid()).isEqualTo(t.rid());
      on = t.next();
      assertThat(b.next()).isEqualTo(on);
    }
    BufferedCursor r = new BufferedCursor(tree, new ChangeBuffer[0], true);
    for (int i = 0; i < 200; i++) {
      byte[] k = probe(rnd, keys, model, List.of());
      boolean tf = t.seek(k);
      assertThat(b.seek(k)).isEqualTo(tf);
      if (tf) {
        assertThat(b.entry()).isEqualTo(t.entry());
      }
      boolean tr = t.seekBefore(k);
      assertThat(r.seek(k)).isEqualTo(tr);
      if (tr) {
        assertThat(r.entry()).isEqualTo(t.entry());
      }
    }
    checkAll(new ChangeBuffer[0], model, rnd, "no layers");
  }

  // ---- generation ----

  /** A random 16-byte entry of a pool key, in neither {@code a} nor {@code b}. */
  private static byte[] newEntry(
      SplittableRandom rnd, byte[][] keys, NavigableSet<byte[]> a, NavigableSet<byte[]> b) {
    while (true) {
      byte[] e = randomEntry(rnd, keys);
      if (!a.contains(e) && !b.contains(e)) {
        return e;
      }
    }
  }

  /** A random entry of {@code from} that {@code model} holds. */
  private static byte[] pickPresent(
      SplittableRandom rnd, List<byte[]> from, NavigableSet<byte[]> model) {
    while (true) {
      byte[] e = from.get(rnd.nextInt(from.size()));
      if (model.contains(e)) {
        return e;
      }
    }
  }

  /** A change as a caller makes one: an insert of an absent entry, a delete of a present one. */
  private static void apply(ChangeBuffer layer, TreeSet<byte[]> model, byte[] e, boolean insert) {
    assertThat(model.contains(e)).as("precondition for %s", hex(e)).isEqualTo(!insert);
    layer.apply(e, insert);
    if (insert) {
      model.add(e);
    } else {
      model.remove(e);
    }
  }

  /** {@code below}, with the layer's changes laid over it. */
  private static TreeSet<byte[]> effective(NavigableSet<byte[]> below, ChangeBuffer layer) {
    TreeSet<byte[]> s = new TreeSet<>(below);
    for (Map.Entry<byte[], Boolean> c : layer.changes()) {
      if (c.getValue()) {
        assertThat(s.add(c.getKey())).as("buffered insert of a present entry").isTrue();
      } else {
        assertThat(s.remove(c.getKey())).as("buffered delete of an absent entry").isTrue();
      }
    }
    return s;
  }

  // ---- checks ----

  /** Every entry of a cursor from its current position on. */
  private static List<byte[]> rest(BufferedCursor c) {
    List<byte[]> out = new ArrayList<>();
    for (boolean on = c.valid(); on; on = c.next()) {
      out.add(c.entry());
    }
    return out;
  }

  private static List<byte[]> forward(BufferedCursor c) {
    c.first();
    return rest(c);
  }

  /**
   * Full walks both ways, and walks from many seek keys both ways, against {@code model}; every
   * entry's rid, prefix and comparison checked on the way.
   */
  private void checkAll(
      ChangeBuffer[] layers, NavigableSet<byte[]> model, SplittableRandom rnd, String what) {
    BufferedCursor f = new BufferedCursor(tree, layers, false);
    BufferedCursor r = new BufferedCursor(tree, layers, true);
    assertFullWalks(f, r, model, what);

    // Keys to seek: mostly near the model's entries, some of the entries the layers hide.
    List<byte[]> keyList = new ArrayList<>(Arrays.asList(keyPool(rnd, 50)));
    int i = 0;
    for (byte[] e : model) {
      if (i++ % 3 == 0) {
        keyList.add(Arrays.copyOf(e, 8));
      }
    }
    byte[][] keys = keyList.toArray(new byte[0][]);
    List<byte[]> absent = new ArrayList<>();
    TreeCursor t = tree.cursor();
    for (boolean on = t.first(); on; on = t.next()) {
      if (!model.contains(t.entry())) {
        absent.add(t.entry());
      }
    }
    for (ChangeBuffer layer : layers) {
      for (Map.Entry<byte[], Boolean> c : layer.changes()) {
        if (!model.contains(c.getKey())) {
          absent.add(c.getKey());
        }
      }
    }
    for (int n = 0; n < 400; n++) {
      assertSeek(f, r, model, probe(rnd, keys, model, absent), Integer.MAX_VALUE, what);
    }
  }
}
