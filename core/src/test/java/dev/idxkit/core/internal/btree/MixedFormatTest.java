package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.Rid;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.internal.txn.StoreOptions;
import dev.idxkit.core.internal.txn.StoreTxn;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageSink;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.core.testing.MemoryPageAccess;
import dev.idxkit.core.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trees written in node format 1, as every database before format 2 holds them, still open, read
 * and change: random inserts and deletes against a {@code TreeSet} model turn pages into format 2
 * where they split or merge and leave the others in format 1, so both formats live in one tree;
 * {@code check} passes on the mix at every step, lookups, prefix probes and cursor walks agree with
 * the model, and deleting everything leaves one page. Once in memory, once through a store on disk
 * (bulk build in format 1, reopened, changed in committed transactions, checkpointed, reopened).
 */
class MixedFormatTest {
  private static final int PAGE = 4096;

  @TempDir Path tmp;

  @Test
  void formatOneTreeInMemory() {
    long seed = Seeds.seed();
    String repro = Seeds.reproduce(seed, getClass());
    SplittableRandom rnd = Seeds.random(seed);
    MemoryPageAccess pages = new MemoryPageAccess(PAGE);
    EntryGen gen = new EntryGen(rnd, Node.maxEntryLength(PAGE));
    TreeSet<byte[]> model = initialEntries(gen);
    MemoryPageSink sink = new MemoryPageSink(pages);
    TreeBuilder b = new TreeBuilder(sink, PAGE, pages.areaId(), 90, "old", Node.FORMAT_1);
    model.forEach(b::add);
    BTree tree = new BTree(pages, b.finish().root(), "old");
    try {
      assertThat(formats(tree)[Node.FORMAT_2]).as(repro).isZero();
      Trees.assertHealthy(tree, pages, model.size(), repro);
      boolean mixed = false;
      for (int round = 0; round < 20; round++) {
        randomChanges(tree, model, gen, rnd, 2_000, round < 10);
        Trees.assertHealthy(tree, pages, model.size(), repro);
        long[] f = formats(tree);
        mixed |= f[Node.FORMAT_1] > 0 && f[Node.FORMAT_2] > 0;
        probes(tree, model, gen, rnd, repro);
      }
      assertThat(mixed)
          .as("format 1 and format 2 pages in one tree at some point, " + repro)
          .isTrue();
      Trees.assertSameEntries(tree, model, repro);
      List<byte[]> all = new ArrayList<>(model);
      Collections.shuffle(all, new Random(rnd.nextLong()));
      for (byte[] e : all) {
        assertThat(tree.delete(e)).as(repro).isTrue();
      }
      Trees.assertHealthy(tree, pages, 0, repro);
      assertThat(pages.livePages()).as(repro).isEqualTo(1);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(repro + ": " + e.getMessage(), e);
    }
  }

  @Test
  void formatOneTreeInAStoreOnDisk() {
    long seed = Seeds.seed();
    String repro = Seeds.reproduce(seed, getClass());
    SplittableRandom rnd = Seeds.random(seed);
    EntryGen gen = new EntryGen(rnd, Node.maxEntryLength(PAGE));
    TreeSet<byte[]> model = initialEntries(gen);
    Path dir = tmp.resolve("db");
    try {
      try (Store s =
          Store.create(
              dir, StoreOptions.defaults().withPageSize(PAGE), Map.of(0, "ix"), new byte[0])) {
        try (BulkWrite bulk = s.beginBulk()) {
          long root;
          try (BulkWrite.Stream out = bulk.stream(0)) {
            TreeBuilder b = new TreeBuilder(sinkOf(out), PAGE, 0, 100, "old", Node.FORMAT_1);
            model.forEach(b::add);
            root = b.finish().root();
          }
          bulk.meta().index(0, new IndexState(root, IndexStatus.ACTIVE));
          bulk.publish();
        }
      }
      boolean mixed = false;
      for (int session = 0; session < 3; session++) {
        try (Store s = Store.open(dir, StoreOptions.defaults())) {
          checkCommitted(s, model, repro);
          for (int txn = 0; txn < 8; txn++) {
            try (StoreTxn t = s.begin(null)) {
              BTree tree = new BTree(t.pages(0), s.meta().index(0).root(), "old");
              randomChanges(tree, model, gen, rnd, 1_500, session < 2);
              t.setRoot(0, tree.root());
              t.commit();
            }
          }
          long[] f = checkCommitted(s, model, repro);
          mixed |= f[Node.FORMAT_1] > 0 && f[Node.FORMAT_2] > 0;
          s.checkpoint();
        }
      }
      assertThat(mixed)
          .as("format 1 and format 2 pages in one tree at some point, " + repro)
          .isTrue();
      try (Store s = Store.open(dir, StoreOptions.defaults())) {
        checkCommitted(s, model, repro);
      }
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(repro + ": " + e.getMessage(), e);
    }
  }

  /** Checks the committed tree against the model; returns its page count per node format. */
  private static long[] checkCommitted(Store s, TreeSet<byte[]> model, String repro) {
    Lock l = s.readLock();
    l.lock();
    try {
      PageAccess pages = s.committedPages(0);
      BTree tree = new BTree(pages, s.meta().index(0).root(), "old");
      List<String> problems = new ArrayList<>();
      assertThat(tree.check(problems::add).entries()).as(repro).isEqualTo(model.size());
      assertThat(problems).as(repro).isEmpty();
      Trees.assertSameEntries(tree, model, repro);
      return formats(tree);
    } finally {
      l.unlock();
    }
  }

  /** Some 6,000 entries: {@link EntryGen}'s mix and runs of 16-byte keys with their RIDs. */
  private static TreeSet<byte[]> initialEntries(EntryGen gen) {
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    while (model.size() < 3_000) {
      model.add(gen.next());
    }
    for (int i = 0; i < 3_000; i++) {
      byte[] e = new byte[16];
      Rid.write(0x1234_0000L + i * 3L, e, 0);
      Rid.write(i, e, 8);
      model.add(e);
    }
    return model;
  }

  /**
   * {@code ops} inserts and deletes, mostly inserts while {@code growing}, mostly deletes after.
   */
  private static void randomChanges(
      BTree tree,
      TreeSet<byte[]> model,
      EntryGen gen,
      SplittableRandom rnd,
      int ops,
      boolean grow) {
    for (int op = 0; op < ops; op++) {
      if (rnd.nextInt(100) < (grow ? 70 : 30)) {
        byte[] e = rnd.nextInt(3) == 0 ? nearby(model, gen, rnd) : gen.next();
        if (model.add(e)) {
          tree.insert(e);
        }
      } else {
        byte[] e = model.ceiling(gen.next());
        if (e != null) {
          assertThat(tree.delete(e)).isTrue();
          model.remove(e);
        }
      }
    }
  }

  /** An entry next to one of the model's: same bytes but the last, which lands in the same page. */
  private static byte[] nearby(TreeSet<byte[]> model, EntryGen gen, SplittableRandom rnd) {
    byte[] e = model.ceiling(gen.next());
    if (e == null) {
      return gen.next();
    }
    e = e.clone();
    e[e.length - 1] += (byte) (1 + rnd.nextInt(3));
    return e;
  }

  /** Point lookups, prefix probes and seeks of present and absent keys agree with the model. */
  private static void probes(
      BTree tree, TreeSet<byte[]> model, EntryGen gen, SplittableRandom rnd, String repro) {
    for (int i = 0; i < 300; i++) {
      byte[] k = rnd.nextBoolean() ? model.ceiling(gen.next()) : gen.next();
      if (k == null) {
        continue;
      }
      assertThat(tree.contains(k)).as(repro).isEqualTo(model.contains(k));
      byte[] p = java.util.Arrays.copyOf(k, rnd.nextInt(k.length + 1));
      byte[] c = model.ceiling(p);
      assertThat(tree.hasPrefix(p)).as(repro).isEqualTo(c != null && EntryGen.startsWith(c, p));
      TreeCursor cur = tree.cursor();
      assertThat(cur.seek(p)).as(repro).isEqualTo(c != null);
      if (c != null) {
        assertThat(cur.entry()).as(repro).isEqualTo(c);
        if (c.length >= Rid.BYTES) {
          assertThat(cur.rid()).as(repro).isEqualTo(Rid.read(c, c.length - Rid.BYTES));
        }
      }
    }
  }

  /** Pages of the tree per node format (index 1 and 2). */
  private static long[] formats(BTree tree) {
    long[] n = new long[3];
    tree.forEachPage(no -> n[Node.format(tree.pages.read(no))]++);
    return n;
  }

  private static PageSink sinkOf(BulkWrite.Stream out) {
    return new PageSink() {
      @Override
      public long allocate() {
        return out.allocate();
      }

      @Override
      public void write(long pageNo, Page page) {
        out.write(pageNo, page);
      }
    };
  }
}
