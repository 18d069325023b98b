package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.spi.Keys;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.testing.Seeds;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeSet;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/**
 * A leaf written from keys that are all as long ({@link Cells#writeTo} by way of {@link
 * NodeImage#appendFixed}) is byte for byte the page {@link NodeImage#appendAll} writes from the
 * same keys looked up one by one, in both node formats, whichever way the keys came into the cells
 * (in batches, one at a time, after {@link Cells#keepLast} and {@link Cells#truncate}; each way the
 * cells know the keys' common length, which sends writeTo the fixed way); keys of mixed lengths,
 * and a branch's, still take {@link NodeImage#appendAll}.
 */
class CellsFixedTest {
  private static final int PAGE = 4096;
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());

  @Test
  void fixedLengthLeavesAreTheSamePagesAsKeyByKey() {
    SplittableRandom r = Seeds.random(seed);
    int[] suffixes = new int[2]; // pages whose suffixes were under 8 bytes, and 8 or more
    for (int round = 0; round < 400; round++) {
      int format = r.nextBoolean() ? Node.FORMAT_1 : Node.FORMAT_2;
      int len = 8 + r.nextInt(40);
      int n = 1 + r.nextInt(Math.max(1, (PAGE - 200) / (len + 8)));
      byte[][] keys = sortedKeys(r, n, len);
      Cells cells = new Cells(PAGE);
      fill(cells, keys, r);
      int from = r.nextInt(n);
      int to = from + 1 + r.nextInt(n - from);
      String what = "round " + round + ", format " + format + ", len " + len + "; " + repro;
      Page viaCells = leaf(format);
      cells.writeTo(viaCells, format, from, to);
      Page keyByKey = leaf(format);
      Node.reset(
          keyByKey, format, cells.array(), cells.offset(from), cells.prefixFor(format, from, to));
      NodeImage.appendAll(keyByKey, cells, from, to);
      assertThat(bytes(viaCells)).as(what).isEqualTo(bytes(keyByKey));
      assertThat(Node.count(viaCells)).as(what).isEqualTo(to - from);
      suffixes[len - cells.prefixFor(format, from, to) < Long.BYTES ? 0 : 1]++;
    }
    assertThat(suffixes).as("short and long suffixes tried; " + repro).doesNotContain(0);
  }

  @Test
  void mixedLengthsAndBranchesAreWrittenKeyByKey() {
    Cells cells = new Cells(PAGE);
    cells.add(key(0x10, 12), 0, 12, 0);
    cells.add(key(0x20, 16), 0, 16, 0);
    assertThat(cells.stride()).isEqualTo(-1);
    Page p = leaf(Node.FORMAT_2);
    cells.writeTo(p, Node.FORMAT_2, 0, 2);
    assertThat(Node.keyLength(p, 0)).isEqualTo(12);
    assertThat(Node.keyLength(p, 1)).isEqualTo(16);

    Cells seps = new Cells(PAGE);
    seps.add(key(0x30, 12), 0, 12, 7);
    seps.add(key(0x40, 12), 0, 12, 9);
    Page b = new Page(BytesStore.wrap(new byte[PAGE]), 0, PAGE);
    b.format(PageType.BRANCH, 2, 1);
    Node.init(b, 1, Node.FORMAT_2);
    Node.setFirstChild(b, 5);
    seps.writeTo(b, Node.FORMAT_2, 0, 2);
    assertThat(Node.child(b, 1)).isEqualTo(7);
    assertThat(Node.child(b, 2)).isEqualTo(9);
  }

  /** The keys into {@code cells} in order, by one of the ways the builders and splits add them. */
  private static void fill(Cells cells, byte[][] keys, SplittableRandom r) {
    int len = keys[0].length;
    switch (r.nextInt(3)) {
      case 0 -> {
        byte[] all = new byte[keys.length * len];
        for (int i = 0; i < keys.length; i++) {
          System.arraycopy(keys[i], 0, all, i * len, len);
        }
        int at = 0;
        while (at < keys.length) {
          int batch = Math.min(keys.length - at, 1 + r.nextInt(64));
          cells.addFixed(all, at * len, batch, len);
          at += batch;
        }
      }
      case 1 -> {
        for (byte[] k : keys) {
          cells.add(k, 0, len, 0);
        }
      }
      default -> {
        // A key of another length first, then keepLast (the builder's next leaf), and a key taken
        // back by truncate (a split's left half).
        cells.add(new byte[len + 1], 0, len + 1, 0);
        cells.add(keys[0], 0, len, 0);
        cells.keepLast();
        for (int i = 1; i < keys.length; i++) {
          cells.add(keys[i], 0, len, 0);
        }
        cells.add(new byte[len], 0, len, 0);
        cells.truncate(keys.length);
      }
    }
    assertThat(cells.stride()).as("the keys' common length").isEqualTo(len);
  }

  /**
   * {@code n} distinct sorted keys of {@code len} bytes sharing a random number of leading bytes.
   */
  private static byte[][] sortedKeys(SplittableRandom r, int n, int len) {
    byte[] lead = new byte[len];
    r.nextBytes(lead);
    int shared = r.nextInt(len - 2);
    TreeSet<byte[]> set = new TreeSet<>(Keys::compare);
    while (set.size() < n) {
      byte[] k = lead.clone();
      for (int i = shared; i < len; i++) {
        k[i] = (byte) r.nextInt(256);
      }
      set.add(k);
    }
    return set.toArray(new byte[0][]);
  }

  private static byte[] key(int first, int len) {
    byte[] k = new byte[len];
    Arrays.fill(k, (byte) first);
    return k;
  }

  private static Page leaf(int format) {
    Page p = new Page(BytesStore.wrap(new byte[PAGE]), 0, PAGE);
    p.format(PageType.LEAF, 3, 1);
    Node.init(p, 0, format);
    return p;
  }

  private static byte[] bytes(Page p) {
    byte[] b = new byte[p.size()];
    p.getBytes(0, b, 0, b.length);
    return b;
  }
}
