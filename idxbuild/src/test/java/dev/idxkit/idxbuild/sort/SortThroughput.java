package dev.idxkit.idxbuild.sort;

import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.idxbuild.temp.TempSpace;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A timing program, not a test: sort and merge throughput of the kernels on 10 M 24-byte entries.
 * Prints, per repetition (the first includes JIT warm-up):
 *
 * <ul>
 *   <li>{@link EntryBuffer#sort()} (MSD radix on prefix8 + tie resolution), against {@code
 *       Arrays.sort} of the same entries as {@code byte[][]} with {@code Arrays::compareUnsigned};
 *       and, for the MSD/LSD choice, an 8-pass LSD radix sort of the same (prefix, ref) pairs with
 *       a scratch array (prefix order only, no tie resolution, so a lower bound for LSD);
 *   <li>run writing (entries/s, MB/s) and the merge of those runs through a {@link LoserTree} of
 *       prefetching {@link RunReader}s, and the same merge over in-memory buffers.
 * </ul>
 *
 * Wall time is printed with the CPU time of the sorting or merging thread, which other processes on
 * a shared machine disturb much less. Two data sets: random bytes, and index-like entries ({@code
 * u16 index id || 8-byte key with the sign bit flipped || 6 more key bytes || 8-byte RID}, keys
 * drawn from 1 M values, RIDs ascending as a heap scan produces them).
 *
 * <p>Run it (after {@code ./mvnw -B -q -pl idxbuild test-compile}):
 *
 * <pre>
 * java -Xmx4g -da -cp idxbuild/target/classes:idxbuild/target/test-classes:\
 *   $HOME/.m2/repository/dev/idxkit/idxkit-core/0.1.0-SNAPSHOT/idxkit-core-0.1.0-SNAPSHOT.jar \
 *   dev.idxkit.idxbuild.sort.SortThroughput [entries] [reps] [tempDir]
 * </pre>
 */
public final class SortThroughput {
  private static final int LEN = 24;

  private SortThroughput() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path dir =
        args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("idxkit-sort-throughput");
    System.out.printf(
        "%,d entries of %d bytes, %d repetitions, %d cores, java %s%n",
        n,
        LEN,
        reps,
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"));
    for (String data : List.of("random", "index-like")) {
      byte[][] entries = data.equals("random") ? random(n) : indexLike(n);
      System.out.println("== " + data);
      sorts(entries, reps);
      merges(entries, dir);
    }
    try (var s = Files.list(dir)) {
      if (s.findAny().isEmpty()) {
        Files.delete(dir);
      }
    }
  }

  private static void sorts(byte[][] entries, int reps) {
    int n = entries.length;
    EntryBuffer buf = new EntryBuffer((long) n * (LEN + EntryBuffer.INDEX_BYTES_PER_ENTRY));
    for (int r = 0; r < reps; r++) {
      buf.clear();
      long t0 = System.nanoTime();
      for (byte[] e : entries) {
        buf.add(e, 0, e.length);
      }
      long t1 = System.nanoTime();
      long c1 = cpu();
      buf.sort();
      long c2 = cpu();
      long t2 = System.nanoTime();
      checkSorted(buf);
      byte[][] copy = entries.clone();
      long t3 = System.nanoTime();
      long c3 = cpu();
      Arrays.sort(copy, Arrays::compareUnsigned);
      long c4 = cpu();
      long t4 = System.nanoTime();
      long[] lsd = lsdPrefixOnly(entries);
      System.out.printf(
          "rep %d: add %,.0f entries/s | radix sort %.0f ms wall, %.0f ms cpu = %,.0f entries/cpu-s"
              + " | Arrays.sort %.0f ms wall, %.0f ms cpu = %,.0f entries/cpu-s"
              + " | LSD prefix-only %.0f ms wall, %.0f ms cpu = %,.0f entries/cpu-s%n",
          r,
          n / sec(t1 - t0),
          ms(t2 - t1),
          ms(c2 - c1),
          n / sec(c2 - c1),
          ms(t4 - t3),
          ms(c4 - c3),
          n / sec(c4 - c3),
          ms(lsd[0]),
          ms(lsd[1]),
          n / sec(lsd[1]));
    }
  }

  private static void merges(byte[][] entries, Path dir) throws IOException, InterruptedException {
    int n = entries.length;
    int runs = 16;
    int per = (n + runs - 1) / runs;
    List<EntryBuffer> buffers = new ArrayList<>();
    for (int i = 0; i < n; i += per) {
      EntryBuffer b = new EntryBuffer((long) per * (LEN + EntryBuffer.INDEX_BYTES_PER_ENTRY));
      for (int j = i; j < Math.min(n, i + per); j++) {
        b.add(entries[j], 0, LEN);
      }
      b.sort();
      buffers.add(b);
    }
    ExecutorService prefetch = RunReader.newPrefetchExecutor(2);
    try (TempSpace space = new TempSpace(SrtFile.ofDirectory(dir), "throughput")) {
      List<Run> written = new ArrayList<>();
      long t0 = System.nanoTime();
      long c0 = cpu();
      long disk = 0;
      for (EntryBuffer b : buffers) {
        try (RunWriter w = new RunWriter(space, 0, 64 * 1024);
            EntrySource s = b.source()) {
          w.addAll(s);
          Run run = w.finish();
          disk += run.diskBytes();
          written.add(run);
        }
      }
      long c1 = cpu();
      long t1 = System.nanoTime();
      System.out.printf(
          "write %d runs (64 KB blocks): %.0f ms wall, %.0f ms cpu = %,.0f entries/s, %.0f MB/s"
              + " of entries, %.0f MB on disk (%.0f%% of the entry bytes)%n",
          runs,
          ms(t1 - t0),
          ms(c1 - c0),
          n / sec(t1 - t0),
          (double) n * LEN / 1e6 / sec(t1 - t0),
          disk / 1e6,
          100.0 * disk / ((double) n * LEN));
      for (int prefetchBlocks : new int[] {0, 2}) {
        List<EntrySource> readers = new ArrayList<>();
        for (Run run : written) {
          readers.add(RunReader.open(run, prefetchBlocks == 0 ? null : prefetch, prefetchBlocks));
        }
        long t2 = System.nanoTime();
        long c2 = cpu();
        long count = drainCount(new LoserTree(readers));
        long c3 = cpu();
        long t3 = System.nanoTime();
        System.out.printf(
            "merge %d runs from disk, prefetch %d: %.0f ms wall = %,.0f entries/s, merging thread"
                + " %.0f ms cpu (%,d entries)%n",
            runs, prefetchBlocks, ms(t3 - t2), count / sec(t3 - t2), ms(c3 - c2), count);
      }
      List<EntrySource> sources = new ArrayList<>();
      for (EntryBuffer b : buffers) {
        sources.add(b.source());
      }
      long t4 = System.nanoTime();
      long c4 = cpu();
      long count = drainCount(new LoserTree(sources));
      long c5 = cpu();
      long t5 = System.nanoTime();
      System.out.printf(
          "merge %d in-memory buffers: %.0f ms wall, %.0f ms cpu = %,.0f entries/cpu-s%n",
          runs, ms(t5 - t4), ms(c5 - c4), count / sec(c5 - c4));
      for (Run r : written) {
        r.delete();
      }
    } finally {
      prefetch.shutdown();
      prefetch.awaitTermination(1, TimeUnit.MINUTES);
    }
  }

  private static long drainCount(EntrySource s) {
    long count = 0;
    byte[] prev = new byte[LEN];
    int prevLen = 0;
    try (s) {
      while (s.next()) {
        if (count > 0
            && Arrays.compareUnsigned(
                    prev, 0, prevLen, s.array(), s.offset(), s.offset() + s.length())
                > 0) {
          throw new AssertionError("merge out of order at entry " + count);
        }
        System.arraycopy(s.array(), s.offset(), prev, 0, s.length());
        prevLen = s.length();
        count++;
      }
    }
    return count;
  }

  private static void checkSorted(EntryBuffer buf) {
    if (drainCount(buf.source()) != buf.size()) {
      throw new AssertionError("entries lost");
    }
  }

  /**
   * Times an 8-pass LSD radix sort of (prefix, ref) pairs with a scratch array of the same size:
   * {wall, cpu} nanoseconds.
   */
  private static long[] lsdPrefixOnly(byte[][] entries) {
    int n = entries.length;
    long[] a = new long[2 * n];
    for (int i = 0; i < n; i++) {
      a[2 * i] = dev.idxkit.core.spi.Keys.prefix8(entries[i], 0, LEN);
      a[2 * i + 1] = (long) i * LEN << 32 | LEN;
    }
    long[] b = new long[2 * n];
    int[] count = new int[256];
    long t0 = System.nanoTime();
    long c0 = cpu();
    for (int shift = 0; shift < 64; shift += 8) {
      Arrays.fill(count, 0);
      for (int i = 0; i < n; i++) {
        count[(int) (a[2 * i] >>> shift) & 0xFF]++;
      }
      if (count[(int) (a[0] >>> shift) & 0xFF] == n) {
        continue; // constant byte
      }
      int sum = 0;
      for (int d = 0; d < 256; d++) {
        int c = count[d];
        count[d] = sum;
        sum += c;
      }
      for (int i = 0; i < n; i++) {
        long k = a[2 * i];
        int at = count[(int) (k >>> shift) & 0xFF]++;
        b[2 * at] = k;
        b[2 * at + 1] = a[2 * i + 1];
      }
      long[] t = a;
      a = b;
      b = t;
    }
    long c1 = cpu();
    long t1 = System.nanoTime();
    for (int i = 1; i < n; i++) {
      if (Long.compareUnsigned(a[2 * i - 2], a[2 * i]) > 0) {
        throw new AssertionError("LSD out of order at " + i);
      }
    }
    return new long[] {t1 - t0, c1 - c0};
  }

  private static byte[][] random(int n) {
    SplittableRandom rnd = new SplittableRandom(42);
    byte[][] out = new byte[n][LEN];
    for (byte[] e : out) {
      for (int i = 0; i < LEN; i += 8) {
        long v = rnd.nextLong();
        for (int j = 0; j < 8; j++) {
          e[i + j] = (byte) (v >>> (8 * j));
        }
      }
    }
    return out;
  }

  private static byte[][] indexLike(int n) {
    SplittableRandom rnd = new SplittableRandom(43);
    byte[][] out = new byte[n][LEN];
    for (int r = 0; r < n; r++) {
      byte[] e = out[r];
      e[0] = 0;
      e[1] = 7; // index id 7
      long key = rnd.nextLong(1_000_000) ^ Long.MIN_VALUE; // BIGINT encoding: sign bit flipped
      for (int j = 0; j < 8; j++) {
        e[2 + j] = (byte) (key >>> (56 - 8 * j));
      }
      for (int j = 10; j < 16; j++) {
        e[j] = (byte) ('a' + (key + j) % 26); // a dependent second key column
      }
      long rid = ((long) (r / 100) << 16) | (r % 100); // page, slot in scan order
      for (int j = 0; j < 8; j++) {
        e[16 + j] = (byte) (rid >>> (56 - 8 * j));
      }
    }
    return out;
  }

  private static long cpu() {
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  private static double sec(long nanos) {
    return nanos / 1e9;
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }
}
