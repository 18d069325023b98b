package dev.idxkit.jmh.sort;

import dev.idxkit.idxbuild.sort.EntryBuffer;
import dev.idxkit.idxbuild.sort.GroupSort;
import dev.idxkit.idxbuild.sort.PackedMerge;
import dev.idxkit.jmh.BenchmarkBase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The rebuild's final merge of one group kept in memory: {@value #BUFFERS} sorted, packed scan
 * buffers of {@link ScanSortBench}'s shapes ({@code shape}), 4 MiB each, merged by {@link
 * PackedMerge} and taken {@value #BATCH} entries at a time less their index id, as the rebuilder
 * feeds its tree builder ({@code SortGroup.fillAll}). One operation is one merge of all of them, in
 * milliseconds; it checks that it took every entry and that each batch's last entry is above the
 * batch before's (a cheap check, kept out of the way of what is measured).
 *
 * <p>{@code source=buffers}: each buffer sorted on its own, merged by the loser tree (a group that
 * spilled, or one {@link GroupSort} declines). {@code source=sorted}: the buffers packed in arrival
 * order and sorted as one by {@link GroupSort} in the set-up, so the merge reads one part, as a
 * one-index group that stayed in memory is built; their RIDs do not overlap then (GroupSort reads
 * the buffers in RID order).
 */
@State(Scope.Thread)
public class ScanMergeBench extends BenchmarkBase {
  static final int BUFFERS = 16;
  static final int BATCH = 64;

  @Param({"pk", "partkey", "suppkey", "shipdate", "part_supp"})
  public String shape;

  @Param({"buffers", "sorted"})
  public String source = "buffers";

  /** Bytes of each buffer (tests set less). */
  public long bufferBytes = 4L << 20;

  PackedMerge.Group group;
  long total;

  @Setup(Level.Trial)
  public void setup() {
    if (!source.equals("buffers") && !source.equals("sorted")) {
      throw new IllegalArgumentException("source : " + source + " (expected: buffers or sorted)");
    }
    boolean sorted = source.equals("sorted");
    List<EntryBuffer> buffers = buffers(shape, bufferBytes, sorted);
    for (EntryBuffer b : buffers) {
      total += b.size();
    }
    group =
        sorted
            ? GroupSort.sort(buffers, Long.MAX_VALUE, new GroupSort.Workspace(), Runnable::run)
            : PackedMerge.unify(buffers);
    if (group == null) {
      throw new IllegalStateException(
          "the buffers of " + shape + " do not " + (sorted ? "sort as one" : "merge as longs"));
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public long merge() {
    PackedMerge m = group.merge(null, null);
    if (!m.next()) {
      throw new IllegalStateException("empty merge");
    }
    long left = m.remaining();
    long taken = 1;
    byte[] batch = m.fillArray(BATCH, 2);
    int[] shared = new int[BATCH];
    int stride = m.length() - 2;
    byte[] last = new byte[stride]; // the previous batch's last entry: below this batch's
    while (left > 0) {
      int count = (int) Math.min(left, BATCH);
      m.fill(batch, 2, shared, count);
      int end = count * stride;
      if (Arrays.compareUnsigned(last, 0, stride, batch, end - stride, end) >= 0) {
        throw new IllegalStateException("entries out of order before " + (taken + count));
      }
      System.arraycopy(batch, end - stride, last, 0, stride);
      left -= count;
      taken += count;
    }
    if (taken != total) {
      throw new IllegalStateException(taken + " entries merged of " + total);
    }
    return taken;
  }

  /**
   * {@value #BUFFERS} scan buffers of {@code shape}: packed in arrival order with RID ranges that
   * do not overlap ({@code sorted}, for {@link GroupSort}), or each sorted and compacted.
   */
  static List<EntryBuffer> buffers(String shape, long bufferBytes, boolean sorted) {
    List<EntryBuffer> buffers = new ArrayList<>();
    for (int i = 0; i < BUFFERS; i++) {
      // Buffer i holds the i-th stretch of the scan (later pages, later keys for pk).
      byte[][] in = ScanSortBench.entries(shape, bufferBytes, 20_261_129L + i);
      EntryBuffer b = new EntryBuffer(bufferBytes);
      for (byte[] e : in) {
        if (shape.equals("pk")) {
          e = e.clone();
          offsetOrderKey(e, (long) i * in.length);
        }
        // RIDs within some 32,000 pages; apart for GroupSort (60 rows a page, ScanSortBench)
        offsetRid(e, i * (sorted ? in.length / 60 + 1 : 2_000L));
        b.add(e);
      }
      if (sorted) {
        b.packInArrivalOrder();
      } else {
        b.sort();
        b.compact();
      }
      buffers.add(b);
    }
    return buffers;
  }

  /** Adds {@code by} to a pk entry's order key (bytes 3-10, sign-flipped big-endian). */
  private static void offsetOrderKey(byte[] e, long by) {
    long v = 0;
    for (int b = 0; b < 8; b++) {
      v = (v << 8) | (e[3 + b] & 0xFF);
    }
    v += by;
    for (int b = 0; b < 8; b++) {
      e[3 + b] = (byte) (v >>> (56 - 8 * b));
    }
  }

  /** Moves an entry's RID (its last 8 bytes) {@code pages} pages on. */
  private static void offsetRid(byte[] e, long pages) {
    int at = e.length - 8;
    long rid = 0;
    for (int b = 0; b < 8; b++) {
      rid = (rid << 8) | (e[at + b] & 0xFF);
    }
    rid += pages << 16;
    for (int b = 0; b < 8; b++) {
      e[at + b] = (byte) (rid >>> (56 - 8 * b));
    }
  }
}
