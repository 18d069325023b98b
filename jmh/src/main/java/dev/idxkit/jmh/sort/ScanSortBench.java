package dev.idxkit.jmh.sort;

import dev.idxkit.idxbuild.sort.EntryBuffer;
import dev.idxkit.jmh.BenchmarkBase;
import java.util.Arrays;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.TearDown;

/**
 * The sort of one full scan buffer of the rebuilder: {@link EntryBuffer#sort()} of a 16 MiB buffer
 * of entries shaped as the scan of TPC-H lineitem makes them for each of its indexes ({@code u16
 * index id || key columns, each a NULL marker and the sortable value || 8-byte RID}, RIDs ascending
 * as a heap is read, some 60 rows a page), which takes the packed sort (entries packed into longs,
 * LSD radix on the varying key bytes). One operation is one buffer's sort, in milliseconds (the
 * entries a buffer holds differ by shape: 419,430 for {@code pk}, 541,200 for the one-INT keys,
 * 466,033 for {@code part_supp}; {@link #entries()}).
 *
 * <p>Shapes ({@code shape}): {@code pk}, {@code (l_orderkey BIGINT, l_linenumber INT)} growing with
 * the RID, as a table loaded in key order (no radix pass); {@code partkey}, an INT of 100,000
 * values; {@code suppkey}, an INT of 5,000 values; {@code shipdate}, a DATE of 2,526 days; {@code
 * part_supp}, both INTs. Each invocation refills the buffer (not timed) and sorts it (timed); the
 * tear-down checks that the entries came out in order, all of them.
 */
@State(Scope.Thread)
public class ScanSortBench extends BenchmarkBase {
  /** The rebuilder's largest scan buffer (RebuildPlan.MAX_BUFFER_BYTES). */
  static final long BUFFER_BYTES = 16L << 20;

  @Param({"pk", "partkey", "suppkey", "shipdate", "part_supp"})
  public String shape;

  /** Buffer capacity: the rebuilder's by default (tests set less). */
  public long bufferBytes = BUFFER_BYTES;

  byte[][] input;
  EntryBuffer buffer;

  @Setup(Level.Trial)
  public void setup() {
    input = entries(shape, bufferBytes, 20_261_129L);
    buffer = new EntryBuffer(bufferBytes);
  }

  /**
   * As many entries of {@code shape} as a buffer of {@code bufferBytes} holds, in scan order (RIDs
   * ascending from page 1,000, 60 rows a page).
   */
  static byte[][] entries(String shape, long bufferBytes, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long room = bufferBytes;
    java.util.List<byte[]> entries = new java.util.ArrayList<>();
    long order = 1;
    int line = 1;
    for (int row = 0; ; row++) {
      byte[] e = new byte[32];
      int p = 2;
      e[1] = 3;
      switch (shape) {
        case "pk" -> {
          p = putLong(e, putMarker(e, p), order);
          p = putInt(e, putMarker(e, p), line);
          if (++line > 1 + (int) (order % 7)) {
            line = 1;
            order += 1 + order % 3;
          }
        }
        case "partkey" -> p = putInt(e, putMarker(e, p), 1 + rnd.nextInt(100_000));
        case "suppkey" -> p = putInt(e, putMarker(e, p), 1 + rnd.nextInt(5_000));
        case "shipdate" -> p = putInt(e, putMarker(e, p), 8_035 + rnd.nextInt(2_526));
        case "part_supp" -> {
          p = putInt(e, putMarker(e, p), 1 + rnd.nextInt(100_000));
          p = putInt(e, putMarker(e, p), 1 + rnd.nextInt(5_000));
        }
        default -> throw new IllegalArgumentException("shape : " + shape);
      }
      long rid = (long) (1_000 + row / 60) << 16 | (row % 60);
      for (int b = 0; b < 8; b++) {
        e[p + b] = (byte) (rid >>> (56 - 8 * b));
      }
      p += 8;
      room -= p + EntryBuffer.INDEX_BYTES_PER_ENTRY;
      if (room < 0) {
        return entries.toArray(new byte[0][]);
      }
      entries.add(Arrays.copyOf(e, p));
    }
  }

  @Setup(Level.Invocation)
  public void fill() {
    buffer.clear();
    for (byte[] e : input) {
      if (!buffer.add(e)) {
        throw new IllegalStateException("the buffer took " + buffer.size() + " entries");
      }
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public int sort() {
    buffer.sort();
    return buffer.size();
  }

  @TearDown(Level.Invocation)
  public void check() {
    SortMergeBench.checkSorted(buffer.source(), input.length);
  }

  /** Entries per sort (JMH's operations per invocation cannot follow the shape). */
  public int entries() {
    return input.length;
  }

  private static int putMarker(byte[] e, int p) {
    e[p] = 1; // NOT NULL
    return p + 1;
  }

  private static int putLong(byte[] e, int p, long v) {
    long s = v ^ Long.MIN_VALUE;
    for (int b = 0; b < 8; b++) {
      e[p + b] = (byte) (s >>> (56 - 8 * b));
    }
    return p + 8;
  }

  private static int putInt(byte[] e, int p, int v) {
    int s = v ^ Integer.MIN_VALUE;
    for (int b = 0; b < 4; b++) {
      e[p + b] = (byte) (s >>> (24 - 8 * b));
    }
    return p + 4;
  }
}
