package dev.idxkit.idxbuild.sort;

import static dev.idxkit.idxbuild.sort.TestEntries.assertSameEntries;
import static dev.idxkit.idxbuild.sort.TestEntries.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Rid;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Packed scan buffers given one layout ({@link PackedMerge#unify}) merge as longs into exactly the
 * sorted entries of all of them, whole and in key ranges, against {@code Arrays.sort}: buffers
 * whose varying bytes, constant bytes, pages and slots differ, as two scan threads' buffers of one
 * group do; and unify declines (leaving the buffers readable) when one layout would pass 64 bits or
 * a buffer is not packed.
 */
class PackedMergeTest {
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());

  /** A buffer of {@code rows} scan entries from page {@code page} on, keys from {@code keys}. */
  private static EntryBuffer buffer(
      SplittableRandom r,
      int rows,
      long page,
      int keyBytes,
      long keyMask,
      int maxSlot,
      int indexes,
      List<byte[]> all) {
    return buffer(r, rows, page, 0, keyBytes, keyMask, maxSlot, indexes, all);
  }

  /** {@link #buffer} with {@code pad} constant zero bytes before each key. */
  private static EntryBuffer buffer(
      SplittableRandom r,
      int rows,
      long page,
      int pad,
      int keyBytes,
      long keyMask,
      int maxSlot,
      int indexes,
      List<byte[]> all) {
    EntryBuffer b = new EntryBuffer(1L << 24);
    int slot = -1;
    for (int row = 0; row < rows; row++) {
      if (slot >= maxSlot || r.nextInt(20) == 0) {
        page += 1 + r.nextInt(3);
        slot = 0;
      } else {
        slot++;
      }
      byte[] e = new byte[2 + pad + keyBytes + Rid.BYTES];
      e[1] = (byte) (4 + r.nextInt(indexes)); // a group's buffers hold several indexes' entries
      long key = r.nextLong() & keyMask;
      for (int i = 0; i < keyBytes; i++) {
        e[2 + pad + i] = (byte) (key >>> (8 * (keyBytes - 1 - i)));
      }
      Rid.write(Rid.of(page, slot), e, 2 + pad + keyBytes);
      all.add(e);
      assertThat(b.add(e)).isTrue();
    }
    b.sort();
    b.compact();
    return b;
  }

  /**
   * The entries of {@code merge}, checking that what it says each shares with the one before it
   * ({@link EntrySource#shared}) is what comparing them finds.
   */
  private static List<byte[]> drainCheckingShared(PackedMerge merge, String what) {
    List<byte[]> out = new ArrayList<>();
    long total = merge.remaining();
    try (merge) {
      while (merge.next()) {
        assertThat(merge.remaining())
            .as("after entry %d, %s", out.size(), what)
            .isEqualTo(total - out.size() - 1);
        byte[] e =
            Arrays.copyOfRange(merge.array(), merge.offset(), merge.offset() + merge.length());
        byte[] prev = out.isEmpty() ? null : out.get(out.size() - 1);
        int expected = prev == null ? -1 : Arrays.mismatch(prev, e);
        assertThat(merge.shared()).as("entry %d, %s", out.size(), what).isEqualTo(expected);
        out.add(e);
      }
      assertThat(out).as(what).hasSize((int) total);
      assertThat(merge.remaining()).as(what).isZero();
      assertThat(merge.next()).as("next after the end, " + what).isFalse();
    }
    return out;
  }

  /**
   * {@link PackedMerge#fill}, in batches of any size after a first {@code next()}, gives the
   * entries (less their index id) and the shared byte counts that {@code next()} gives one at a
   * time; it is offered only when no entry's index id differs from another's. Keys short enough to
   * unpack in a few stores ({@link PackedForm.ShortKey}) and keys past them (25 constant bytes
   * before the key: more than its three words) both come.
   */
  @Test
  void fillGivesWhatNextGives() {
    SplittableRandom r = Seeds.random(seed);
    int[] filled = new int[2]; // rounds filled byte by byte, in a few stores
    for (int round = 0; round < 40; round++) {
      int pad = r.nextInt(3) == 0 ? 25 : 0;
      int keyBytes = 1 + r.nextInt(8);
      int indexes = r.nextInt(4) == 0 ? 2 : 1;
      List<byte[]> all = new ArrayList<>();
      List<EntryBuffer> buffers = new ArrayList<>();
      long page = r.nextInt(1 << 20);
      long mask = (1L << (8 * (1 + r.nextInt(3)))) - 1;
      for (int i = 0, k = 1 + r.nextInt(6); i < k; i++) {
        buffers.add(buffer(r, 1 + r.nextInt(3000), page, pad, keyBytes, mask, 60, indexes, all));
        page += 10_000 + r.nextInt(100_000);
      }
      String what = "round " + round + "; " + repro;
      PackedMerge.Group group = PackedMerge.unify(buffers);
      if (group == null) {
        continue;
      }
      List<byte[]> expected = drainCheckingShared(group.merge(null, null), what);
      boolean oneIndex = expected.stream().allMatch(e -> e[1] == expected.get(0)[1]);
      try (PackedMerge merge = group.merge(null, null)) {
        assertThat(merge.next()).as(what).isTrue();
        assertThat(merge.fillsWithout(2)).as(what).isEqualTo(oneIndex);
        if (!oneIndex) {
          continue;
        }
        filled[PackedForm.ShortKey.of(group.layout(), 2) == null ? 0 : 1]++;
        int len = merge.length() - 2;
        int max = 1 + r.nextInt(300);
        byte[] out = merge.fillArray(max, 2);
        int[] shared = new int[max];
        int i = 1;
        while (i < expected.size()) {
          int count = Math.min(expected.size() - i, 1 + r.nextInt(max));
          merge.fill(out, 2, shared, count);
          for (int j = 0; j < count; j++, i++) {
            byte[] want = expected.get(i);
            assertThat(Arrays.copyOfRange(out, j * len, (j + 1) * len))
                .as("entry %d, %s", i, what)
                .isEqualTo(Arrays.copyOfRange(want, 2, want.length));
            assertThat(shared[j])
                .as("shared, entry %d, %s", i, what)
                .isEqualTo(Arrays.mismatch(expected.get(i - 1), want) - 2);
          }
        }
        assertThat(merge.remaining()).as(what).isZero();
      }
    }
    assertThat(filled)
        .as("rounds filled byte by byte and in a few stores; " + repro)
        .doesNotContain(0);
  }

  /** fill needs fillArray for its skip first: that is where it chooses how to unpack. */
  @Test
  void fillRefusesASkipFillArrayWasNotMadeFor() {
    SplittableRandom r = Seeds.random(seed);
    List<byte[]> all = new ArrayList<>();
    List<EntryBuffer> buffers = List.of(buffer(r, 100, 7, 4, 0xFFFF, 60, 1, all));
    try (PackedMerge merge = PackedMerge.unify(buffers).merge(null, null)) {
      assertThat(merge.next()).isTrue();
      byte[] out = new byte[64 * merge.length()];
      assertThatThrownBy(() -> merge.fill(out, 2, new int[64], 10))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("after fillArray");
      byte[] made = merge.fillArray(64, 0);
      assertThatThrownBy(() -> merge.fill(made, 2, new int[64], 10))
          .isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void unifiedBuffersMergeAsTheModel() {
    SplittableRandom r = Seeds.random(seed);
    for (int round = 0; round < 40; round++) {
      int keyBytes = 1 + r.nextInt(8);
      List<byte[]> all = new ArrayList<>();
      List<EntryBuffer> buffers = new ArrayList<>();
      int k = 1 + r.nextInt(9);
      long page = r.nextInt(1 << 20);
      boolean sameBytes = r.nextBoolean(); // as buffers of one group usually are: only RIDs move
      int indexes = r.nextInt(3) == 0 ? 3 : 1;
      long shared = (1L << (8 * (1 + r.nextInt(3)))) - 1;
      for (int i = 0; i < k; i++) {
        // Each buffer varies in a different subset of the key's low bytes, or all in the same.
        long mask = r.nextInt(4) == 0 ? 0 : (1L << (8 * (1 + r.nextInt(3)))) - 1;
        mask <<= 8 * r.nextInt(2);
        if (sameBytes) {
          mask = shared; // (random keys: every buffer varies in all these bytes)
        }
        int maxSlot = r.nextBoolean() ? 0 : 1 + r.nextInt(200);
        buffers.add(buffer(r, 1 + r.nextInt(2000), page, keyBytes, mask, maxSlot, indexes, all));
        page += 10_000 + r.nextInt(100_000); // past every page the buffer used: RIDs are unique
      }
      String what = "round " + round + "; " + repro;
      List<byte[]> expected = TestEntries.sorted(all);
      boolean packed = buffers.stream().allMatch(EntryBuffer::isPacked);
      PackedMerge.Group group = PackedMerge.unify(buffers);
      assertThat(group == null || packed).as(what).isTrue();
      if (group == null) {
        continue;
      }
      for (EntryBuffer b : buffers) {
        assertThat(Recode.onlyRidMoves(b.packed().layout(), group.layout()))
            .as("each buffer varies in the common layout's bytes after unify; " + what)
            .isTrue();
      }
      assertSameEntries(drainCheckingShared(group.merge(null, null), what), expected, what);
      int lo = r.nextInt(expected.size());
      int hi = lo + r.nextInt(expected.size() - lo + 1);
      byte[] from = expected.get(lo);
      byte[] to = hi < expected.size() ? expected.get(hi) : null;
      assertSameEntries(
          drainCheckingShared(group.merge(from, to), what),
          expected.subList(lo, hi),
          "range " + what);
      // Each buffer still reads back its own entries.
      List<byte[]> again = new ArrayList<>();
      for (EntryBuffer b : buffers) {
        again.addAll(drain(b.source()));
      }
      assertSameEntries(TestEntries.sorted(again), expected, "buffers after the merges; " + what);
    }
  }

  /**
   * The merge only moves RIDs: a buffer that varies in other key bytes than the layout must have
   * been rewritten by {@link PackedMerge#unify} first, and a merge made without that refuses it.
   */
  @Test
  void aMergeRefusesABufferThatUnifyHasNotRewritten() {
    SplittableRandom r = Seeds.random(seed);
    List<byte[]> all = new ArrayList<>();
    EntryBuffer low = buffer(r, 300, 10, 4, 0xFFL, 40, 1, all); // varies in the last key byte
    EntryBuffer high = buffer(r, 300, 50_000, 4, 0xFF00L, 40, 1, all); // in the one before
    List<PackedEntries> parts = List.of(low.packed(), high.packed());
    PackedEntries.Layout common = PackedEntries.common(parts);
    assertThat(common).as(repro).isNotNull();
    int[] from = {0, 0};
    int[] to = {low.size(), high.size()};
    assertThatThrownBy(() -> new PackedMerge(parts, common, from, to))
        .as(repro)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unify the buffers first");
    PackedMerge.Group group = PackedMerge.unify(List.of(low, high));
    assertSameEntries(
        drainCheckingShared(group.merge(null, null), repro), TestEntries.sorted(all), repro);
  }

  @Test
  void unifyDeclinesWhenOneLayoutPassesSixtyFourBits() {
    SplittableRandom r = Seeds.random(seed);
    List<byte[]> all = new ArrayList<>();
    // 6 varying bytes in the first buffer, the other 2 in the second: 8 + RID bits together.
    EntryBuffer a = buffer(r, 300, 10, 8, 0x0000_FFFF_FFFF_FFFFL, 40, 1, all);
    EntryBuffer b = buffer(r, 300, 5000, 8, 0xFFFF_0000_0000_0000L, 40, 1, all);
    assertThat(a.isPacked() && b.isPacked()).as(repro).isTrue();
    assertThat(PackedMerge.unify(List.of(a, b))).as(repro).isNull();
    List<byte[]> again = new ArrayList<>(drain(a.source()));
    again.addAll(drain(b.source()));
    assertSameEntries(TestEntries.sorted(again), TestEntries.sorted(all), repro);
  }

  /**
   * The merge plays an exhausted buffer as {@code Long.MAX_VALUE}, so a common layout may take 63
   * bits, not 64: seven varying key bytes with 7 slot bits (one page) merge as longs, up to the
   * entry whose long has every bit set; with 8 slot bits unify declines.
   */
  @Test
  void aCommonLayoutTakesAtMostSixtyThreeBits() {
    SplittableRandom r = Seeds.random(seed);
    for (int slots : new int[] {128, 256}) {
      List<byte[]> all = new ArrayList<>();
      EntryBuffer even = new EntryBuffer(1L << 24);
      EntryBuffer odd = new EntryBuffer(1L << 24);
      for (int slot = 0; slot < slots; slot++) {
        byte[] e = new byte[2 + 7 + Rid.BYTES];
        e[1] = 4;
        for (int i = 0; i < 7; i++) {
          e[2 + i] = slot == slots - 1 ? (byte) 0xFF : (byte) r.nextInt(256);
        }
        Rid.write(Rid.of(100, slot), e, 9);
        all.add(e);
        assertThat((slot % 2 == 0 ? even : odd).add(e)).isTrue();
      }
      for (EntryBuffer b : List.of(even, odd)) {
        b.sort();
        b.compact();
        assertThat(b.isPacked()).as(repro).isTrue();
      }
      PackedMerge.Group group = PackedMerge.unify(List.of(even, odd));
      String what = slots + " slots; " + repro;
      if (slots == 128) {
        assertThat(group).as(what).isNotNull();
        assertSameEntries(
            drainCheckingShared(group.merge(null, null), what), TestEntries.sorted(all), what);
      } else {
        assertThat(group).as(what).isNull();
      }
    }
  }
}
