package dev.idxkit.idxbuild.sort;

import static dev.idxkit.idxbuild.sort.TestEntries.UNSIGNED;
import static dev.idxkit.idxbuild.sort.TestEntries.assertSameEntries;
import static dev.idxkit.idxbuild.sort.TestEntries.drain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Rid;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * {@link GroupSort}: the buffers of one index's group, packed in arrival order as scan workers fill
 * them - workers taking chunks of pages in turn, so their RID ranges interleave - sort as one into
 * exactly the sorted entries of all of them (against {@code Arrays.sort}), read entry by entry or
 * in batches, whole or cut at {@link PackedMerge.Group#bounds}; keys that grow with the RID, keys
 * all equal, and buffers that vary in fewer bytes than the others (a worker's small last buffer)
 * included. It declines, leaving the buffers to be sorted one by one and merged, when a buffer was
 * sorted already or the key varies in more bits than its passes cover.
 */
class GroupSortTest {
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());

  /** How the rows' keys are made. */
  private enum Keys {
    RANDOM,
    GROWING_WITH_THE_RID,
    ALL_EQUAL,
    // Each worker's keys grow, so each buffer is in key order, but the workers' runs overlap: the
    // sort counts its digits only once the walk finds them out of order.
    GROWING_IN_EACH_WORKER
  }

  /**
   * A scan of {@code rows} records by {@code workers} workers that take chunks of 1-20 pages in
   * turn; each worker fills buffers of {@code perBuffer} entries (its last one partly), packs each
   * in arrival order and compacts it, as the scan does for a group sorted as one. Entries: index id
   * 7, a {@code keyBytes}-byte key of {@code keyBits} random bits (or as {@code keys} says), RID.
   */
  private static List<EntryBuffer> scan(
      SplittableRandom r,
      int rows,
      int workers,
      int perBuffer,
      int keyBytes,
      int keyBits,
      Keys keys,
      List<byte[]> all) {
    List<List<EntryBuffer>> byWorker = new ArrayList<>();
    EntryBuffer[] filling = new EntryBuffer[workers];
    for (int w = 0; w < workers; w++) {
      byWorker.add(new ArrayList<>());
    }
    long page = 1 + r.nextInt(1 << 20);
    int row = 0;
    long[] workerKey = new long[workers];
    for (int chunk = 0; row < rows; chunk++) {
      int w = chunk % workers;
      for (int p = 0, pages = 1 + r.nextInt(20); p < pages && row < rows; p++, page++) {
        for (int slot = 0, slots = 1 + r.nextInt(60); slot < slots && row < rows; slot++, row++) {
          byte[] e = new byte[2 + keyBytes + Rid.BYTES];
          e[1] = 7;
          long key =
              switch (keys) {
                case RANDOM -> r.nextLong() & ((1L << keyBits) - 1);
                case GROWING_WITH_THE_RID -> row;
                case ALL_EQUAL -> 42;
                case GROWING_IN_EACH_WORKER ->
                    Math.min((1L << keyBits) - 1, workerKey[w] += r.nextInt(3));
              };
          for (int i = 0; i < keyBytes; i++) {
            e[2 + i] = (byte) (key >>> (8 * (keyBytes - 1 - i)));
          }
          Rid.write(Rid.of(page, slot), e, 2 + keyBytes);
          all.add(e);
          if (filling[w] == null || filling[w].size() == perBuffer) {
            if (filling[w] != null) {
              byWorker.get(w).add(packed(filling[w]));
            }
            filling[w] = new EntryBuffer(1L << 24);
          }
          assertThat(filling[w].add(e)).isTrue();
        }
      }
    }
    List<EntryBuffer> buffers = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      if (filling[w] != null) {
        byWorker.get(w).add(packed(filling[w]));
      }
      buffers.addAll(byWorker.get(w));
    }
    all.sort(UNSIGNED);
    return buffers;
  }

  private static EntryBuffer packed(EntryBuffer b) {
    b.packInArrivalOrder();
    b.compact();
    assertThat(b.isPacked()).isTrue();
    return b;
  }

  /**
   * The entries of a merge read by {@link PackedMerge#fill}, in batches of 1-100, with a call of
   * {@code next()} now and then between them.
   */
  private static List<byte[]> drainByFill(PackedMerge m, SplittableRandom r) {
    List<byte[]> out = new ArrayList<>();
    try (m) {
      if (!m.next()) {
        return out;
      }
      byte[] id = Arrays.copyOfRange(m.array(), m.offset(), m.offset() + 2);
      out.add(Arrays.copyOfRange(m.array(), m.offset(), m.offset() + m.length()));
      int stride = m.length() - 2;
      int batch = 1 + r.nextInt(100);
      byte[] b = m.fillArray(batch, 2);
      int[] shared = new int[batch];
      while (m.remaining() > 0) {
        if (r.nextInt(8) == 0) {
          assertThat(m.next()).isTrue();
          out.add(Arrays.copyOfRange(m.array(), m.offset(), m.offset() + m.length()));
          continue;
        }
        int count = (int) Math.min(batch, m.remaining());
        m.fill(b, 2, shared, count);
        for (int j = 0; j < count; j++) {
          byte[] e = new byte[2 + stride];
          System.arraycopy(id, 0, e, 0, 2);
          System.arraycopy(b, j * stride, e, 2, stride);
          out.add(e);
        }
      }
    }
    return out;
  }

  /**
   * Every shape of keys, with the sort's per-buffer steps run in turn on the calling thread and on
   * two helper threads (as a group with range threads does).
   */
  @Test
  void theBuffersOfAGroupSortAsOneIntoTheEntriesOrder() {
    SplittableRandom r = Seeds.random(seed);
    GroupSort.Workspace work = new GroupSort.Workspace(); // one for every round, as a build thread
    ExecutorService helpers = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 80; round++) {
        // Every shape of keys both ways: the shape turns with the round, the threads every four.
        sortOneScan(r, round, work, round / 4 % 2 == 0 ? Runnable::run : helpers);
      }
    } finally {
      helpers.shutdownNow();
    }
  }

  private void sortOneScan(SplittableRandom r, int round, GroupSort.Workspace work, Executor on) {
    Keys keys = Keys.values()[round % Keys.values().length];
    int keyBytes = 1 + r.nextInt(5);
    int keyBits = 1 + r.nextInt(8 * keyBytes);
    int rows = 1 + r.nextInt(round % 10 == 0 ? 100 : 30_000);
    List<byte[]> all = new ArrayList<>();
    List<EntryBuffer> buffers =
        scan(r, rows, 1 + r.nextInt(3), 1 + r.nextInt(8000), keyBytes, keyBits, keys, all);
    String what =
        "round %d: %s keys of %d bytes, %d bits, %d rows in %d buffers%s; %s"
            .formatted(
                round,
                keys,
                keyBytes,
                keyBits,
                rows,
                buffers.size(),
                on instanceof ExecutorService ? ", on helper threads" : "",
                repro);
    PackedMerge.Group group = GroupSort.sort(buffers, Long.MAX_VALUE, work, on);
    assertThat(group).as(what).isNotNull();
    List<byte[]> sorted =
        round % 3 == 0 ? drain(group.merge(null, null)) : drainByFill(group.merge(null, null), r);
    assertSameEntries(sorted, all, what);
  }

  /**
   * A sorted group's bounds cut it at equal counts: each is the entry at {@code n i / parts}, and
   * the ranges they make hold every entry once, in order.
   */
  @Test
  void boundsCutTheSortedGroupAtEqualCounts() {
    SplittableRandom r = Seeds.random(seed);
    for (int round = 0; round < 20; round++) {
      List<byte[]> all = new ArrayList<>();
      int rows = 1 + r.nextInt(round < 3 ? 10 : 20_000);
      List<EntryBuffer> buffers = scan(r, rows, 2, 5000, 4, 20, Keys.RANDOM, all);
      PackedMerge.Group group =
          GroupSort.sort(buffers, Long.MAX_VALUE, new GroupSort.Workspace(), Runnable::run);
      int parts = 1 + r.nextInt(16);
      String what = "round " + round + ", " + rows + " rows in " + parts + " parts; " + repro;
      List<byte[]> bounds = group.bounds(parts);
      assertThat(bounds).as(what).hasSize(Math.min(parts, rows) - 1);
      List<byte[]> joined = new ArrayList<>();
      for (int i = 0; i <= bounds.size(); i++) {
        byte[] from = i == 0 ? null : bounds.get(i - 1);
        byte[] to = i == bounds.size() ? null : bounds.get(i);
        List<byte[]> range = drain(group.merge(from, to));
        assertThat(range).as("range %d, %s", i, what).isNotEmpty();
        if (from != null) {
          assertThat(range.get(0)).as("range %d's first, %s", i, what).isEqualTo(from);
        }
        joined.addAll(range);
      }
      if (parts <= rows) {
        for (int i = 1; i < parts; i++) {
          assertThat(bounds.get(i - 1))
              .as(what)
              .isEqualTo(all.get((int) ((long) rows * i / parts)));
        }
      }
      assertSameEntries(joined, all, what);
    }
  }

  /**
   * A buffer sorted on its own (not in arrival order), or keys varying in more bits than four
   * 11-bit digits: no sort as one; each buffer then sorts on its own and the merge reads them in
   * order, though the attempt may have recoded them into the group's layout.
   */
  @Test
  void itDeclinesAndTheBuffersStillSortAndMerge() {
    SplittableRandom r = Seeds.random(seed);
    for (int round = 0; round < 10; round++) {
      boolean wide = round % 2 == 0;
      List<byte[]> all = new ArrayList<>();
      // Six varying key bytes leave room for the RID's bits only over a few pages.
      int rows = wide ? 1000 + r.nextInt(1000) : 5000 + r.nextInt(20_000);
      List<EntryBuffer> buffers =
          scan(r, rows, 2, wide ? 300 : 3000, wide ? 6 : 4, wide ? 48 : 24, Keys.RANDOM, all);
      String what = (wide ? "48-bit keys" : "a buffer sorted") + ", round " + round + "; " + repro;
      if (!wide) {
        buffers.get(r.nextInt(buffers.size())).sort();
      }
      assertThat(GroupSort.sort(buffers, Long.MAX_VALUE, new GroupSort.Workspace(), Runnable::run))
          .as(what)
          .isNull();
      buffers.forEach(EntryBuffer::sort);
      PackedMerge.Group merged = PackedMerge.unify(buffers);
      assertThat(merged).as(what).isNotNull();
      assertSameEntries(drain(merged.merge(null, null)), all, what);
    }
  }

  /**
   * The sort's two arrays take 16 bytes an entry: with a byte less free it declines (and the
   * buffers, left in arrival order, sort on their own), with exactly that much it sorts.
   */
  @Test
  void itSortsOnlyWhenItsTwoArraysFitTheFreeMemory() {
    SplittableRandom r = Seeds.random(seed);
    List<byte[]> all = new ArrayList<>();
    List<EntryBuffer> buffers =
        scan(r, 10_000 + r.nextInt(10_000), 2, 3000, 4, 24, Keys.RANDOM, all);
    long need = 16L * all.size();
    GroupSort.Workspace work = new GroupSort.Workspace();
    assertThat(GroupSort.sort(buffers, need - 1, work, Runnable::run)).as(repro).isNull();
    PackedMerge.Group group = GroupSort.sort(buffers, need, work, Runnable::run);
    assertThat(group).as(repro).isNotNull();
    assertSameEntries(drain(group.merge(null, null)), all, repro);
  }

  /** A merge refuses buffers still in arrival order: they are not sorted. */
  @Test
  void unifyRefusesBuffersInArrivalOrder() {
    SplittableRandom r = Seeds.random(seed);
    List<byte[]> all = new ArrayList<>();
    List<EntryBuffer> buffers = scan(r, 20_000, 2, 3000, 4, 24, Keys.RANDOM, all);
    assertThat(PackedMerge.unify(buffers)).as(repro).isNull();
  }
}
