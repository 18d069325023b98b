package dev.idxkit.idxbuild.sort;

import static dev.idxkit.idxbuild.sort.TestEntries.assertSameEntries;
import static dev.idxkit.idxbuild.sort.TestEntries.drain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Rid;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link EntryBuffer}'s arrival-order sort (fixed-length entries, RIDs non-decreasing as they came)
 * against {@code Arrays.sort} with an unsigned comparator: the shapes a scan produces (one or
 * several indexes per group, few distinct keys, keys that vary in late bytes), the edges of the
 * 64-bit packing, and the inputs where it must decline and leave the work to the prefix sort.
 */
class ArrivalOrderSortTest {
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());

  /**
   * Entries as the scan makes them: {@code u16 index id || key || rid}, rows in RID order, each row
   * giving one entry per index; {@code distinct} keys per index, {@code keyBytes} long, of which
   * only the last {@code varyingBytes} differ.
   */
  private static List<byte[]> scanEntries(
      SplittableRandom r, int rows, int indexes, int keyBytes, int varyingBytes, int distinct) {
    List<byte[]> out = new ArrayList<>();
    long rid = Rid.of(r.nextInt(1000), 0);
    for (int row = 0; row < rows; row++) {
      rid += 1 + (r.nextInt(4) == 0 ? 1 << 16 : 0); // next slot, sometimes the next page
      for (int ix = 0; ix < indexes; ix++) {
        byte[] e = new byte[2 + keyBytes + Rid.BYTES];
        e[0] = 0;
        e[1] = (byte) (7 + ix);
        long key = r.nextInt(distinct);
        for (int b = 0; b < keyBytes; b++) {
          int fromEnd = keyBytes - 1 - b;
          e[2 + b] = fromEnd < varyingBytes && fromEnd < 8 ? (byte) (key >>> (8 * fromEnd)) : 0x33;
        }
        Rid.write(rid, e, 2 + keyBytes);
        out.add(e);
      }
    }
    return out;
  }

  private EntryBuffer sortInBuffer(List<byte[]> in) {
    long bytes = 1024;
    for (byte[] e : in) {
      bytes += e.length + EntryBuffer.INDEX_BYTES_PER_ENTRY;
    }
    EntryBuffer b = new EntryBuffer(bytes);
    for (byte[] e : in) {
      assertThat(b.add(e)).isTrue();
    }
    b.sort();
    return b;
  }

  @Test
  void scanShapedBuffersSortByArrivalAndMatchTheModel() {
    SplittableRandom r = Seeds.random(seed);
    int[][] shapes = {
      // rows, indexes, key bytes, varying bytes, distinct keys
      {1, 1, 4, 2, 10},
      {2, 1, 4, 2, 1},
      {5_000, 1, 4, 2, 2_500}, // a date index
      {5_000, 1, 9, 3, 100_000}, // a BIGINT foreign key
      {5_000, 1, 18, 5, 1 << 30}, // a two-column key, varying apart
      {3_000, 3, 9, 2, 50}, // three indexes in one group: ids vary too
      {4_000, 1, 4, 1, 1}, // every key equal: RID order is all there is
      {70_000, 1, 5, 2, 300}, // enough entries for 17 bits of arrival number
    };
    for (int[] s : shapes) {
      List<byte[]> in = scanEntries(r, s[0], s[1], s[2], s[3], s[4]);
      EntryBuffer b = sortInBuffer(in);
      String what = java.util.Arrays.toString(s) + "; " + repro;
      assertThat(b.sortedByArrival()).as(what).isTrue();
      assertSameEntries(drain(b.source()), TestEntries.sorted(in), what);
      // Compacted, the fixed-length entries are kept without their pairs, in the same order,
      // for whole and range reads: as the packed longs (8 bytes each and a template) when they
      // fit, else as the entries alone.
      List<byte[]> expected = TestEntries.sorted(in);
      long entryBytes = (long) in.size() * in.get(0).length;
      boolean packed = b.isPacked();
      b.compact();
      if (packed) {
        assertThat(b.bytesUsed())
            .as("compact, packed; %s", what)
            .isBetween(8L * in.size(), 8L * in.size() + 5L * in.get(0).length);
        assertThat(b.bytesAllocated()).as("compact, packed; %s", what).isEqualTo(b.bytesUsed());
      } else {
        assertThat(b.bytesUsed()).as("compact: entries alone; %s", what).isEqualTo(entryBytes);
        assertThat(b.bytesAllocated()).as("compact: entries alone; %s", what).isEqualTo(entryBytes);
      }
      assertSameEntries(drain(b.source()), expected, "compacted " + what);
      if (expected.size() >= 4) {
        int lo = expected.size() / 4;
        int hi = 3 * expected.size() / 4;
        assertSameEntries(
            drain(b.source(expected.get(lo), expected.get(hi))),
            expected.subList(lo, hi),
            "range " + what);
      }
      // An entry added after the compact brings the pairs back; the next sort is the general one.
      byte[] extra = scanEntries(r, 1, 1, s[2], s[3], s[4]).get(0);
      assertThat(b.add(extra)).as(what).isTrue();
      b.sort();
      assertThat(b.sortedByArrival()).as(what).isFalse();
      List<byte[]> more = new ArrayList<>(in);
      more.add(extra);
      assertSameEntries(drain(b.source()), TestEntries.sorted(more), "resorted " + what);
    }
  }

  @Test
  void declinesWhenTheVaryingBytesAndTheArrivalNumberPassSixtyFourBits() {
    SplittableRandom r = Seeds.random(seed);
    // 7 varying key bytes (56 bits) and 2,000 entries (11 bits): 67 bits.
    List<byte[]> in = scanEntries(r, 2_000, 1, 8, 8, Integer.MAX_VALUE);
    for (byte[] e : in) {
      for (int b = 2; b < 10; b++) {
        e[b] = (byte) r.nextInt(256);
      }
    }
    EntryBuffer b = sortInBuffer(in);
    assertThat(b.sortedByArrival()).isFalse();
    assertSameEntries(drain(b.source()), TestEntries.sorted(in), repro);
  }

  /**
   * The packed sort reads the varying key bytes a run of adjacent positions at a time and counts
   * them only once the keys stop coming in order: keys in order all the way (a primary key scanned
   * in key order), in order for a while and then not, varying in runs apart and in one byte alone,
   * and eight varying bytes (one run as wide as the long, possible only while the RIDs take no
   * bits).
   */
  @Test
  void packedSortReadsRunsOfVaryingBytesAndCountsOnlyOnceOutOfOrder() {
    SplittableRandom r = Seeds.random(seed);
    // A BIGINT key growing with the RID: in order from first to last.
    List<byte[]> ascending = scanEntries(r, 5_000, 1, 9, 4, 1);
    long key = 1_000;
    for (byte[] e : ascending) {
      key += r.nextInt(3);
      writeLong(e, 3, key);
    }
    // The same, then random keys from the middle on: counting starts late.
    List<byte[]> thenRandom = new ArrayList<>();
    for (int i = 0; i < ascending.size(); i++) {
      byte[] e = ascending.get(i).clone();
      if (i >= ascending.size() / 2) {
        writeLong(e, 3, 1_000 + r.nextInt(20_000));
      }
      thenRandom.add(e);
    }
    // Two key columns varying apart, and one byte alone: runs at 3-4, 7-8 and 12 (five bytes, with
    // the RIDs of 1,000 rows within 64 bits).
    List<byte[]> apart = scanEntries(r, 1_000, 1, 11, 0, 1);
    for (byte[] e : apart) {
      e[3] = (byte) r.nextInt(4);
      e[4] = (byte) r.nextInt(256);
      e[7] = (byte) r.nextInt(2);
      e[8] = (byte) r.nextInt(256);
      e[12] = (byte) r.nextInt(3);
    }
    // Eight varying key bytes and every RID page 5, slot 0: 64 bits of key, none of RID.
    List<byte[]> wide = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      byte[] e = new byte[2 + 8 + Rid.BYTES];
      e[1] = 9;
      writeLong(e, 2, r.nextLong());
      Rid.write(Rid.of(5, 0), e, 10);
      wide.add(e);
    }
    String[] names = {"ascending", "in order, then random", "runs apart", "eight bytes"};
    List<List<byte[]>> inputs = List.of(ascending, thenRandom, apart, wide);
    for (int i = 0; i < inputs.size(); i++) {
      List<byte[]> in = inputs.get(i);
      EntryBuffer b = sortInBuffer(in);
      String what = names[i] + "; " + repro;
      assertThat(b.isPacked()).as(what).isTrue();
      assertSameEntries(drain(b.source()), TestEntries.sorted(in), what);
    }
  }

  private static void writeLong(byte[] e, int at, long v) {
    for (int b = 0; b < 8; b++) {
      e[at + b] = (byte) (v >>> (56 - 8 * b));
    }
  }

  @Test
  void ridsOutOfOrderOrMixedLengthsTakeThePrefixSort() {
    SplittableRandom r = Seeds.random(seed);
    List<byte[]> descending = scanEntries(r, 3_000, 1, 4, 2, 40);
    java.util.Collections.reverse(descending);
    EntryBuffer b = sortInBuffer(descending);
    assertThat(b.sortedByArrival()).isFalse();
    assertSameEntries(drain(b.source()), TestEntries.sorted(descending), "reversed; " + repro);

    List<byte[]> mixed = scanEntries(r, 3_000, 1, 4, 2, 40);
    mixed.add(java.util.Arrays.copyOf(mixed.get(mixed.size() - 1), 30)); // longer, zero RID tail
    b = sortInBuffer(mixed);
    assertThat(b.sortedByArrival()).isFalse();
    assertSameEntries(drain(b.source()), TestEntries.sorted(mixed), "mixed; " + repro);

    List<byte[]> shortOnes = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      shortOnes.add(new byte[] {(byte) r.nextInt(4), (byte) i});
    }
    b = sortInBuffer(shortOnes);
    assertThat(b.sortedByArrival()).isFalse();
    assertSameEntries(drain(b.source()), TestEntries.sorted(shortOnes), "short; " + repro);
  }

  @Test
  void clearedBufferQualifiesAgain() {
    SplittableRandom r = Seeds.random(seed);
    EntryBuffer b = new EntryBuffer(1 << 20);
    List<byte[]> descending = scanEntries(r, 500, 1, 4, 2, 40);
    java.util.Collections.reverse(descending);
    descending.forEach(b::add);
    b.sort();
    assertThat(b.sortedByArrival()).isFalse();
    b.clear();
    List<byte[]> in = scanEntries(r, 500, 2, 9, 3, 1000);
    in.forEach(b::add);
    b.sort();
    assertThat(b.sortedByArrival()).isTrue();
    assertSameEntries(drain(b.source()), TestEntries.sorted(in), repro);
  }

  /**
   * The packed form against the model at the edges of its 64 bits: no varying key byte, no slot
   * bits or no page bits, varying bytes and RID bits that fill the long exactly or pass it by one
   * (then the pair sorts take over), RIDs spread over many pages; whole and range reads, entryAt,
   * and an add after the compact that unpacks.
   */
  @Test
  void packedEntriesMatchTheModelAtTheEdgesOfTheLong() {
    SplittableRandom r = Seeds.random(seed);
    for (int round = 0; round < 60; round++) {
      int rows = 1 + r.nextInt(3000);
      int keyBytes = 1 + r.nextInt(12);
      int varyingBytes = r.nextInt(Math.min(keyBytes, 8) + 1);
      boolean ascending = r.nextInt(4) == 0;
      int pageStep = r.nextInt(4); // 3: pages far apart
      boolean pageBreaks = r.nextBoolean(); // else a new page only when the slots run out
      int maxSlot = r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(r.nextBoolean() ? 60 : 60_000);
      List<byte[]> in = new ArrayList<>();
      long page = r.nextLong(1L << 40);
      int slot = -1;
      for (int row = 0; row < rows; row++) {
        // RIDs increase strictly, as a scan's do: one entry per row.
        if (slot >= maxSlot || (pageBreaks && slot >= 0 && r.nextInt(10) == 0)) {
          page += pageStep == 3 ? 1 + r.nextLong(1L << 20) : 1 + pageStep;
          slot = 0;
        } else {
          slot++;
        }
        byte[] e = new byte[2 + keyBytes + Rid.BYTES];
        e[1] = 9;
        // Keys in RID order (a primary key loaded in key order) need no sort pass at all.
        long key = ascending ? row / (1 + round % 3) : r.nextLong();
        for (int b = 0; b < keyBytes; b++) {
          int fromEnd = keyBytes - 1 - b;
          e[2 + b] = fromEnd < varyingBytes ? (byte) (key >>> (8 * fromEnd)) : 0x5a;
        }
        Rid.write(Rid.of(page, slot), e, 2 + keyBytes);
        in.add(e);
      }
      EntryBuffer b = sortInBuffer(in);
      String what = "round " + round + "; " + repro;
      List<byte[]> expected = TestEntries.sorted(in);
      assertSameEntries(drain(b.source()), expected, what);
      b.compact();
      assertSameEntries(drain(b.source()), expected, "compacted " + what);
      int i = r.nextInt(expected.size());
      assertThat(b.entryAt(i)).as(what).isEqualTo(expected.get(i));
      int lo = r.nextInt(expected.size());
      int hi = lo + r.nextInt(expected.size() - lo + 1);
      byte[] to = hi < expected.size() ? expected.get(hi) : null;
      List<byte[]> range = drain(b.source(expected.get(lo), to));
      // Equal entries cannot occur (one RID each), so the range is exact.
      assertSameEntries(range, expected.subList(lo, hi), "range " + what);
      byte[] extra = java.util.Arrays.copyOf(in.get(0), in.get(0).length);
      assertThat(b.add(extra)).as(what).isTrue();
      b.sort();
      List<byte[]> more = new ArrayList<>(in);
      more.add(extra);
      assertSameEntries(drain(b.source()), TestEntries.sorted(more), "after an add; " + what);
    }
  }
}
