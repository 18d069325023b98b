package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.TreeStats;
import dev.idxkit.core.testing.MemoryPageAccess;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;

/** Assertions shared by the B+tree tests. */
final class Trees {
  private Trees() {}

  /** Pages reachable from the root, each counted once. */
  static long pageCount(BTree tree) {
    long[] n = {0};
    tree.forEachPage(p -> n[0]++);
    return n[0];
  }

  /**
   * {@code check} finds nothing, its figures agree with the model, and every live page of the area
   * belongs to the tree (no leaks).
   */
  static TreeStats assertHealthy(
      BTree tree, MemoryPageAccess pages, long expectedEntries, String repro) {
    List<String> problems = new ArrayList<>();
    TreeStats stats = tree.check(problems::add);
    assertThat(problems).as(repro).isEmpty();
    assertThat(stats.entries()).as(repro).isEqualTo(expectedEntries);
    assertThat(stats.height()).as(repro).isEqualTo(tree.height());
    long reachable = pageCount(tree);
    assertThat(stats.pages()).as(repro).isEqualTo(reachable);
    assertThat((long) pages.livePages())
        .as("live pages vs tree pages, " + repro)
        .isEqualTo(reachable);
    return stats;
  }

  /** A full cursor walk in both directions equals the model. */
  static void assertSameEntries(BTree tree, NavigableSet<byte[]> model, String repro) {
    TreeCursor c = tree.cursor();
    Iterator<byte[]> it = model.iterator();
    boolean on = c.first();
    while (it.hasNext()) {
      byte[] e = it.next();
      assertThat(on).as(repro).isTrue();
      assertThat(c.entry()).as(repro).isEqualTo(e);
      on = c.next();
    }
    assertThat(on).as("entries past the model's last, " + repro).isFalse();
    it = model.descendingIterator();
    on = c.last();
    while (it.hasNext()) {
      assertThat(on).as(repro).isTrue();
      assertThat(c.compareTo(it.next())).as(repro).isZero();
      on = c.prev();
    }
    assertThat(on).as("entries before the model's first, " + repro).isFalse();
  }
}
