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
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The run path of {@link ChangeBuffer}: more than {@link ChangeBuffer#SEAL} changes, transactions'
 * buffers added as runs, runs merged with each other, and partial merges into the tree, against a
 * {@code TreeSet} model of the entries readers must see. The seed is fixed ({@code -Dtests.seed=N}
 * picks another).
 */
class ChangeBufferRunsTest {
  private static final long SEED = Long.getLong("tests.seed", 1812L);

  private final MemoryPageAccess pages = new MemoryPageAccess(4096);
  private final BTree tree = new BTree(pages, BTree.create(pages), "t");
  private final ChangeBuffer committed = new ChangeBuffer();
  // What the tree holds, and what readers of the tree and the committed buffer must see.
  private final TreeSet<byte[]> treeSet = newSet();
  private final TreeSet<byte[]> model = newSet();
  // Every entry ever made, in the tree, inserted or deleted.
  private final List<byte[]> known = new ArrayList<>();
  private final TreeSet<byte[]> knownSet = newSet();

  private SplittableRandom rnd;
  private byte[][] keys;
  private String repro;
  private int maxRuns;
  private int doubleCounted;
  private int mostChanges;

  // ---- randomized: many transactions, some big ones, recovery's direct changes ----

  /**
   * 300 transactions of 1 to 200 changes added to a committed buffer, one of over 4,096 changes
   * (sealed within the transaction) and a burst of direct applies over 4,096 (recovery); the
   * readers' view checked every few additions.
   */
  @Test
  void manyTransactionsAddedAsRuns() {
    start("manyTransactionsAddedAsRuns", 3000);
    int bigTxnRuns = 0;
    try {
      for (int t = 0; t < 300; t++) {
        String what = "after txn " + t;
        if (t == 120) {
          int before = committed.size();
          directBurst(5000);
          assertThat(committed.size()).as(what).isGreaterThan(before);
          checkState(what + " + 5000 direct applies");
        }
        if (t % 41 == 17) {
          directBurst(1 + rnd.nextInt(60)); // a few changes in the map between runs
        }
        ChangeBuffer txn = new ChangeBuffer();
        if (t == 60) {
          fill(txn, 10_000, 55);
          bigTxnRuns = runs(txn);
          assertThat(bigTxnRuns).as("a transaction of 10,000 changes seals").isPositive();
        } else {
          fill(txn, 1 + rnd.nextInt(200), 40);
        }
        if (t % 20 == 0 || t == 60) {
          // The transaction's own layer over the committed one (its changes are in the model).
          checkCursor(new ChangeBuffer[] {committed, txn}, model, what + " (txn's layer over it)");
        }
        committed.addAll(txn);
        maxRuns = Math.max(maxRuns, runs(committed));
        if (t % 10 == 9 || t == 60 || t == 61) {
          checkState(what);
        }
      }
      checkState("at the end");
    } catch (AssertionError | RuntimeException ex) {
      throw new AssertionError(repro + ": " + ex.getMessage(), ex);
    }
    System.out.printf(
        "tree %d, model %d, known %d; committed %d changes (%d composed), %d runs now, at most %d;"
            + " big txn %d runs; double counts seen in %d checks%n",
        treeSet.size(),
        model.size(),
        known.size(),
        committed.size(),
        committed.changes().size(),
        runs(committed),
        maxRuns,
        bigTxnRuns,
        doubleCounted);
    // The test went where it meant to: several runs at once, entries changed in two of them.
    assertThat(maxRuns).as(repro).isGreaterThanOrEqualTo(3);
    assertThat(doubleCounted).as(repro).isPositive();
    assertThat(mostChanges).as(repro).isGreaterThan(ChangeBuffer.SEAL);
  }

  // ---- randomized: partial merges into the tree between additions ----

  @Test
  void partialMergesInterleavedWithAdditions() {
    start("partialMergesInterleavedWithAdditions", 3000);
    // Merges that applied changes (of them, those over two runs or more), and those of a buffer
    // whose changes all cancel.
    int merges = 0;
    int mergesOverRuns = 0;
    int nothingToMerge = 0;
    try {
      for (int t = 0; t < 80; t++) {
        if (t == 30) {
          directBurst(4500);
        }
        ChangeBuffer txn = new ChangeBuffer();
        fill(txn, 1 + rnd.nextInt(200), 40);
        committed.addAll(txn);
      }
      checkState("before merging");
      for (int round = 0; round < 400; round++) {
        String what = "round " + round;
        int op = rnd.nextInt(10);
        if (op < 4 || committed.isEmpty()) {
          ChangeBuffer txn = new ChangeBuffer();
          fill(txn, 1 + rnd.nextInt(op == 0 ? 1000 : 200), 40);
          committed.addAll(txn);
        } else if (op == 4) {
          directBurst(1 + rnd.nextInt(100));
        } else {
          int runs = runs(committed);
          if (mergeStep(1 + rnd.nextInt(rnd.nextInt(3) == 0 ? 500 : 60), what)) {
            merges++;
            mergesOverRuns += runs >= 2 ? 1 : 0;
          } else {
            nothingToMerge++;
          }
        }
        maxRuns = Math.max(maxRuns, runs(committed));
        if (round % 15 == 14) {
          checkState(what);
        }
      }
      // Drain.
      while (!committed.isEmpty()) {
        if (mergeStep(1 + rnd.nextInt(500), "draining")) {
          merges++;
        } else {
          nothingToMerge++;
        }
      }
      checkState("drained");
      assertThat(committed.isEmpty()).isTrue();
      assertThat(committed.size()).isZero();
      assertThat(committed.bytes()).isZero();
      assertThat(committed.changes()).isEmpty();
      assertThat(committed.mergeInto(tree, 10)).isNull();
      for (byte[] e : known) {
        if (committed.change(e) != null) {
          throw new AssertionError("a change of " + hex(e) + " left in the drained buffer");
        }
      }
      assertSameSet(treeSet, model, "the tree after draining");
      Trees.assertSameEntries(tree, model, repro);
      Trees.assertHealthy(tree, pages, model.size(), repro);
    } catch (AssertionError | RuntimeException ex) {
      throw new AssertionError(repro + ": " + ex.getMessage(), ex);
    }
    System.out.printf(
        "%d merges (%d over several runs), %d with nothing to apply; at most %d runs;"
            + " model %d entries%n",
        merges, mergesOverRuns, nothingToMerge, maxRuns, model.size());
    assertThat(merges).as(repro).isGreaterThan(100);
    assertThat(mergesOverRuns).as(repro).isGreaterThan(50);
    assertThat(maxRuns).as(repro).isGreaterThanOrEqualTo(3);
  }

  /**
   * A merge of every buffer first makes each one run ({@link ChangeBuffer#compact}): compactions
   * between transactions' buffers, changes applied directly (the map) and partial merges keep the
   * composed changes and what readers see, leave one run and count nothing twice; the buffer then
   * drains into the tree the model holds.
   */
  @Test
  void compactionKeepsTheComposedChangesInOneRun() {
    start("compactionKeepsTheComposedChangesInOneRun", 3000);
    int compactedOverRuns = 0;
    try {
      for (int round = 0; round < 140; round++) {
        String what = "round " + round;
        ChangeBuffer txn = new ChangeBuffer();
        fill(txn, 1 + rnd.nextInt(300), 40);
        committed.addAll(txn);
        if (round % 10 == 4) {
          directBurst(1 + rnd.nextInt(50)); // left in the map: compact() must take it too
        }
        if (round % 7 == 6) {
          compactedOverRuns += runs(committed) >= 2 ? 1 : 0;
          compactStep(what);
        } else if (round % 5 == 2) {
          mergeStep(1 + rnd.nextInt(200), what);
        }
      }
      compactStep("before draining");
      while (!committed.isEmpty() && mergeStep(1 + rnd.nextInt(500), "draining")) {
        assertThat(runs(committed)).as(repro + ": draining").isLessThanOrEqualTo(1);
      }
      checkState("drained");
      Trees.assertSameEntries(tree, model, repro);
      Trees.assertHealthy(tree, pages, model.size(), repro);
    } catch (AssertionError | RuntimeException ex) {
      throw new AssertionError(repro + ": " + ex.getMessage(), ex);
    }
    assertThat(compactedOverRuns).as(repro + ": compactions of several runs").isGreaterThan(10);
  }

  private void compactStep(String what) {
    what = what + ", compaction";
    List<Map.Entry<byte[], Boolean>> before = committed.changes();
    long bytes = committed.bytes();
    committed.compact();
    assertSameChanges(committed.changes(), before, what);
    assertThat(runs(committed)).as(what + ": runs").isEqualTo(before.isEmpty() ? 0 : 1);
    assertThat(sources(committed)).as(what + ": the map is empty").isEqualTo(runs(committed));
    assertThat(committed.size()).as(what + ": nothing counted twice").isEqualTo(before.size());
    assertThat(committed.bytes()).as(what + ": bytes").isLessThanOrEqualTo(bytes);
    checkState(what);
  }

  /**
   * One merge of up to {@code max} changes and the drop that follows it, checked against the
   * composed changes before it; false when there was nothing to apply (the buffer's changes all
   * cancel: it is then cleared, as the store discards it).
   */
  private boolean mergeStep(int max, String what) {
    what = what + ", merge of " + max;
    List<Map.Entry<byte[], Boolean>> before = committed.changes();
    int size = committed.size();
    long bytes = committed.bytes();
    byte[] last = committed.mergeInto(tree, max);
    int k = Math.min(max, before.size());
    if (k == 0) {
      assertThat(last).as(what).isNull();
      assertThat(committed.size()).as(what).isEqualTo(size);
      if (!committed.isEmpty()) {
        // Changes left that compose to nothing; nothing readers see changes when they go.
        committed.clear();
        checkState(what + ", cleared");
      }
      return false;
    }
    assertThat(last).as(what + ": the last change applied").isEqualTo(before.get(k - 1).getKey());
    for (Map.Entry<byte[], Boolean> c : before.subList(0, k)) {
      if (c.getValue()) {
        treeSet.add(c.getKey());
      } else {
        treeSet.remove(c.getKey());
      }
    }
    // The buffer keeps the changes until they are dropped.
    assertThat(committed.size()).as(what).isEqualTo(size);
    assertThat(committed.bytes()).as(what).isEqualTo(bytes);
    Trees.assertSameEntries(tree, treeSet, what);
    committed.dropThrough(last);
    List<Map.Entry<byte[], Boolean>> after = committed.changes();
    assertSameChanges(after, before.subList(k, before.size()), what + ": changes after the drop");
    assertThat(committed.size()).as(what).isLessThanOrEqualTo(size - k);
    assertThat(committed.bytes()).as(what).isLessThan(bytes);
    assertThat(committed.bytes() == 0).as(what).isEqualTo(committed.isEmpty());
    return true;
  }

  // ---- composition across runs, deterministic ----

  @Test
  void insertThenDeleteInALaterRunLeavesNothing() {
    acrossRuns(false, false);
    acrossRuns(false, true);
  }

  @Test
  void deleteThenInsertInALaterRunLeavesTheTreeEntry() {
    acrossRuns(true, false);
    acrossRuns(true, true);
  }

  /**
   * A transaction changes {@code e} (an insert of an absent entry, or a delete of a tree entry), a
   * later one undoes it; optionally further runs merge them all into one.
   */
  private void acrossRuns(boolean inTree, boolean mergeRuns) {
    String what =
        (inTree ? "delete then insert" : "insert then delete")
            + (mergeRuns ? ", runs merged" : ", runs apart");
    MemoryPageAccess p = new MemoryPageAccess(4096);
    BTree t = new BTree(p, BTree.create(p), "t");
    TreeSet<byte[]> expected = evenTree(t, 4000);
    byte[] e = inTree ? entry(1000, 1) : entry(1001, 1);
    assertThat(t.contains(e)).isEqualTo(inTree);

    ChangeBuffer c = new ChangeBuffer();
    ChangeBuffer t1 = fillers(expected, 10_000, 1000);
    t1.apply(e, !inTree);
    c.addAll(t1);
    ChangeBuffer t2 = new ChangeBuffer();
    t2.apply(e, inTree);
    c.addAll(t2);
    assertThat(runs(c)).as(what).isEqualTo(2);
    assertThat(c.size()).as(what).isEqualTo(1002);
    assertThat(c.change(e)).as(what + ": the newest change").isEqualTo(inTree);
    if (mergeRuns) {
      c.addAll(fillers(expected, 20_000, 1)); // merges with t2's run
      assertThat(runs(c)).as(what).isEqualTo(2);
      c.addAll(fillers(expected, 30_000, 700)); // 700 >= 2 / 2, then 702 >= 1001 / 2
      assertThat(runs(c)).as(what).isEqualTo(1);
      assertThat(c.change(e)).as(what + ": cancelled in the merge").isNull();
      assertThat(c.size()).as(what).isEqualTo(1701);
    }
    assertThat(presence(c, t, e)).as(what).isEqualTo(inTree);
    List<Map.Entry<byte[], Boolean>> changes = c.changes();
    assertThat(changes).as(what).hasSize(mergeRuns ? 1701 : 1000);
    assertThat(mentions(changes, e)).as(what + ": changes() mentions it").isFalse();
    assertSameSet(effective(t, changes), expected, what);
    assertReaders(t, new ChangeBuffer[] {c}, expected, e, what);

    // The first change merged is the first filler, not e (whose key sorts below all of them).
    byte[] last = c.mergeInto(t, 1);
    assertThat(last).as(what).isEqualTo(entry(10_000, 2));
    assertThat(t.contains(e)).as(what).isEqualTo(inTree);
    c.dropThrough(last);
    assertThat(c.change(e)).as(what).isNull();
    assertThat(c.size()).as(what).isEqualTo(changes.size() - 1);
    last = c.mergeInto(t, Integer.MAX_VALUE);
    assertThat(last).as(what).isEqualTo(changes.get(changes.size() - 1).getKey());
    c.dropThrough(last);
    assertThat(c.isEmpty()).as(what).isTrue();
    assertThat(c.bytes()).as(what).isZero();
    assertThat(t.contains(e)).as(what).isEqualTo(inTree);
    Trees.assertSameEntries(t, expected, what);
    Trees.assertHealthy(t, p, expected.size(), what);
  }

  /** Insert, delete, insert (and delete, insert, delete) in three runs, apart and merged. */
  @Test
  void alternatingChangesInThreeRuns() {
    for (boolean mergeRuns : new boolean[] {false, true}) {
      String what = mergeRuns ? "runs merged" : "runs apart";
      MemoryPageAccess p = new MemoryPageAccess(4096);
      BTree t = new BTree(p, BTree.create(p), "t");
      TreeSet<byte[]> expected = evenTree(t, 4000);
      byte[] e = entry(1001, 1); // absent: ends up inserted
      byte[] d = entry(1000, 1); // in the tree: ends up deleted
      ChangeBuffer c = new ChangeBuffer();
      ChangeBuffer t1 = fillers(expected, 10_000, 1000);
      t1.apply(e, true);
      t1.apply(d, false);
      c.addAll(t1);
      ChangeBuffer t2 = fillers(expected, 20_000, 298);
      t2.apply(e, false);
      t2.apply(d, true);
      c.addAll(t2);
      ChangeBuffer t3 = fillers(expected, 30_000, 98);
      t3.apply(e, true);
      t3.apply(d, false);
      c.addAll(t3);
      expected.add(e);
      expected.remove(d);
      assertThat(runs(c)).as(what).isEqualTo(3);
      if (mergeRuns) {
        c.addAll(fillers(expected, 40_000, 200)); // merges everything, one pair after another
        assertThat(runs(c)).as(what).isEqualTo(1);
        assertThat(c.size()).as(what).isEqualTo(1000 + 298 + 98 + 200 + 2);
      } else {
        assertThat(c.size()).as(what).isEqualTo(1000 + 298 + 98 + 6);
      }
      assertThat(c.change(e)).as(what).isTrue();
      assertThat(c.change(d)).as(what).isFalse();
      List<Map.Entry<byte[], Boolean>> changes = c.changes();
      // d and e sort below every filler: the first two composed changes.
      assertThat(changes.get(0).getKey()).isEqualTo(d);
      assertThat(changes.get(0).getValue()).as(what).isFalse();
      assertThat(changes.get(1).getKey()).isEqualTo(e);
      assertThat(changes.get(1).getValue()).as(what).isTrue();
      assertThat(changes).as(what).hasSize(mergeRuns ? 1598 : 1398);
      assertSameSet(effective(t, changes), expected, what);
      assertReaders(t, new ChangeBuffer[] {c}, expected, e, what);

      assertThat(c.mergeInto(t, 2)).as(what).isEqualTo(e);
      assertThat(t.contains(d)).as(what).isFalse();
      assertThat(t.contains(e)).as(what).isTrue();
      c.dropThrough(e);
      assertThat(c.change(d)).isNull();
      assertThat(c.change(e)).isNull();
      c.dropThrough(c.mergeInto(t, Integer.MAX_VALUE));
      assertThat(c.isEmpty()).as(what).isTrue();
      assertThat(c.bytes()).as(what).isZero();
      Trees.assertSameEntries(t, expected, what);
      Trees.assertHealthy(t, p, expected.size(), what);
    }
  }

  /** Two small runs that cancel completely when merged leave no empty run behind. */
  @Test
  void runsThatCancelCompletelyDisappear() {
    MemoryPageAccess p = new MemoryPageAccess(4096);
    BTree t = new BTree(p, BTree.create(p), "t");
    TreeSet<byte[]> expected = evenTree(t, 100);
    ChangeBuffer c = new ChangeBuffer();
    ChangeBuffer t1 = new ChangeBuffer();
    t1.apply(entry(1, 1), true);
    t1.apply(entry(2, 1), false);
    c.addAll(t1);
    ChangeBuffer t2 = new ChangeBuffer();
    t2.apply(entry(2, 1), true);
    t2.apply(entry(1, 1), false);
    c.addAll(t2); // 2 >= 2 / 2: merged, nothing left
    assertThat(runs(c)).isZero();
    assertThat(c.isEmpty()).isTrue();
    assertThat(c.bytes()).isZero();
    assertThat(c.change(entry(1, 1))).isNull();
    assertThat(c.change(entry(2, 1))).isNull();
    assertThat(c.mergeInto(t, 10)).isNull();
    assertReaders(t, new ChangeBuffer[] {c}, expected, entry(1, 1), "cancelled");
    // An empty transaction adds no run.
    c.addAll(new ChangeBuffer());
    assertThat(runs(c)).isZero();
    assertThat(c.isEmpty()).isTrue();
  }

  /**
   * Recovery applies changes one at a time to a buffer with runs: a change in the map undoing one
   * in a run composes away at once for readers, and for good when the map seals and merges.
   */
  @Test
  void directChangesOverARunComposeWhenSealed() {
    MemoryPageAccess p = new MemoryPageAccess(4096);
    BTree t = new BTree(p, BTree.create(p), "t");
    TreeSet<byte[]> expected = evenTree(t, 4000);
    byte[] e = entry(1001, 1);
    byte[] d = entry(1000, 1);
    ChangeBuffer c = new ChangeBuffer();
    ChangeBuffer t1 = fillers(expected, 10_000, 10);
    t1.apply(e, true);
    t1.apply(d, false);
    c.addAll(t1);
    c.apply(e, false);
    c.apply(d, true);
    assertThat(runs(c)).isEqualTo(1);
    assertThat(c.size()).isEqualTo(14);
    assertThat(c.change(e)).isFalse();
    assertThat(c.change(d)).isTrue();
    List<Map.Entry<byte[], Boolean>> changes = c.changes();
    assertThat(changes).hasSize(10);
    assertThat(mentions(changes, e) || mentions(changes, d)).isFalse();
    assertSameSet(effective(t, changes), expected, "before the seal");
    assertReaders(t, new ChangeBuffer[] {c}, expected, e, "before the seal");

    // 4,094 more in the map make 4,096: sealed, and merged with the older run (4,096 >= 12 / 2).
    for (int k = 0; k < ChangeBuffer.SEAL - 2; k++) {
      c.apply(entry(50_000 + k, 3), true);
      expected.add(entry(50_000 + k, 3));
    }
    assertThat(runs(c)).isEqualTo(1);
    assertThat(sources(c)).isEqualTo(1); // the map is empty
    assertThat(c.size()).isEqualTo(10 + ChangeBuffer.SEAL - 2);
    assertThat(c.change(e)).isNull();
    assertThat(c.change(d)).isNull();
    changes = c.changes();
    assertThat(changes).hasSize(c.size());
    assertSameSet(effective(t, changes), expected, "after the seal");
    assertReaders(t, new ChangeBuffer[] {c}, expected, e, "after the seal");
    c.dropThrough(c.mergeInto(t, Integer.MAX_VALUE));
    assertThat(c.isEmpty()).isTrue();
    assertThat(c.bytes()).isZero();
    assertThat(t.contains(e)).isFalse();
    assertThat(t.contains(d)).isTrue();
    Trees.assertSameEntries(t, expected, "after the merge");
    Trees.assertHealthy(t, p, expected.size(), "after the merge");
  }

  /**
   * A buffer whose changes all cancel though none has met its opposite in a merge: not empty, but
   * with nothing to merge ({@code mergeInto} returns null, as the store expects before discarding
   * such a buffer).
   */
  @Test
  void changesThatCancelWithoutAMergeLeaveNothingToMerge() {
    MemoryPageAccess p = new MemoryPageAccess(4096);
    BTree t = new BTree(p, BTree.create(p), "t");
    TreeSet<byte[]> expected = evenTree(t, 4000);
    byte[] e = entry(90_000, 1); // above every filler
    byte[] d = entry(1000, 1);

    // A run undone by changes in the map.
    ChangeBuffer c = new ChangeBuffer();
    ChangeBuffer t1 = new ChangeBuffer();
    t1.apply(e, true);
    t1.apply(d, false);
    c.addAll(t1);
    c.apply(d, true);
    c.apply(e, false);
    assertNothingToMerge(c, t, expected, e, d, "run and map");

    // A run undone by a later one that did not merge with it, the rest of the older one drained
    // (the fillers, all below d and e).
    c = new ChangeBuffer();
    t1 = fillers(expected, 0, 1000);
    t1.apply(e, true);
    t1.apply(d, false);
    c.addAll(t1);
    ChangeBuffer t2 = new ChangeBuffer();
    t2.apply(d, true);
    t2.apply(e, false);
    c.addAll(t2); // 2 < 1002 / 2: apart
    assertThat(runs(c)).isEqualTo(2);
    byte[] last = c.mergeInto(t, Integer.MAX_VALUE);
    assertThat(last).isEqualTo(entry(999, 2));
    assertThat(t.contains(d)).isTrue();
    assertThat(t.contains(e)).isFalse();
    c.dropThrough(last);
    assertThat(runs(c)).isEqualTo(2);
    assertNothingToMerge(c, t, expected, e, d, "two runs");
  }

  private static void assertNothingToMerge(
      ChangeBuffer c, BTree t, TreeSet<byte[]> expected, byte[] e, byte[] d, String what) {
    assertThat(c.isEmpty()).as(what).isFalse();
    assertThat(c.size()).as(what).isEqualTo(4);
    assertThat(c.bytes()).as(what).isPositive();
    assertThat(c.changes()).as(what).isEmpty();
    assertThat(c.change(e)).as(what).isFalse();
    assertThat(c.change(d)).as(what).isTrue();
    assertReaders(t, new ChangeBuffer[] {c}, expected, e, what);
    assertReaders(t, new ChangeBuffer[] {c}, expected, d, what);
    assertThat(c.mergeInto(t, Integer.MAX_VALUE)).as(what).isNull();
    assertThat(t.contains(d)).as(what).isTrue();
    assertThat(t.contains(e)).as(what).isFalse();
    Trees.assertSameEntries(t, expected, what);
    c.clear();
    assertThat(c.isEmpty()).as(what).isTrue();
    assertThat(c.bytes()).as(what).isZero();
  }

  // ---- SortedRun.merge ----

  @Test
  void mergeOfTheSameChangeTwiceThrows() {
    SortedRun older = run(new byte[][] {entry(1, 1), entry(2, 2), entry(3, 3)}, true, false, true);
    SortedRun insertAgain = run(new byte[][] {entry(0, 0), entry(3, 3)}, false, true);
    assertThatThrownBy(() -> SortedRun.merge(older, insertAgain))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("inserted twice");
    SortedRun deleteAgain = run(new byte[][] {entry(2, 2)}, false);
    assertThatThrownBy(() -> SortedRun.merge(older, deleteAgain))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("deleted twice");

    // Through a buffer: the newer run is merged as it is added.
    ChangeBuffer c = new ChangeBuffer();
    ChangeBuffer t1 = new ChangeBuffer();
    t1.apply(entry(5, 5), true);
    c.addAll(t1);
    ChangeBuffer t2 = new ChangeBuffer();
    t2.apply(entry(5, 5), true);
    assertThatThrownBy(() -> c.addAll(t2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("inserted twice");
  }

  @Test
  void mergeComposesInUnsignedOrder() {
    byte[] low = {0x7f, 0, 0, 0, 0, 0, 0, 0, 0};
    byte[] shorter = {0x7f, 0, 0, 0, 0, 0, 0, 0};
    byte[] high = {(byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 0};
    byte[] top = {(byte) 0xff};
    SortedRun older = run(new byte[][] {shorter, low, high}, true, false, true);
    SortedRun newer = run(new byte[][] {low, high, top}, true, false, false);
    SortedRun m = SortedRun.merge(older, newer);
    assertThat(contents(m)).containsExactly(hex(shorter) + "+", hex(top) + "-");
    assertThat(m.bytes()).isEqualTo(shorter.length + top.length + 5L * 2);

    // Dropped entries of either run are not merged back.
    SortedRun o = run(new byte[][] {entry(1, 0), entry(2, 0), entry(4, 0)}, true, true, true);
    SortedRun n = run(new byte[][] {entry(2, 0), entry(3, 0), entry(5, 0)}, false, false, true);
    o.dropThrough(entry(1, 0));
    n.dropThrough(entry(2, 0));
    assertThat(o.live()).isEqualTo(2);
    assertThat(n.live()).isEqualTo(2);
    assertThat(contents(SortedRun.merge(o, n)))
        .containsExactly(
            hex(entry(2, 0)) + "+",
            hex(entry(3, 0)) + "-",
            hex(entry(4, 0)) + "+",
            hex(entry(5, 0)) + "+");
    assertThat(
            SortedRun.merge(o, run(new byte[][] {entry(2, 0), entry(4, 0)}, false, false)).live())
        .isZero();
  }

  private static SortedRun run(byte[][] entries, boolean... inserts) {
    SortedRun.Builder b = new SortedRun.Builder(entries.length, 0);
    for (int i = 0; i < entries.length; i++) {
      b.add(entries[i], 0, entries[i].length, inserts[i]);
    }
    return b.build();
  }

  private static List<String> contents(SortedRun r) {
    List<String> out = new ArrayList<>();
    for (int i = r.start(); i < r.count; i++) {
      out.add(hex(r.entry(i)) + (r.insert(i) ? "+" : "-"));
    }
    return out;
  }

  // ---- generation ----

  /** Fills the tree with {@code treeEntries} random entries, all in the model too. */
  private void start(String test, int treeEntries) {
    repro = Seeds.reproduce(SEED, getClass());
    System.out.println(test + " " + repro);
    rnd = Seeds.random(SEED);
    keys = keyPool(rnd, 800);
    while (treeSet.size() < treeEntries) {
      byte[] e = fresh();
      tree.insert(e);
      treeSet.add(e);
      model.add(e);
    }
    assertThat(tree.height()).isGreaterThan(1);
  }

  /** Entries (k, 1) for the even k below {@code n}, in {@code t} and in the returned set. */
  private static TreeSet<byte[]> evenTree(BTree t, long n) {
    TreeSet<byte[]> s = newSet();
    for (long k = 0; k < n; k += 2) {
      t.insert(entry(k, 1));
      s.add(entry(k, 1));
    }
    return s;
  }

  /** A transaction's buffer of {@code n} inserts of (from + i, 2), added to {@code expected}. */
  private static ChangeBuffer fillers(TreeSet<byte[]> expected, long from, int n) {
    ChangeBuffer b = new ChangeBuffer();
    for (int i = 0; i < n; i++) {
      b.apply(entry(from + i, 2), true);
      expected.add(entry(from + i, 2));
    }
    return b;
  }

  /** A new entry, never made before. */
  private byte[] fresh() {
    while (true) {
      byte[] e = randomEntry(rnd, keys);
      if (knownSet.add(e)) {
        known.add(e);
        return e;
      }
    }
  }

  /** A random entry the model holds, or null if none was found quickly. */
  private byte[] present() {
    for (int i = 0; i < 1000 && !model.isEmpty(); i++) {
      byte[] e = known.get(rnd.nextInt(known.size()));
      if (model.contains(e)) {
        return e;
      }
    }
    return null;
  }

  /** An entry made before that the model does not hold (deleted, or cancelled), else a new one. */
  private byte[] absent() {
    for (int i = 0; i < 20; i++) {
      byte[] e = known.get(rnd.nextInt(known.size()));
      if (!model.contains(e)) {
        return e;
      }
    }
    return fresh();
  }

  /** A change as a caller makes one: an insert of an absent entry, a delete of a present one. */
  private void apply(ChangeBuffer b, byte[] e, boolean insert) {
    if (model.contains(e) == insert) {
      throw new AssertionError("precondition: " + (insert ? "insert" : "delete") + " " + hex(e));
    }
    b.apply(e, insert);
    if (insert) {
      model.add(e);
    } else {
      model.remove(e);
    }
  }

  /**
   * About {@code changes} changes into {@code b}: inserts (some of entries deleted before), deletes
   * of present entries (tree entries, or earlier inserts), pairs that cancel at once, and changes
   * undoing an earlier change of this buffer.
   */
  private void fill(ChangeBuffer b, int changes, int insertPercent) {
    List<byte[]> touched = new ArrayList<>();
    int n = 0;
    while (n < changes) {
      int op = rnd.nextInt(100);
      if (op < insertPercent) {
        byte[] e = rnd.nextInt(4) == 0 ? absent() : fresh();
        apply(b, e, true);
        touched.add(e);
        n++;
      } else if (op < 80) {
        byte[] e = present();
        if (e != null) {
          apply(b, e, false);
          touched.add(e);
          n++;
        }
      } else if (op < 87) {
        byte[] e = rnd.nextBoolean() ? fresh() : absent();
        apply(b, e, true);
        apply(b, e, false);
        n += 2;
      } else if (op < 94) {
        byte[] e = present();
        if (e != null) {
          apply(b, e, false);
          apply(b, e, true);
          n += 2;
        }
      } else if (!touched.isEmpty()) {
        byte[] e = touched.get(rnd.nextInt(touched.size()));
        apply(b, e, !model.contains(e));
        n++;
      }
    }
    mostChanges = Math.max(mostChanges, n);
  }

  /** Changes applied to the committed buffer one at a time, as recovery does. */
  private void directBurst(int changes) {
    fill(committed, changes, 45);
  }

  // ---- checks ----

  /** Runs held by {@code b}: its sources for a cursor, less the map's. */
  private static int runs(ChangeBuffer b) {
    List<ChangeBuffer.Source> out = new ArrayList<>();
    b.sources(out);
    int n = 0;
    for (ChangeBuffer.Source s : out) {
      if (s.getClass().getSimpleName().equals("RunSource")) {
        n++;
      }
    }
    return n;
  }

  private static int sources(ChangeBuffer b) {
    List<ChangeBuffer.Source> out = new ArrayList<>();
    b.sources(out);
    return out.size();
  }

  private static boolean presence(ChangeBuffer b, BTree t, byte[] e) {
    Boolean c = b.change(e);
    return c != null ? c : t.contains(e);
  }

  private static boolean mentions(List<Map.Entry<byte[], Boolean>> changes, byte[] e) {
    for (Map.Entry<byte[], Boolean> c : changes) {
      if (Arrays.equals(c.getKey(), e)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The tree's entries with {@code changes} applied, each an insert of an absent entry or a delete.
   */
  private static TreeSet<byte[]> effective(BTree t, List<Map.Entry<byte[], Boolean>> changes) {
    TreeSet<byte[]> s = newSet();
    TreeCursor c = t.cursor();
    for (boolean on = c.first(); on; on = c.next()) {
      s.add(c.entry());
    }
    return effective(s, changes, "tree");
  }

  private static TreeSet<byte[]> effective(
      NavigableSet<byte[]> below, List<Map.Entry<byte[], Boolean>> changes, String what) {
    TreeSet<byte[]> s = new TreeSet<>(below);
    byte[] prev = null;
    for (Map.Entry<byte[], Boolean> c : changes) {
      byte[] e = c.getKey();
      if (prev != null && Arrays.compareUnsigned(prev, e) >= 0) {
        throw new AssertionError(what + ": changes() out of order at " + hex(e));
      }
      if (c.getValue() ? !s.add(e) : !s.remove(e)) {
        throw new AssertionError(
            what
                + ": composed "
                + (c.getValue() ? "insert of a present" : "delete of an absent")
                + " entry "
                + hex(e));
      }
      prev = e;
    }
    return s;
  }

  private static void assertSameSet(
      NavigableSet<byte[]> actual, NavigableSet<byte[]> expected, String what) {
    Iterator<byte[]> a = actual.iterator();
    Iterator<byte[]> x = expected.iterator();
    while (a.hasNext() && x.hasNext()) {
      byte[] ae = a.next();
      byte[] xe = x.next();
      if (!Arrays.equals(ae, xe)) {
        throw new AssertionError(
            what
                + ": first difference: "
                + hex(ae)
                + ", expected "
                + hex(xe)
                + (expected.contains(ae) ? " (missing the expected)" : " (an extra entry)"));
      }
    }
    if (a.hasNext() || x.hasNext()) {
      throw new AssertionError(
          what
              + ": "
              + actual.size()
              + " entries, expected "
              + expected.size()
              + "; first extra "
              + (a.hasNext() ? hex(a.next()) : "missing " + hex(x.next())));
    }
  }

  private static void assertSameChanges(
      List<Map.Entry<byte[], Boolean>> actual,
      List<Map.Entry<byte[], Boolean>> expected,
      String what) {
    for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
      Map.Entry<byte[], Boolean> a = actual.get(i);
      Map.Entry<byte[], Boolean> x = expected.get(i);
      if (!Arrays.equals(a.getKey(), x.getKey()) || !a.getValue().equals(x.getValue())) {
        throw new AssertionError(
            what
                + ": change "
                + i
                + " is "
                + hex(a.getKey())
                + "="
                + a.getValue()
                + ", expected "
                + hex(x.getKey())
                + "="
                + x.getValue());
      }
    }
    assertThat(actual.size()).as(what).isEqualTo(expected.size());
  }

  /**
   * The committed buffer against the model: its composed changes laid over the tree, change() of
   * every entry ever made and of new ones, the counts, and cursor walks.
   */
  private void checkState(String what) {
    List<Map.Entry<byte[], Boolean>> changes = committed.changes();
    for (Map.Entry<byte[], Boolean> c : changes) {
      if (!c.getValue().equals(committed.change(c.getKey()))) {
        throw new AssertionError(
            what
                + ": changes() has "
                + hex(c.getKey())
                + "="
                + c.getValue()
                + ", change() "
                + committed.change(c.getKey()));
      }
    }
    assertSameSet(effective(treeSet, changes, what), model, what + ": tree + changes()");
    int size = committed.size();
    assertThat(size).as(what + ": size()").isGreaterThanOrEqualTo(changes.size());
    if (size > changes.size()) {
      doubleCounted++;
    }
    assertThat(committed.isEmpty()).as(what).isEqualTo(size == 0);
    assertThat(committed.bytes()).as(what).isNotNegative();
    assertThat(committed.bytes() == 0).as(what + ": bytes() zero").isEqualTo(committed.isEmpty());
    for (byte[] e : known) {
      assertPresence(e, what);
    }
    for (int i = 0; i < 200; i++) {
      assertPresence(randomEntry(rnd, keys), what);
    }
    maxRuns = Math.max(maxRuns, runs(committed));
    checkCursor(new ChangeBuffer[] {committed}, model, what);
  }

  private void assertPresence(byte[] e, String what) {
    Boolean c = committed.change(e);
    boolean seen = c != null ? c : tree.contains(e);
    if (seen != model.contains(e)) {
      throw new AssertionError(
          what
              + ": "
              + hex(e)
              + " change() "
              + c
              + ", in tree "
              + tree.contains(e)
              + ", model "
              + model.contains(e));
    }
  }

  /** Walks over a small tree and buffers, and seeks at and around {@code e}. */
  private static void assertReaders(
      BTree t, ChangeBuffer[] layers, NavigableSet<byte[]> expected, byte[] e, String what) {
    BufferedCursor f = new BufferedCursor(t, layers, false);
    BufferedCursor r = new BufferedCursor(t, layers, true);
    assertFullWalks(f, r, expected, what);
    for (byte[] key : new byte[][] {e, Arrays.copyOf(e, 8), Arrays.copyOf(e, 17), new byte[0]}) {
      assertSeek(f, r, expected, key, 20, what);
    }
  }

  /** Full walks both ways and walks of a few steps from many seek keys, both ways. */
  private void checkCursor(ChangeBuffer[] layers, NavigableSet<byte[]> expected, String what) {
    BufferedCursor f = new BufferedCursor(tree, layers, false);
    BufferedCursor r = new BufferedCursor(tree, layers, true);
    assertFullWalks(f, r, expected, what);
    List<byte[]> absent = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      byte[] e = known.get(rnd.nextInt(known.size()));
      if (!expected.contains(e)) {
        absent.add(e);
      }
    }
    for (int n = 0; n < 300; n++) {
      assertSeek(f, r, expected, probe(rnd, keys, expected, absent), 30, what);
    }
  }
}
