package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Rid;
import dev.idxkit.core.testing.MemoryPageAccess;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Random operations on a {@link BTree} and on a {@code TreeSet} with the same unsigned order, in
 * phases that grow the tree and shrink it again (splits, then merges and collapses), comparing
 * every answer; {@code check} and the page count at intervals; finally everything deleted leaves
 * one page. {@code -Dtests.multiplier=N} runs N times as many operations.
 */
class BTreeModelTest {
  private static final int MULTIPLIER = Integer.getInteger("tests.multiplier", 1);

  @Test
  void smallPages() {
    run(4096, 150_000 * MULTIPLIER, 3);
  }

  /**
   * Two levels at least: node format 2 stores the long prefixes {@link EntryGen}'s keys share once
   * per page, so at 64 KiB these operations grow a third level for some seeds only. Branch splits
   * at 64 KiB are grown on purpose by {@code BTreeTest.keyTooLongAboveAQuarterOfTheBody}.
   */
  @Test
  void largePages() {
    run(65536, 250_000 * MULTIPLIER, 2);
  }

  private void run(int pageSize, int ops, int minHeight) {
    long seed = Seeds.seed();
    String repro = Seeds.reproduce(seed, getClass());
    SplittableRandom rnd = Seeds.random(seed);
    MemoryPageAccess pages = new MemoryPageAccess(pageSize);
    BTree tree = new BTree(pages, BTree.create(pages), "model");
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    EntryGen gen = new EntryGen(rnd, tree.maxEntryLength());
    int phase = Math.max(1000, ops / 6);
    int checkEvery = Math.max(1000, ops / 20);
    int maxHeight = 1;
    try {
      for (int op = 0; op < ops; op++) {
        boolean growing = (op / phase) % 2 == 0;
        int kind = rnd.nextInt(100);
        if (kind < 50) {
          if (rnd.nextInt(100) < (growing ? 75 : 25)) {
            insert(tree, model, gen.next(), rnd, repro);
          } else {
            delete(tree, model, gen, rnd, repro);
          }
        } else if (kind < 65) {
          byte[] e = rnd.nextBoolean() ? pick(model, gen) : gen.next();
          if (e != null) {
            assertThat(tree.contains(e)).as(repro).isEqualTo(model.contains(e));
          }
        } else if (kind < 80) {
          byte[] p = prefixProbe(model, gen, rnd);
          byte[] c = model.ceiling(p);
          assertThat(tree.hasPrefix(p)).as(repro).isEqualTo(c != null && EntryGen.startsWith(c, p));
        } else {
          walk(tree, model, gen, rnd, repro);
        }
        maxHeight = Math.max(maxHeight, tree.height());
        if (op % checkEvery == checkEvery - 1) {
          Trees.assertHealthy(tree, pages, model.size(), repro);
        }
      }
      Trees.assertSameEntries(tree, model, repro);

      List<byte[]> all = new ArrayList<>(model);
      Collections.shuffle(all, new Random(rnd.nextLong()));
      int i = 0;
      for (byte[] e : all) {
        assertThat(tree.delete(e)).as(repro).isTrue();
        model.remove(e);
        if (++i % checkEvery == 0) {
          Trees.assertHealthy(tree, pages, model.size(), repro);
        }
      }
      Trees.assertHealthy(tree, pages, 0, repro);
      assertThat(pages.livePages()).as(repro).isEqualTo(1);
      assertThat(tree.height()).as(repro).isEqualTo(1);
      assertThat(tree.cursor().first()).as(repro).isFalse();
      System.out.printf(
          "pageSize %d: %d ops, max height %d, %s%n", pageSize, ops, maxHeight, repro);
      assertThat(maxHeight)
          .as("the run should grow a tree of " + minHeight + "+ levels, " + repro)
          .isGreaterThanOrEqualTo(minHeight);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(repro + ": " + e.getMessage(), e);
    }
  }

  private static void insert(
      BTree tree, TreeSet<byte[]> model, byte[] e, SplittableRandom rnd, String repro) {
    if (model.add(e)) {
      tree.insert(e);
    } else if (rnd.nextInt(20) == 0) {
      long root = tree.root();
      assertThatThrownBy(() -> tree.insert(e)).as(repro).isInstanceOf(IllegalStateException.class);
      assertThat(tree.root()).as(repro).isEqualTo(root);
    }
  }

  private static void delete(
      BTree tree, TreeSet<byte[]> model, EntryGen gen, SplittableRandom rnd, String repro) {
    byte[] e = rnd.nextInt(10) == 0 ? gen.next() : pick(model, gen);
    if (e != null) {
      assertThat(tree.delete(e)).as(repro).isEqualTo(model.remove(e));
    }
  }

  /** An entry of the model near a random point, or null if it is empty. */
  private static byte[] pick(TreeSet<byte[]> model, EntryGen gen) {
    byte[] k = gen.next();
    byte[] e = model.ceiling(k);
    return e != null ? e : model.floor(k);
  }

  /** A prefix that often matches: a cut of an entry, a key without its rid, or random bytes. */
  private static byte[] prefixProbe(TreeSet<byte[]> model, EntryGen gen, SplittableRandom rnd) {
    byte[] e = rnd.nextInt(4) == 0 ? gen.next() : pick(model, gen);
    if (e == null) {
      e = gen.next();
    }
    int len = rnd.nextInt(3) == 0 ? e.length - Rid.BYTES : rnd.nextInt(e.length + 1);
    byte[] p = Arrays.copyOf(e, len);
    if (len > 0 && rnd.nextInt(5) == 0) {
      p[len - 1]++; // just past a group of entries
    }
    return p;
  }

  /** Positions a cursor as the model would and walks it a few steps, checking every entry. */
  private static void walk(
      BTree tree, TreeSet<byte[]> model, EntryGen gen, SplittableRandom rnd, String repro) {
    TreeCursor c = tree.cursor();
    byte[] expected;
    int how = rnd.nextInt(10);
    if (how == 0) {
      assertThat(c.first()).as(repro).isEqualTo(!model.isEmpty());
      expected = model.isEmpty() ? null : model.first();
    } else if (how == 1) {
      assertThat(c.last()).as(repro).isEqualTo(!model.isEmpty());
      expected = model.isEmpty() ? null : model.last();
    } else {
      byte[] k = rnd.nextBoolean() ? prefixProbe(model, gen, rnd) : gen.next();
      if (how < 6) {
        expected = model.ceiling(k);
        assertThat(c.seek(k)).as(repro).isEqualTo(expected != null);
      } else {
        expected = model.lower(k);
        assertThat(c.seekBefore(k)).as(repro).isEqualTo(expected != null);
      }
    }
    if (expected == null) {
      assertThat(c.valid()).as(repro).isFalse();
      return;
    }
    boolean forward = rnd.nextBoolean();
    Iterator<byte[]> it =
        forward
            ? model.tailSet(expected, true).iterator()
            : model.headSet(expected, true).descendingIterator();
    int steps = 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 500 : 40);
    for (int s = 0; s < steps; s++) {
      if (!it.hasNext()) {
        assertThat(c.valid()).as(repro).isFalse();
        return;
      }
      byte[] e = it.next();
      // Plain checks in the hot loop: AssertJ's builders cost more than the cursor.
      if (!c.valid() || c.entryLength() != e.length || c.compareTo(e) != 0) {
        throw new AssertionError(
            "step " + s + (forward ? " forward" : " back") + ": cursor not on the model's entry");
      }
      if (s == 0) {
        byte[] copy = new byte[e.length + 3];
        assertThat(c.copyEntry(copy, 3)).isEqualTo(e.length);
        assertThat(Arrays.copyOfRange(copy, 3, copy.length)).as(repro).isEqualTo(e);
        assertThat(c.rid()).as(repro).isEqualTo(Rid.read(e, e.length - Rid.BYTES));
        assertThat(c.startsWith(Arrays.copyOf(e, e.length / 2))).as(repro).isTrue();
      }
      if (forward) {
        c.next();
      } else {
        c.prev();
      }
    }
  }
}
