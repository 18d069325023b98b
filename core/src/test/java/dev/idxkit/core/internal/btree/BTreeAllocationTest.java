package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idxkit.core.Rid;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageSink;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.core.testing.MemoryPageAccess;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hot paths allocate nothing per entry: point lookups, cursor steps, inserts that do not split,
 * and the builder's {@code add}; opening a tree (which {@code Index.get} does per lookup) allocates
 * a few small objects, not page-sized buffers. Measured with the JVM's per-thread allocation
 * counter, after a warm-up pass so class loading does not count.
 */
class BTreeAllocationTest {
  private static final int N = 100_000;

  private com.sun.management.ThreadMXBean threads;

  @BeforeEach
  void counter() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no allocation counter");
    threads = (com.sun.management.ThreadMXBean) bean;
    assumeTrue(
        threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
  }

  private long allocated() {
    return threads.getThreadAllocatedBytes(Thread.currentThread().getId());
  }

  private static void entry(long i, byte[] e) {
    Rid.write(i * 2, e, 0);
    Rid.write(i, e, 8);
  }

  @Test
  void openingATree() {
    MemoryPageAccess pages = new MemoryPageAccess(8192);
    long root = BTree.create(pages);
    byte[] e = new byte[16];
    for (int pass = 0; pass < 2; pass++) {
      long before = allocated();
      for (int i = 0; i < 1000; i++) {
        entry(i, e);
        if (new BTree(pages, root, "alloc").contains(e)) {
          throw new AssertionError("found " + i + " in an empty tree");
        }
      }
      long bytes = allocated() - before;
      if (pass == 1) {
        // The tree, its splitter and rebalancer and the path arrays: a few hundred bytes each.
        assertThat(bytes).as("bytes allocated by opening 1000 trees").isLessThan(1000L * 1024);
      }
    }
  }

  @Test
  void lookupsCursorStepsAndInserts() {
    MemoryPageAccess pages = new MemoryPageAccess(8192);
    BTree tree = new BTree(pages, BTree.create(pages), "alloc");
    byte[] e = new byte[16];
    for (long i = 0; i < N; i++) {
      entry(i, e);
      tree.insert(e);
    }
    TreeCursor c = tree.cursor();
    for (int pass = 0; pass < 2; pass++) {
      long before = allocated();
      for (long i = 0; i < N; i++) {
        entry(i, e);
        if (!tree.contains(e)) {
          throw new AssertionError("missing " + i);
        }
      }
      long lookups = allocated() - before;
      before = allocated();
      long n = 0;
      for (boolean on = c.first(); on; on = c.next()) {
        n += c.entryLength();
      }
      for (boolean on = c.last(); on; on = c.prev()) {
        n -= c.entryLength();
      }
      long steps = allocated() - before;
      assertThat(n).isZero();
      if (pass == 1) {
        assertThat(lookups).as("bytes allocated by %d lookups", N).isLessThan(1024);
        assertThat(steps).as("bytes allocated by %d cursor steps", 2 * N).isLessThan(1024);
      }
    }
    // Inserts between existing entries. The leaves are packed (ascending inserts), so a first
    // round splits each of them once; the measured round then finds room everywhere.
    byte[] odd = new byte[16];
    entry(0, odd);
    for (long i = 25; i < N; i += 50) {
      Rid.write(i * 2 + 1, odd, 0);
      tree.insert(odd);
    }
    int height = tree.height();
    long before = allocated();
    for (long i = 0; i < N; i += 50) {
      Rid.write(i * 2 + 1, odd, 0);
      tree.insert(odd);
    }
    assertThat(allocated() - before).as("bytes allocated by %d inserts", N / 50).isLessThan(1024);
    assertThat(tree.height()).isEqualTo(height);
  }

  @Test
  void builderAdd() {
    PageSink discard =
        new PageSink() {
          long next = 1;

          @Override
          public long allocate() {
            return next++;
          }

          @Override
          public void write(long pageNo, Page page) {}
        };
    byte[] e = new byte[16];
    for (int pass = 0; pass < 2; pass++) {
      TreeBuilder b = new TreeBuilder(discard, 8192, 1, 100, "alloc");
      b.add(new byte[] {0});
      long before = allocated();
      for (long i = 0; i < N; i++) {
        entry(i + 1, e);
        b.add(e, 0, e.length);
      }
      long bytes = allocated() - before;
      b.finish();
      if (pass == 1) {
        // Only the page buffers of new branch levels (one here) may appear.
        assertThat(bytes).as("bytes allocated by %d adds", N).isLessThan(4 * 8192);
      }
    }
  }
}
