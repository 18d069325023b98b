package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.KeyTooLongException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.TreeStats;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.testing.MemoryPageAccess;
import java.util.Arrays;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Deterministic cases of the {@link BTree} contract; the random ones are in BTreeModelTest. */
class BTreeTest {
  private final MemoryPageAccess pages = new MemoryPageAccess(4096);
  private final BTree tree = new BTree(pages, BTree.create(pages), "t");

  /** 8-byte big-endian key {@code k} followed by rid {@code r}. */
  static byte[] entry(long k, long r) {
    byte[] e = new byte[16];
    Rid.write(k, e, 0);
    Rid.write(r, e, 8);
    return e;
  }

  @Test
  void emptyTree() {
    assertThat(tree.height()).isEqualTo(1);
    assertThat(tree.contains(entry(1, 1))).isFalse();
    assertThat(tree.hasPrefix(new byte[0])).isFalse();
    assertThat(tree.delete(entry(1, 1))).isFalse();
    TreeCursor c = tree.cursor();
    assertThat(c.first()).isFalse();
    assertThat(c.last()).isFalse();
    assertThat(c.seek(new byte[] {1})).isFalse();
    assertThat(c.seekBefore(new byte[] {1})).isFalse();
    assertThat(c.next()).isFalse();
    assertThat(c.valid()).isFalse();
    TreeStats s = Trees.assertHealthy(tree, pages, 0, "");
    assertThat(s.pagesPerLevel()).containsExactly(1L);
    assertThat(s.averageEntrySize()).isZero();
  }

  @ParameterizedTest
  @ValueSource(ints = {4096, 8192, 65536})
  void keyTooLongAboveAQuarterOfTheBody(int pageSize) {
    MemoryPageAccess p = new MemoryPageAccess(pageSize);
    BTree t = new BTree(p, BTree.create(p), "big");
    int max = t.maxEntryLength();
    assertThat(max)
        .isEqualTo((pageSize - Node.HEADER_SIZE) / 4)
        .isEqualTo(BTree.maxEntryLength(pageSize));
    assertThatThrownBy(() -> t.insert(new byte[max + 1]))
        .isInstanceOfSatisfying(
            KeyTooLongException.class,
            e -> {
              assertThat(e.index()).isEqualTo("big");
              assertThat(e.length()).isEqualTo(max + 1);
              assertThat(e.max()).isEqualTo(max);
            });
    // Enough maximal entries, in ascending order, for splits on two levels: the pages hold three
    // each, and entries 3k + 2 and 3k + 3 (the last of a page and the first of the next) differ
    // only in the RID, so the separators are long; no three in a row share a prefix to store once.
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    for (int i = 0; i < 40; i++) {
      byte[] e = new byte[max];
      Arrays.fill(e, (byte) 7);
      e[0] = (byte) ((i + 1) / 3);
      Rid.write(i, e, max - 8);
      t.insert(e);
      model.add(e);
    }
    assertThat(t.height()).isGreaterThan(2);
    Trees.assertHealthy(t, p, model.size(), "");
    Trees.assertSameEntries(t, model, "");
    for (byte[] e : model) {
      assertThat(t.delete(e)).isTrue();
    }
    assertThat(p.livePages()).isEqualTo(1);
  }

  @Test
  void emptyEntryIsRejected() {
    assertThatThrownBy(() -> tree.insert(new byte[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1..");
  }

  @Test
  void duplicateInsertIsACallerBug() {
    tree.insert(entry(5, 1));
    assertThatThrownBy(() -> tree.insert(entry(5, 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already in index t");
    tree.insert(entry(5, 2)); // same key, other rid: a different entry
    assertThat(tree.contains(entry(5, 1))).isTrue();
    assertThat(tree.contains(entry(5, 2))).isTrue();
    Trees.assertHealthy(tree, pages, 2, "");
  }

  @Test
  void insertOverloadWithOffset() {
    byte[] buf = new byte[40];
    byte[] e = entry(9, 3);
    System.arraycopy(e, 0, buf, 11, e.length);
    tree.insert(buf, 11, e.length);
    assertThat(tree.contains(e)).isTrue();
  }

  @Test
  void ascendingInsertsSplitAtTheRightEdgeAndPackLeaves() {
    for (int i = 0; i < 60_000; i++) {
      tree.insert(entry(i, i));
    }
    TreeStats s = Trees.assertHealthy(tree, pages, 60_000, "");
    assertThat(s.leafFillPercent()).isGreaterThan(95);
    assertThat(tree.height()).isEqualTo(3);
  }

  @Test
  void descendingAndAlternatingInsertsStayCorrect() {
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    for (int i = 0; i < 10_000; i++) {
      byte[] e = entry(i % 2 == 0 ? 1_000_000 - i : i, 0);
      tree.insert(e);
      model.add(e);
    }
    TreeStats s = Trees.assertHealthy(tree, pages, model.size(), "");
    assertThat(s.leafFillPercent()).isGreaterThan(45);
    Trees.assertSameEntries(tree, model, "");
  }

  @Test
  void rootSplitsThenCollapsesAndNoPageLeaks() {
    long first = tree.root();
    int n = 0;
    while (tree.height() < 3) {
      tree.insert(entry(n * 31L % 100_003, n));
      n++;
    }
    assertThat(tree.root()).isNotEqualTo(first);
    Trees.assertHealthy(tree, pages, n, "");
    for (int i = 0; i < n; i++) {
      assertThat(tree.delete(entry(i * 31L % 100_003, i))).isTrue();
    }
    assertThat(tree.height()).isEqualTo(1);
    assertThat(pages.livePages()).isEqualTo(1);
    Trees.assertHealthy(tree, pages, 0, "");
  }

  @Test
  void separatorsArePrefixTruncated() {
    // Keys differ in their first byte and share a 200-byte tail: separators need 1 byte.
    for (int i = 0; i < 200; i++) {
      byte[] e = new byte[208];
      Arrays.fill(e, (byte) 0x55);
      e[0] = (byte) i;
      Rid.write(i, e, 200);
      tree.insert(e);
    }
    assertThat(tree.height()).isEqualTo(2);
    Page root = pages.read(tree.root());
    assertThat(Node.count(root)).isGreaterThan(3);
    for (int i = 0; i < Node.count(root); i++) {
      assertThat(Node.keyLength(root, i)).isEqualTo(1);
    }
    Trees.assertHealthy(tree, pages, 200, "");
  }

  @Test
  void separatorThatIsAPrefixOfTheRightEntry() {
    // Left page ends with "aaa...", right starts with "aaa...\0": the separator must extend the
    // left key by one byte, and entries equal to the separator must still be found on the right.
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    for (int len = 1; len <= 600; len++) {
      byte[] e = new byte[len];
      Arrays.fill(e, (byte) 'a');
      model.add(e);
      tree.insert(e);
      byte[] z = Arrays.copyOf(e, len + 1); // e || 0x00, the next entry up
      model.add(z);
      tree.insert(z);
    }
    assertThat(tree.height()).isGreaterThan(1);
    Trees.assertHealthy(tree, pages, model.size(), "");
    Trees.assertSameEntries(tree, model, "");
    for (byte[] e : model) {
      assertThat(tree.contains(e)).isTrue();
      assertThat(tree.hasPrefix(e)).isTrue();
    }
  }

  @Test
  void hasPrefixLooksIntoTheNextLeaf() {
    for (int i = 0; i < 5000; i++) {
      tree.insert(entry(i * 2L, 1));
    }
    for (int i = 0; i < 5000; i++) {
      assertThat(tree.hasPrefix(Arrays.copyOf(entry(i * 2L, 0), 8))).isTrue();
      assertThat(tree.hasPrefix(Arrays.copyOf(entry(i * 2L + 1, 0), 8))).isFalse();
    }
  }

  @Test
  void cursorReadsAndIsInvalidatedByModification() {
    for (int i = 0; i < 3000; i++) {
      tree.insert(entry(i, Rid.of(i, i % 7)));
    }
    TreeCursor c = tree.cursor();
    assertThat(c.seek(Arrays.copyOf(entry(1234, 0), 8))).isTrue();
    assertThat(c.rid()).isEqualTo(Rid.of(1234, 1234 % 7));
    assertThat(c.startsWith(Arrays.copyOf(entry(1234, 0), 8))).isTrue();
    assertThat(c.seekBefore(entry(0, 0))).isFalse();
    assertThat(c.seekBefore(entry(1, 0))).isTrue();
    assertThat(c.entry()).isEqualTo(entry(0, Rid.of(0, 0)));
    assertThat(c.prev()).isFalse();
    assertThat(c.valid()).isFalse();

    assertThat(c.last()).isTrue();
    tree.insert(entry(5000, 1));
    assertThat(c.valid()).isFalse();
    assertThatThrownBy(c::next)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("seek again");
    assertThatThrownBy(c::entry).isInstanceOf(IllegalStateException.class);
    assertThat(c.last()).isTrue();
    assertThat(c.entry()).isEqualTo(entry(5000, 1));
  }

  @Test
  void forEachPageVisitsChildrenBeforeParentsSoTheyCanBeFreed() {
    for (int i = 0; i < 60_000; i++) {
      tree.insert(entry(i * 7919L % 60_013, 0));
    }
    assertThat(tree.height()).isGreaterThan(2);
    tree.forEachPage(pages::free);
    assertThat(pages.livePages()).isZero();
  }
}
