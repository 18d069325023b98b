package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Rid;
import dev.idxkit.core.testing.MemoryPageAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The composition rules, the accounting and the merge of {@link ChangeBuffer}. */
class ChangeBufferTest {
  private final ChangeBuffer buffer = new ChangeBuffer();

  /** 8-byte big-endian key {@code k} followed by rid {@code r}. */
  static byte[] entry(long k, long r) {
    byte[] e = new byte[16];
    Rid.write(k, e, 0);
    Rid.write(r, e, 8);
    return e;
  }

  private static long cost(byte[] e) {
    return ChangeBuffer.OVERHEAD + e.length;
  }

  private static List<byte[]> keys(ChangeBuffer b) {
    List<byte[]> keys = new ArrayList<>();
    for (Map.Entry<byte[], Boolean> c : b.changes()) {
      keys.add(c.getKey());
    }
    return keys;
  }

  @Test
  void emptyBuffer() {
    assertThat(buffer.isEmpty()).isTrue();
    assertThat(buffer.size()).isZero();
    assertThat(buffer.bytes()).isZero();
    assertThat(buffer.change(entry(1, 1))).isNull();
    assertThat(buffer.changes()).isEmpty();
  }

  @Test
  void insertThenDeleteCancels() {
    byte[] e = entry(5, 1);
    buffer.apply(e, true);
    assertThat(buffer.change(e)).isTrue();
    assertThat(buffer.size()).isEqualTo(1);
    assertThat(buffer.bytes()).isEqualTo(cost(e));
    // An equal copy, not the same array: entries are compared by content.
    buffer.apply(entry(5, 1), false);
    assertThat(buffer.change(e)).isNull();
    assertThat(buffer.isEmpty()).isTrue();
    assertThat(buffer.bytes()).isZero();
  }

  @Test
  void deleteThenInsertCancels() {
    byte[] e = entry(5, 1);
    buffer.apply(e, false);
    assertThat(buffer.change(e)).isFalse();
    assertThat(buffer.size()).isEqualTo(1);
    assertThat(buffer.bytes()).isEqualTo(cost(e));
    buffer.apply(entry(5, 1), true);
    assertThat(buffer.change(e)).isNull();
    assertThat(buffer.isEmpty()).isTrue();
    assertThat(buffer.bytes()).isZero();
  }

  @Test
  void cancelledChangeCanBeAppliedAgain() {
    byte[] e = entry(9, 9);
    buffer.apply(e, true);
    buffer.apply(e, false);
    buffer.apply(e, true);
    assertThat(buffer.change(e)).isTrue();
    buffer.apply(e, false);
    buffer.apply(e, false); // nothing buffered: a delete of a tree entry
    assertThat(buffer.change(e)).isFalse();
    assertThat(buffer.size()).isEqualTo(1);
    assertThat(buffer.bytes()).isEqualTo(cost(e));
  }

  @Test
  void sameChangeTwiceThrows() {
    byte[] ins = entry(1, 1);
    byte[] del = entry(2, 2);
    buffer.apply(ins, true);
    buffer.apply(del, false);
    long bytes = buffer.bytes();
    assertThatThrownBy(() -> buffer.apply(entry(1, 1), true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("inserted twice");
    assertThatThrownBy(() -> buffer.apply(entry(2, 2), false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("deleted twice");
    // The failed applies changed nothing.
    assertThat(buffer.change(ins)).isTrue();
    assertThat(buffer.change(del)).isFalse();
    assertThat(buffer.size()).isEqualTo(2);
    assertThat(buffer.bytes()).isEqualTo(bytes);
  }

  @Test
  void changesComeInUnsignedOrder() {
    byte[] high = {(byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 0};
    byte[] low = {0x7f, 0, 0, 0, 0, 0, 0, 0, 0};
    byte[] shorter = {0x7f, 0, 0, 0, 0, 0, 0, 0};
    buffer.apply(high, true);
    buffer.apply(low, false);
    buffer.apply(shorter, true);
    assertThat(keys(buffer)).containsExactly(shorter, low, high);
  }

  @Test
  void bytesCountEntryLengths() {
    byte[] a = new byte[9];
    byte[] b = new byte[40];
    b[0] = 1;
    buffer.apply(a, true);
    buffer.apply(b, false);
    assertThat(buffer.bytes()).isEqualTo(2L * ChangeBuffer.OVERHEAD + 49);
    buffer.apply(a, false);
    assertThat(buffer.bytes()).isEqualTo(ChangeBuffer.OVERHEAD + 40L);
    buffer.apply(b, true);
    assertThat(buffer.bytes()).isZero();
  }

  @Test
  void dropThroughRemovesUpToAndIncludingLast() {
    for (int k = 0; k < 10; k++) {
      buffer.apply(entry(k, 0), k % 2 == 0);
    }
    long before = buffer.bytes();
    buffer.dropThrough(entry(4, 0));
    assertThat(buffer.size()).isEqualTo(5);
    assertThat(buffer.bytes()).isEqualTo(before - 5 * cost(entry(0, 0)));
    assertThat(buffer.change(entry(4, 0))).isNull();
    assertThat(buffer.change(entry(5, 0))).isFalse();
    assertThat(keys(buffer).get(0)).isEqualTo(entry(5, 0));

    // A bound between entries: (6, 0) < (6, 1) < (7, 0).
    buffer.dropThrough(entry(6, 1));
    assertThat(keys(buffer)).containsExactly(entry(7, 0), entry(8, 0), entry(9, 0));

    // A bound below everything drops nothing.
    buffer.dropThrough(entry(0, 0));
    assertThat(buffer.size()).isEqualTo(3);

    buffer.dropThrough(entry(Long.MAX_VALUE, 0));
    assertThat(buffer.isEmpty()).isTrue();
    assertThat(buffer.bytes()).isZero();
  }

  @Test
  void bytesReturnToZeroThroughEveryPath() {
    for (int k = 0; k < 100; k++) {
      buffer.apply(entry(k, k), k % 3 != 0);
    }
    assertThat(buffer.bytes()).isEqualTo(100 * cost(entry(0, 0)));
    for (int k = 0; k < 100; k += 4) {
      buffer.apply(entry(k, k), k % 3 == 0); // cancels
    }
    assertThat(buffer.size()).isEqualTo(75);
    assertThat(buffer.bytes()).isEqualTo(75 * cost(entry(0, 0)));
    buffer.dropThrough(entry(49, 49));
    long left = 0;
    for (Map.Entry<byte[], Boolean> c : buffer.changes()) {
      left += cost(c.getKey());
    }
    assertThat(buffer.bytes()).isEqualTo(left);
    buffer.clear();
    assertThat(buffer.isEmpty()).isTrue();
    assertThat(buffer.bytes()).isZero();
    buffer.apply(entry(1, 1), true);
    assertThat(buffer.bytes()).isEqualTo(cost(entry(1, 1)));
  }

  @Test
  void mergeIntoAppliesTheLowestChangesInBatches() {
    MemoryPageAccess pages = new MemoryPageAccess(4096);
    BTree tree = new BTree(pages, BTree.create(pages), "t");
    TreeSet<byte[]> model = new TreeSet<>(EntryGen.UNSIGNED);
    for (int k = 0; k < 2000; k += 2) {
      tree.insert(entry(k, 1));
      model.add(entry(k, 1));
    }
    // Deletes of every fourth tree entry, inserts of the odd keys in between.
    for (int k = 0; k < 2000; k++) {
      if (k % 4 == 0) {
        buffer.apply(entry(k, 1), false);
        model.remove(entry(k, 1));
      } else if (k % 2 == 1) {
        buffer.apply(entry(k, 1), true);
        model.add(entry(k, 1));
      }
    }
    int changes = buffer.size();
    assertThat(changes).isEqualTo(1500);

    byte[] last = buffer.mergeInto(tree, 100);
    // The 100 lowest changes: keys 0..132 except those = 2 mod 4 (100 of the 133 keys 0..132).
    assertThat(last).isEqualTo(entry(132, 1));
    // Left in the buffer until dropped.
    assertThat(buffer.size()).isEqualTo(changes);
    assertThat(tree.contains(entry(0, 1))).isFalse();
    assertThat(tree.contains(entry(1, 1))).isTrue();
    assertThat(tree.contains(entry(133, 1))).isFalse();
    assertThat(tree.contains(entry(136, 1))).isTrue();
    buffer.dropThrough(last);
    assertThat(buffer.size()).isEqualTo(changes - 100);

    while (!buffer.isEmpty()) {
      int size = buffer.size();
      last = buffer.mergeInto(tree, 333);
      buffer.dropThrough(last);
      assertThat(buffer.size()).isEqualTo(Math.max(0, size - 333));
    }
    assertThat(buffer.bytes()).isZero();
    assertThat(buffer.mergeInto(tree, 10)).isNull();
    Trees.assertHealthy(tree, pages, model.size(), "");
    Trees.assertSameEntries(tree, model, "");
  }

  @Test
  void mergeIntoWithMaxZeroDoesNothing() {
    MemoryPageAccess pages = new MemoryPageAccess(4096);
    BTree tree = new BTree(pages, BTree.create(pages), "t");
    buffer.apply(entry(1, 1), true);
    assertThat(buffer.mergeInto(tree, 0)).isNull();
    assertThat(tree.contains(entry(1, 1))).isFalse();
    assertThat(buffer.size()).isEqualTo(1);
  }

  @Test
  void mergeOfADeleteOfAnAbsentEntryThrows() {
    MemoryPageAccess pages = new MemoryPageAccess(4096);
    BTree tree = new BTree(pages, BTree.create(pages), "idx");
    tree.insert(entry(1, 1));
    buffer.apply(entry(2, 2), false);
    assertThatThrownBy(() -> buffer.mergeInto(tree, 10))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("idx");
    assertThat(tree.contains(entry(1, 1))).isTrue();
  }

  @Test
  void mergeOfAnInsertOfAPresentEntryThrows() {
    MemoryPageAccess pages = new MemoryPageAccess(4096);
    BTree tree = new BTree(pages, BTree.create(pages), "idx");
    tree.insert(entry(1, 1));
    buffer.apply(entry(1, 1), true);
    assertThatThrownBy(() -> buffer.mergeInto(tree, 10)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void mergeStopsAtTheFirstDisagreement() {
    MemoryPageAccess pages = new MemoryPageAccess(4096);
    BTree tree = new BTree(pages, BTree.create(pages), "idx");
    buffer.apply(entry(1, 1), true);
    buffer.apply(entry(2, 2), false); // absent from the tree
    buffer.apply(entry(3, 3), true);
    assertThatThrownBy(() -> buffer.mergeInto(tree, 10)).isInstanceOf(IllegalStateException.class);
    assertThat(tree.contains(entry(1, 1))).isTrue();
    assertThat(tree.contains(entry(3, 3))).isFalse();
  }
}
