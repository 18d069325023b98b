package dev.idxkit.idxbuild.sort;

import static dev.idxkit.idxbuild.sort.TestEntries.assertSameEntries;
import static dev.idxkit.idxbuild.sort.TestEntries.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.testing.Seeds;
import dev.idxkit.idxbuild.sort.TestEntries.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link EntryBuffer}'s sort against {@code Arrays.sort} with an unsigned comparator, over entry
 * shapes chosen to hit each path of the prefix sort. {@code -Dtests.multiplier=N} sorts N times as
 * many entries.
 */
class EntryBufferTest {
  private static final int MULTIPLIER = Integer.getInteger("tests.multiplier", 1);
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());

  @ParameterizedTest
  @EnumSource(Shape.class)
  void sortEqualsModelForEachShape(Shape shape) {
    SplittableRandom rnd = Seeds.random(seed);
    for (int n : new int[] {0, 1, 2, 3, 17, 33, 200, 5_000, 20_000 * MULTIPLIER}) {
      List<byte[]> in =
          TestEntries.entries(rnd, shape == Shape.LONG ? Math.min(n, 2000) : n, shape);
      check(in, "shape " + shape + ", n " + in.size());
    }
  }

  @Test
  void sortEqualsModelForMixedShapes() {
    SplittableRandom rnd = Seeds.random(seed);
    for (int round = 0; round < 3; round++) {
      List<byte[]> in =
          TestEntries.entries(
              rnd,
              (10_000 + rnd.nextInt(10_000)) * MULTIPLIER,
              Shape.RANDOM,
              Shape.FEW_KEYS,
              Shape.TINY_ZEROS,
              Shape.LONG_COMMON_PREFIX,
              Shape.DUPLICATES);
      check(in, "mixed round " + round);
    }
  }

  @Test
  void entriesThatDifferOnlyInZeroPaddingAndLength() {
    // prefix8 pads with zeros: these all share one prefix and differ only in length or late bytes.
    List<byte[]> in = new ArrayList<>();
    for (int len = 0; len <= 24; len++) {
      in.add(new byte[len]);
      byte[] tail = new byte[len + 1];
      tail[len] = 1;
      in.add(tail);
    }
    for (int copy = 0; copy < 3; copy++) {
      in.addAll(new ArrayList<>(in));
    }
    Collections.shuffle(in, new Random(seed));
    check(in, "zero padding");
  }

  /** Generated lists per run: as many as the jqwik property this replaces tried. */
  private static final int SAMPLES = 200;

  @Test
  void sortEqualsModelForSmallGeneratedLists() {
    // Lists of up to 300 entries of up to 20 bytes; each list draws its bytes from one alphabet,
    // so the narrow ones make long equal prefixes, zero padding and duplicates common.
    SplittableRandom rnd = Seeds.random(seed);
    for (int sample = 0; sample < SAMPLES; sample++) {
      int n = sample == 0 ? 0 : rnd.nextInt(301);
      byte[] alphabet = ALPHABETS[rnd.nextInt(ALPHABETS.length)];
      List<byte[]> in = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        byte[] e = new byte[rnd.nextInt(21)];
        for (int j = 0; j < e.length; j++) {
          e[j] =
              alphabet == null ? (byte) rnd.nextInt(256) : alphabet[rnd.nextInt(alphabet.length)];
        }
        in.add(e);
      }
      check(in, "generated sample " + sample);
    }
  }

  /** Byte alphabets for generated entries; null stands for all 256 values. */
  private static final byte[][] ALPHABETS = {
    null, {0}, {0, 1}, {0, 1, (byte) 0x7F, (byte) 0x80, (byte) 0xFF}, {(byte) 0xFF, (byte) 0xFE}
  };

  @Test
  void fullBufferRefusesAndAddsNothing() {
    EntryBuffer b = new EntryBuffer(1024);
    byte[] e = new byte[40]; // 40 + 16 = 56 bytes each: 18 fit in 1024
    int added = 0;
    while (b.add(e)) {
      added++;
      e[0]++;
    }
    assertThat(added).isEqualTo(18);
    assertThat(b.size()).isEqualTo(18);
    assertThat(b.bytesUsed()).isEqualTo(18 * 56L);
    assertThat(b.bytesAllocated()).isLessThanOrEqualTo(b.capacity());
    assertThat(b.add(new byte[2000])).isFalse();
    assertThat(b.size()).isEqualTo(18);
    b.sort();
    assertThat(drain(b.source())).hasSize(18);
  }

  @Test
  void entriesWrittenInPlaceSortLikeAddedOnes() {
    SplittableRandom rnd = Seeds.random(seed);
    List<byte[]> in = TestEntries.entries(rnd, 5_000 * MULTIPLIER, Shape.RANDOM, Shape.DUPLICATES);
    int longest = 0;
    for (byte[] e : in) {
      longest = Math.max(longest, e.length);
    }
    EntryBuffer b = new EntryBuffer(1024 + (long) in.size() * (longest + 16));
    for (byte[] e : in) {
      if (rnd.nextBoolean()) {
        assertThat(b.add(e)).isTrue();
        continue;
      }
      if (rnd.nextInt(8) == 0) {
        // A reserve not committed adds nothing, whatever was written there.
        int at = b.reserve(longest);
        Arrays.fill(b.array(), at, at + longest, (byte) 0x77);
      }
      // Reserved for the longest entry, as the scan does, then committed at its own length.
      int at = b.reserve(longest);
      assertThat(at).as(repro).isNotNegative();
      System.arraycopy(e, 0, b.array(), at, e.length);
      b.commit(e.length);
    }
    assertThat(b.size()).isEqualTo(in.size());
    b.sort();
    assertSameEntries(drain(b.source()), TestEntries.sorted(in), "in place; " + repro);
  }

  /**
   * Scan-shaped entries (index id, a NULL marker and an int key, a RID) written as a scan worker
   * writes a page's entries of one index: in runs, added by {@code commitRun} when all have one
   * length, by a commit each when a NULL shortened one. Some runs' RIDs fall (in one run or from
   * the run before): the buffer must then leave the packed sort in arrival order, or equal keys
   * come out of RID order. The same entries, committed one at a time into a second buffer, must
   * pack the same way and sort the same.
   */
  @Test
  void entriesCommittedAsRunsPackAndSortLikeOneByOne() {
    SplittableRandom rnd = Seeds.random(seed);
    for (int round = 0; round < 40; round++) {
      boolean nulls = round % 4 == 1;
      boolean falling = round % 4 == 2;
      List<byte[]> in = new ArrayList<>();
      EntryBuffer runs = new EntryBuffer(1L << 20);
      EntryBuffer single = new EntryBuffer(1L << 20);
      long rid = 1 + rnd.nextInt(1000);
      while (in.size() < 2_000 && runs.room(15) > 64) {
        int count = 1 + rnd.nextInt(64);
        if (falling && rnd.nextInt(8) == 0) {
          rid -= 1 + rnd.nextInt(200); // the run starts below the last one's end
        }
        int at = runs.reserveRun(count, 15);
        assertThat(at).as(repro).isNotNegative();
        int[] lengths = new int[count];
        boolean oneLength = true;
        for (int j = 0; j < count; j++) {
          byte[] e = scanEntry(rnd, nulls && rnd.nextInt(50) == 0, rid);
          rid += falling && rnd.nextInt(100) == 0 ? -5 : 1 + rnd.nextInt(3);
          System.arraycopy(e, 0, runs.array(), at, e.length);
          at += e.length;
          lengths[j] = e.length;
          oneLength &= e.length == 15;
          in.add(e);
          int one = single.reserve(15);
          System.arraycopy(e, 0, single.array(), one, e.length);
          single.commit(e.length);
        }
        if (oneLength) {
          runs.commitRun(count, 15);
        } else {
          for (int len : lengths) {
            runs.commit(len);
          }
        }
      }
      assertThat(runs.size()).as(repro).isEqualTo(in.size());
      runs.packInArrivalOrder();
      single.packInArrivalOrder();
      assertThat(runs.isPacked())
          .as("packed as the one-by-one buffer; round " + round + repro)
          .isEqualTo(single.isPacked());
      if (!nulls && !falling) {
        assertThat(runs.isPacked()).as("one length, growing RIDs: packed; " + repro).isTrue();
      }
      runs.sort();
      assertSameEntries(drain(runs.source()), TestEntries.sorted(in), "round " + round + repro);
    }
  }

  /**
   * A cleared buffer starts its RID order afresh: entries whose RIDs lie below the last load's, or
   * above 2^63 (compared unsigned), still pack in arrival order. A buffer of one entry is sorted
   * without a sort, whether the entry came alone or as a run of one; two are not.
   */
  @Test
  void aClearedBufferStartsItsRidOrderAfreshAndOneEntryIsSorted() {
    SplittableRandom rnd = Seeds.random(seed);
    EntryBuffer b = new EntryBuffer(1L << 20);
    long[] firstRids = {1_000_000, 10, Long.MIN_VALUE + 5, 3};
    for (int round = 0; round < firstRids.length; round++) {
      b.clear();
      assertThat(b.isSorted()).as("empty; " + repro).isTrue();
      long rid = firstRids[round];
      List<byte[]> in = new ArrayList<>();
      for (int count : new int[] {1, 3, 40}) {
        int at = b.reserveRun(count, 15);
        for (int j = 0; j < count; j++) {
          byte[] e = scanEntry(rnd, false, rid++);
          System.arraycopy(e, 0, b.array(), at + 15 * j, 15);
          in.add(e);
        }
        b.commitRun(count, 15);
        assertThat(b.isSorted()).as("%d entries; %s", in.size(), repro).isEqualTo(in.size() == 1);
      }
      b.packInArrivalOrder();
      assertThat(b.isPacked()).as("round %d: one length, growing RIDs; %s", round, repro).isTrue();
      b.sort();
      assertSameEntries(drain(b.source()), TestEntries.sorted(in), "round " + round + repro);
    }
    EntryBuffer one = new EntryBuffer(1L << 20);
    one.add(scanEntry(rnd, false, 7));
    assertThat(one.isSorted()).as("one entry added alone; " + repro).isTrue();
    assertThat(drain(one.source())).hasSize(1);
  }

  /** {@code u16 id || NOT NULL marker || int key || rid}, or with a NULL key: 11 bytes. */
  private static byte[] scanEntry(SplittableRandom rnd, boolean nullKey, long rid) {
    java.nio.ByteBuffer e = java.nio.ByteBuffer.allocate(nullKey ? 11 : 15).putShort((short) 7);
    if (nullKey) {
      e.put((byte) 0);
    } else {
      e.put((byte) 1).putInt(rnd.nextInt(40)); // few keys: equal keys' order is their RIDs'
    }
    return e.putLong(rid).array();
  }

  @Test
  void roomCountsTheReservesThatFitAndRunsCheckTheirReservation() {
    SplittableRandom rnd = Seeds.random(seed);
    for (int round = 0; round < 50; round++) {
      EntryBuffer b = new EntryBuffer(1024 + rnd.nextInt(100_000));
      int len = 1 + rnd.nextInt(200);
      int room = b.room(len);
      int fitted = 0;
      while (b.reserve(len) >= 0) {
        b.commit(len);
        fitted++;
      }
      assertThat(fitted).as("len " + len + "; " + repro).isEqualTo(room);
      assertThat(b.room(len)).isZero();
      assertThat(b.reserveRun(1, len)).isEqualTo(-1);
    }
    EntryBuffer c = new EntryBuffer(1024);
    assertThat(c.reserveRun(18, 40)).as("18 of 40 + 16 bytes fit in 1024").isZero();
    assertThatThrownBy(() -> c.commitRun(19, 40))
        .as("more entries than reserved")
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> c.commitRun(18, 41))
        .as("more bytes than reserved")
        .isInstanceOf(IllegalStateException.class);
    c.commitRun(17, 40);
    c.commit(40);
    assertThatThrownBy(() -> c.commit(0))
        .as("all committed")
        .isInstanceOf(IllegalStateException.class);
    assertThat(c.size()).isEqualTo(18);
    assertThat(c.reserveRun(1, 1)).as("1008 of 1024 bytes used").isEqualTo(-1);
    assertThatThrownBy(() -> c.reserveRun(0, 8)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reserveRefusesPastCapacityAndCommitChecksTheReservation() {
    EntryBuffer b = new EntryBuffer(1024);
    int added = 0;
    int at;
    while ((at = b.reserve(40)) >= 0) { // 40 + 16 bytes each: 18 fit in 1024
      b.array()[at] = (byte) added;
      b.commit(40);
      added++;
    }
    assertThat(added).isEqualTo(18);
    assertThat(b.size()).isEqualTo(18);
    assertThat(b.bytesUsed()).isEqualTo(18 * 56L);
    assertThat(b.bytesAllocated()).isLessThanOrEqualTo(b.capacity());

    EntryBuffer c = new EntryBuffer(1024);
    assertThatThrownBy(() -> c.commit(1)).isInstanceOf(IllegalStateException.class);
    int again = c.reserve(8);
    assertThatThrownBy(() -> c.commit(9)).isInstanceOf(IllegalStateException.class);
    c.array()[again] = 42;
    c.commit(1);
    assertThatThrownBy(() -> c.commit(1))
        .as("one commit per reserve")
        .isInstanceOf(IllegalStateException.class);
    assertThat(c.size()).isEqualTo(1);
    c.sort();
    assertThat(drain(c.source())).containsExactly(new byte[] {42});
  }

  @Test
  void allocationNeverExceedsCapacity() {
    SplittableRandom rnd = Seeds.random(seed);
    for (int round = 0; round < 20; round++) {
      long cap = 1024 + rnd.nextInt(400_000);
      EntryBuffer b = new EntryBuffer(cap);
      List<byte[]> in = new ArrayList<>();
      while (true) {
        byte[] e = TestEntries.bytes(rnd, rnd.nextInt(rnd.nextBoolean() ? 20 : 3000));
        if (!b.add(e)) {
          assertThat(b.bytesUsed() + e.length + EntryBuffer.INDEX_BYTES_PER_ENTRY)
              .as(repro)
              .isGreaterThan(cap);
          break;
        }
        in.add(e);
        if (b.bytesAllocated() > cap) {
          throw new AssertionError(
              b.bytesAllocated() + " bytes allocated > capacity " + cap + "; " + repro);
        }
      }
      b.sort();
      assertSameEntries(drain(b.source()), TestEntries.sorted(in), repro);
    }
  }

  @Test
  void fillingToTheExactCapacityOnlyDoublesTheArena() {
    // A buffer sized for exactly these entries, lengths mixed: filling it must cost a logarithmic
    // number of reallocations (a split of the budget between two arrays would trade slack back
    // and forth near the end and copy on almost every add).
    SplittableRandom rnd = Seeds.random(seed);
    List<byte[]> in = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; i < 200_000; i++) {
      byte[] e = TestEntries.bytes(rnd, i % 2 == 0 ? 4 : rnd.nextInt(200));
      in.add(e);
      bytes += e.length + EntryBuffer.INDEX_BYTES_PER_ENTRY;
    }
    EntryBuffer b = new EntryBuffer(bytes);
    for (byte[] e : in) {
      if (!b.add(e)) {
        throw new AssertionError("refused entry " + b.size() + "; " + repro);
      }
    }
    assertThat(b.bytesUsed()).isEqualTo(bytes);
    assertThat(b.bytesAllocated()).isEqualTo(bytes);
    assertThat(b.add(new byte[0])).isFalse();
    // 64 KB doubling to ~15 MB: 9 growths, plus one clipped to the capacity
    assertThat(b.growths()).isLessThanOrEqualTo(64 - Long.numberOfLeadingZeros(bytes / 65536) + 2);
    b.sort();
    assertSameEntries(drain(b.source()), TestEntries.sorted(in), repro);
  }

  @Test
  void anArenaStartsAtTheBytesExpected() {
    SplittableRandom rnd = Seeds.random(seed);
    long cap = 4 << 20;
    // Expected to fill: allocated once, at its capacity, and filled without growing.
    EntryBuffer full = new EntryBuffer(cap, 10L << 20);
    assertThat(full.bytesAllocated()).as("nothing before the first entry").isZero();
    List<byte[]> in = new ArrayList<>();
    byte[] e;
    while (full.add(e = TestEntries.bytes(rnd, 20))) {
      in.add(e);
    }
    assertThat(full.bytesAllocated()).isEqualTo(cap);
    assertThat(full.growths()).isEqualTo(1);
    full.sort();
    assertSameEntries(drain(full.source()), TestEntries.sorted(in), "seed " + seed);
    // Expected to hold little: starts at 64 KiB (the least), grows by doubling when more comes.
    EntryBuffer small = new EntryBuffer(cap, 1000);
    small.add(new byte[10]);
    assertThat(small.bytesAllocated()).isEqualTo(64 << 10);
    while (small.bytesUsed() < (100 << 10)) {
      small.add(TestEntries.bytes(rnd, 20));
    }
    assertThat(small.bytesAllocated()).isEqualTo(128 << 10);
    assertThat(small.growths()).isEqualTo(2);
  }

  @Test
  void clearReusesAndResortWorks() {
    SplittableRandom rnd = Seeds.random(seed);
    EntryBuffer b = new EntryBuffer(4 << 20);
    for (int round = 0; round < 4; round++) {
      b.clear();
      assertThat(b.size()).isZero();
      assertThat(b.bytesUsed()).isZero();
      List<byte[]> in = TestEntries.entries(rnd, 3000, Shape.FEW_KEYS, Shape.RANDOM);
      in.forEach(b::add);
      b.sort();
      b.sort(); // sorting twice must reload the prefixes the first sort overwrote
      // adding after a sort unsorts; the next sort covers old and new entries
      List<byte[]> more = TestEntries.entries(rnd, 500, Shape.TINY_ZEROS);
      more.forEach(b::add);
      assertThat(b.isSorted()).isFalse();
      assertThatThrownBy(b::source).isInstanceOf(IllegalStateException.class);
      b.sort();
      List<byte[]> all = new ArrayList<>(in);
      all.addAll(more);
      assertSameEntries(drain(b.source()), TestEntries.sorted(all), repro);
    }
  }

  @Test
  void rangeSourceMatchesModel() {
    SplittableRandom rnd = Seeds.random(seed);
    List<byte[]> in = TestEntries.entries(rnd, 5_000, Shape.RANDOM, Shape.DUPLICATES);
    EntryBuffer b = TestEntries.buffer(in);
    List<byte[]> model = TestEntries.sorted(in);
    for (int i = 0; i < 100; i++) {
      byte[] from = rnd.nextInt(5) == 0 ? null : bound(rnd, model);
      byte[] to = rnd.nextInt(5) == 0 ? null : bound(rnd, model);
      List<byte[]> expected = new ArrayList<>();
      for (byte[] e : model) {
        if ((from == null || Arrays.compareUnsigned(e, from) >= 0)
            && (to == null || Arrays.compareUnsigned(e, to) < 0)) {
          expected.add(e);
        }
      }
      assertSameEntries(drain(b.source(from, to)), expected, repro);
    }
  }

  @Test
  void rejectsBadCapacity() {
    assertThatThrownBy(() -> new EntryBuffer(10))
        .hasMessage("capacityBytes : 10 (expected: 1024.." + EntryBuffer.MAX_CAPACITY + ")");
  }

  static byte[] bound(SplittableRandom rnd, List<byte[]> model) {
    if (rnd.nextBoolean()) {
      return model.get(rnd.nextInt(model.size())).clone(); // an existing entry
    }
    return TestEntries.bytes(rnd, rnd.nextInt(10));
  }

  @Test
  void compactKeepsTheSortedEntriesAndTheirRanges() {
    SplittableRandom rnd = Seeds.random(seed);
    List<byte[]> in =
        TestEntries.entries(rnd, 5_000, Shape.RANDOM, Shape.DUPLICATES, Shape.LONG_COMMON_PREFIX);
    EntryBuffer b = new EntryBuffer(1 << 22);
    for (byte[] e : in) {
      assertThat(b.add(e)).isTrue();
    }
    b.sort();
    b.compact();
    List<byte[]> expected = TestEntries.sorted(in);
    assertThat(b.bytesAllocated())
        .as("exactly the entries and their pairs")
        .isEqualTo(b.bytesUsed());
    assertSameEntries(drain(b.source()), expected, "whole; " + repro);
    byte[] from = expected.get(1000);
    byte[] to = expected.get(4000);
    assertSameEntries(
        drain(b.source(from, to)),
        expected.subList(firstAtOrAbove(expected, from), firstAtOrAbove(expected, to)),
        "range; " + repro);
    // Still a buffer: cleared, refilled and sorted again.
    b.clear();
    List<byte[]> again = TestEntries.entries(rnd, 300, Shape.RANDOM);
    for (byte[] e : again) {
      assertThat(b.add(e)).isTrue();
    }
    b.sort();
    assertSameEntries(drain(b.source()), TestEntries.sorted(again), "refilled; " + repro);
  }

  private static int firstAtOrAbove(List<byte[]> sorted, byte[] key) {
    int i = 0;
    while (i < sorted.size() && Arrays.compareUnsigned(sorted.get(i), key) < 0) {
      i++;
    }
    return i;
  }

  private void check(List<byte[]> in, String what) {
    long bytes = 1024;
    for (byte[] e : in) {
      bytes += e.length + EntryBuffer.INDEX_BYTES_PER_ENTRY;
    }
    EntryBuffer b = new EntryBuffer(bytes);
    for (byte[] e : in) {
      if (!b.add(e, 0, e.length)) {
        throw new AssertionError(
            "buffer sized for the entries refused one; " + what + "; " + repro);
      }
    }
    assertThat(b.size()).isEqualTo(in.size());
    b.sort();
    assertSameEntries(drain(b.source()), TestEntries.sorted(in), what + "; " + repro);
  }

  /**
   * Scan entries packed in arrival order ({@link EntryBuffer#packInArrivalOrder}) are read only
   * after a sort, which then gives what sorting them at once gives, compacted or not; an entry
   * added after the packing joins them.
   */
  @Test
  void entriesPackedInArrivalOrderSortLikeEntriesSortedAtOnce() {
    SplittableRandom rnd = Seeds.random(seed);
    for (int round = 0; round < 12; round++) {
      List<byte[]> in = new ArrayList<>();
      long rid = rnd.nextInt(1 << 20);
      for (int i = 0, n = 1 + rnd.nextInt(5000); i < n; i++) {
        byte[] e = new byte[2 + 4 + 8];
        e[1] = 3;
        int key = rnd.nextInt(1 << (1 + rnd.nextInt(24)));
        for (int k = 0; k < 4; k++) {
          e[2 + k] = (byte) (key >>> (24 - 8 * k));
        }
        rid += 1 + rnd.nextInt(70);
        dev.idxkit.core.Rid.write(rid, e, 6);
        in.add(e);
      }
      EntryBuffer b = new EntryBuffer(1L << 20);
      in.forEach(b::add);
      b.packInArrivalOrder();
      String what = "round " + round + ", " + in.size() + " entries; " + repro;
      assertThat(b.isPacked()).as(what).isTrue();
      if (round % 3 == 1) {
        b.compact();
      } else if (round % 3 == 2) {
        byte[] late = in.get(rnd.nextInt(in.size())).clone();
        late[5] ^= 1;
        in.add(late);
        assertThat(b.add(late)).as(what).isTrue();
      }
      if (!b.isSorted()) {
        assertThatThrownBy(b::source).as(what).isInstanceOf(IllegalStateException.class);
      }
      b.sort();
      assertSameEntries(drain(b.source()), TestEntries.sorted(in), what);
    }
  }

  /**
   * Entries whose varying key bytes and RID pass 64 bits cannot be packed: packInArrivalOrder then
   * sorts them as sort would, and they read back in order.
   */
  @Test
  void entriesThatCannotBePackedAreSortedByPackInArrivalOrder() {
    SplittableRandom rnd = Seeds.random(seed);
    List<byte[]> in = new ArrayList<>();
    EntryBuffer b = new EntryBuffer(1L << 20);
    for (int i = 0; i < 3000; i++) {
      byte[] e = new byte[2 + 12 + 8];
      for (int k = 2; k < 14; k++) {
        e[k] = (byte) rnd.nextInt(256);
      }
      dev.idxkit.core.Rid.write(1000 + i, e, 14);
      in.add(e);
      b.add(e);
    }
    b.packInArrivalOrder();
    assertThat(b.isPacked()).as(repro).isFalse();
    assertThat(b.isSorted()).as(repro).isTrue();
    assertSameEntries(drain(b.source()), TestEntries.sorted(in), repro);
  }
}
