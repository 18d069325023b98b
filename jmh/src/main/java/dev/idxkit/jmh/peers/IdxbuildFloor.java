package dev.idxkit.jmh.peers;

import dev.idxkit.idxbuild.RebuildReport;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.ToDoubleFunction;

/**
 * The floor line of the {@code idxbuild} experiment: what the same work costs on this machine when
 * it is nothing but its three unavoidable parts, measured in the same run, so a rebuild's time can
 * be read as a multiple of it.
 *
 * <ol>
 *   <li><b>Read</b>: the table's heap file read once, sequentially, in 1 MiB reads (from the page
 *       cache when the rebuild just read it, as it did), each long summed so the bytes are touched.
 *   <li><b>Sort</b>: as many random 64-bit keys as the rebuild made entries, split over {@code
 *       threads} threads, each sorting its share with an LSD radix sort (8 passes of 8 bits, a
 *       scratch array): the cheapest in-memory sort of that many fixed-size keys. The keys are made
 *       before the clock starts.
 *   <li><b>Write</b>: the bytes of the pages the rebuild wrote, written sequentially in 1 MiB
 *       writes over a file of the floor's own, then fsynced. The file is allocated (written and
 *       fsynced, untimed) before the first round and kept, as the rebuild's are: its index area
 *       keeps its size from round to round, each new index written into the pages the one before
 *       freed, so the rebuild overwrites allocated blocks. A new file every round, as the floor
 *       wrote until 2026-11-29, paid for allocating its blocks and for discarding the last round's
 *       (this VM's ext4 is mounted with {@code discard}): 620 MB took 0.49-2.88 s (226-1,328 MB/s)
 *       as a new file and 0.24-0.26 s (2,525-2,732 MB/s) over the same file, in turn, in the same
 *       minute, and the goal's verdict turned with whichever the new file got.
 * </ol>
 *
 * <p>It extracts no key, merges nothing, builds no page and checks nothing: a real rebuild cannot
 * reach it, and "within 2x of the floor" is the bar. Memory: 16 bytes per entry for the sort (the
 * keys and their scratch), 1 MiB buffers for the I/O.
 *
 * <p>The experiment measures it after every round of rebuilds ({@link Rounds}) and judges the goal
 * on the median of the per-round ratios, as it judges PostgreSQL's on pairs timed in turn: this
 * machine's speed drifts over minutes, and one floor measured after all the rounds set the median
 * rebuild of several minutes against a floor of one other minute.
 */
final class IdxbuildFloor {
  /**
   * Seconds of each part, and the bytes read and written; {@code sortOneThreadSeconds} is the same
   * sort on one thread (not part of the floor: the machine's own speed-up from one thread to
   * several on memory-bound work, {@link #sortSpeedup}).
   */
  record Result(
      double readSeconds,
      double sortSeconds,
      double writeSeconds,
      long bytesRead,
      long bytesWritten,
      double sortOneThreadSeconds) {
    double total() {
      return readSeconds + sortSeconds + writeSeconds;
    }

    /** The sort's time on one thread over its time on the floor's threads. */
    double sortSpeedup() {
      return sortOneThreadSeconds / sortSeconds;
    }

    double writeMegabytesPerSecond() {
      return bytesWritten / 1e6 / writeSeconds;
    }
  }

  /**
   * Where the read's checksum goes, so that the JIT cannot drop the loop that touches the bytes.
   */
  static volatile long sink;

  private IdxbuildFloor() {}

  /**
   * The floor of a rebuild that made {@code entries} entries and wrote {@code bytesWritten} bytes;
   * the write goes over {@code out}, which must hold at least that many bytes already ({@link
   * #allocate}).
   */
  static Result measure(Path heapFile, long entries, long bytesWritten, Path out, int threads)
      throws Exception {
    long t0 = System.nanoTime();
    long read = readAll(heapFile);
    double readS = (System.nanoTime() - t0) / 1e9;
    double sortS = sortSeconds(entries, Math.max(1, threads));
    double sortOneS = threads > 1 ? sortSeconds(entries, 1) : sortS;
    long t1 = System.nanoTime();
    writeAndSync(out, bytesWritten);
    double writeS = (System.nanoTime() - t1) / 1e9;
    return new Result(readS, sortS, writeS, read, bytesWritten, sortOneS);
  }

  /**
   * {@code file} made to hold at least {@code bytes} written and fsynced bytes, so that a write of
   * that many overwrites allocated blocks; created when missing, never shrunk.
   */
  static void allocate(Path file, long bytes) {
    try {
      if (!Files.exists(file) || Files.size(file) < bytes) {
        writeAndSync(file, bytes);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot allocate " + file, e);
    }
  }

  /**
   * The floor measured after each round, each beside the same round's rebuild of the configuration
   * it is compared with; {@link #record} writes the medians and the ratios to the sheet.
   */
  static final class Rounds {
    /** One round: its floor and the rebuild it is set against, in seconds. */
    private record Round(Result floor, double rebuild) {
      double ratio() {
        return rebuild / floor.total();
      }

      /** The ratio with the floor's write taking {@code writeSeconds} instead. */
      double ratioWithWrite(double writeSeconds) {
        return rebuild / (floor.readSeconds() + floor.sortSeconds() + writeSeconds);
      }
    }

    private final Path heapFile;
    private final long pageSize;
    private final Path scratchDir;
    private final int threads;
    private final String label;
    private final List<Round> rounds = new ArrayList<>();

    /**
     * @param label the configuration compared, as the sheet names it
     */
    Rounds(Path heapFile, long pageSize, Path scratchDir, int threads, String label) {
      this.heapFile = heapFile;
      this.pageSize = pageSize;
      this.scratchDir = scratchDir;
      this.threads = threads;
      this.label = label;
    }

    /** The floor for the work of {@code rep} measured and printed, not counted. */
    void warmUp(RebuildReport rep, PrintStream out) throws Exception {
      out.printf(Locale.ROOT, "  warm-up floor: %.2f s, not counted%n", floorOf(rep).total());
    }

    /** The floor for {@code rep}'s work, beside this round's rebuild of the configuration. */
    void measure(RebuildReport rep, PrintStream out) throws Exception {
      Round r = new Round(floorOf(rep), rep.totalNanos() / 1e9);
      rounds.add(r);
      Result f = r.floor();
      out.printf(
          Locale.ROOT,
          "  floor: read %,.0f MB %.2f s + sort %,d keys on %d threads %.2f s + write+fsync %,.0f"
              + " MB %.2f s (%,.0f MB/s) = %.2f s; idxkit %s this round %.2f s: %.2fx%n",
          f.bytesRead() / 1e6,
          f.readSeconds(),
          rep.keys(),
          threads,
          f.sortSeconds(),
          f.bytesWritten() / 1e6,
          f.writeSeconds(),
          f.writeMegabytesPerSecond(),
          f.total(),
          label,
          r.rebuild(),
          r.ratio());
    }

    private Result floorOf(RebuildReport rep) throws Exception {
      long bytes = rep.pagesWritten() * pageSize;
      Path out = scratchDir.resolve("floor-write.out");
      allocate(out, bytes);
      return IdxbuildFloor.measure(heapFile, rep.keys(), bytes, out, threads);
    }

    /**
     * What the floor is, as the sheet's setting; each part's median as {@code floor/PART/total}
     * (the sum's as {@code floor/sum/total}), and the per-round ratios as {@code
     * floor/rounds/ratio} (median), {@code ratio min}, {@code ratio max} and {@code count}.
     */
    void record(ResultSheet sheet, PrintStream out) {
      sheet.setting(
          "floor",
          "read the heap file once (1 MiB reads), LSD radix sort of as many random 64-bit keys as"
              + " entries on "
              + threads
              + " threads, write + fsync of the bytes the rebuild wrote over a file allocated before"
              + " the first round; nothing else; after every"
              + " round, beside that round's "
              + label);
      if (rounds.isEmpty()) {
        return;
      }
      double[] sum = column(Result::total);
      double[] ratios = rounds.stream().mapToDouble(Round::ratio).toArray();
      sheet.add("floor", "read", "total", IdxbuildCli.median(column(Result::readSeconds)), "s");
      sheet.add("floor", "sort", "total", IdxbuildCli.median(column(Result::sortSeconds)), "s");
      sheet.add("floor", "write", "total", IdxbuildCli.median(column(Result::writeSeconds)), "s");
      sheet.add("floor", "sum", "total", IdxbuildCli.median(sum), "s");
      sheet.add("floor", "rounds", "ratio", IdxbuildCli.median(ratios), "x (median round)");
      sheet.add("floor", "rounds", "ratio min", IdxbuildCli.min(ratios), "x");
      sheet.add("floor", "rounds", "ratio max", IdxbuildCli.max(ratios), "x");
      sheet.add("floor", "rounds", "count", rounds.size(), "rounds");
      String text =
          String.format(
              Locale.ROOT,
              "%d rounds, idxkit %s / the floor measured after it: min %.2fx / median %.2fx / max"
                  + " %.2fx (floor median %.2f s)",
              rounds.size(),
              label,
              IdxbuildCli.min(ratios),
              IdxbuildCli.median(ratios),
              IdxbuildCli.max(ratios),
              IdxbuildCli.median(sum));
      out.println("  " + text);
      sheet.note(text);
      recordDiskSpread(sheet, out);
      recordSortSpeedup(sheet, out);
    }

    /**
     * The floor's sort on one thread against its threads, each round: what this machine gives a
     * second thread on memory-bound work, the context of the big index's goal (two threads at 1.8x
     * one). On the 2-vCPU VM a radix sort of 32 MB of longs per thread ran 1.03-1.5x slower with a
     * second thread doing the same beside it, where a loop in registers ran no slower.
     */
    private void recordSortSpeedup(ResultSheet sheet, PrintStream out) {
      if (threads < 2) {
        return;
      }
      double[] speedups = column(Result::sortSpeedup);
      sheet.add(
          "floor", "sort speed-up", "ratio", IdxbuildCli.median(speedups), "x (median round)");
      String text =
          String.format(
              Locale.ROOT,
              "the floor's sort on %d threads against 1, the machine's own speed-up on"
                  + " memory-bound work: min %.2fx / median %.2fx / max %.2fx (1 thread median %.2f"
                  + " s)",
              threads,
              IdxbuildCli.min(speedups),
              IdxbuildCli.median(speedups),
              IdxbuildCli.max(speedups),
              IdxbuildCli.median(column(Result::sortOneThreadSeconds)));
      out.println("  " + text);
      sheet.note(text);
    }

    /**
     * The write + fsync's rate in each round, and each round's ratio again with the run's fastest
     * write in place of its own. While the floor wrote a new file every round its rate moved by
     * several times within minutes (0.24 s to 1.55 s for the same 322 MB, 2026-11-29); over its
     * allocated file it held 2.0-3.0 GB/s in every round of the next full run. The rebuild hands
     * its writes to the kernel as it goes and its publish waits only for the tail (0.01-0.05 s): a
     * slow write makes the floor, not the rebuild, slower, and the per-round ratio then says more
     * about the disk than about the rebuild. The second ratio sets every rebuild against the
     * quickest floor this run saw, the stricter bar; both are printed, and the goal stays judged on
     * the first.
     */
    private void recordDiskSpread(ResultSheet sheet, PrintStream out) {
      double[] rates = column(Result::writeMegabytesPerSecond);
      double fastest = IdxbuildCli.min(column(Result::writeSeconds));
      double[] strict = rounds.stream().mapToDouble(r -> r.ratioWithWrite(fastest)).toArray();
      sheet.add("floor", "write rate", "min", IdxbuildCli.min(rates), "MB/s");
      sheet.add("floor", "write rate", "max", IdxbuildCli.max(rates), "MB/s");
      sheet.add("floor", "fastest write", "ratio", IdxbuildCli.median(strict), "x (median round)");
      sheet.add("floor", "fastest write", "ratio max", IdxbuildCli.max(strict), "x");
      String text =
          String.format(
              Locale.ROOT,
              "floor's write+fsync %,.0f-%,.0f MB/s over the rounds%s; with the fastest write (%.2f"
                  + " s) in every round's floor: min %.2fx / median %.2fx / max %.2fx",
              IdxbuildCli.min(rates),
              IdxbuildCli.max(rates),
              IdxbuildCli.max(rates) > 2 * IdxbuildCli.min(rates)
                  ? " (the disk's rate moved more than 2x: the per-round ratio moves with it)"
                  : "",
              fastest,
              IdxbuildCli.min(strict),
              IdxbuildCli.median(strict),
              IdxbuildCli.max(strict));
      out.println("  " + text);
      sheet.note(text);
    }

    private double[] column(ToDoubleFunction<Result> part) {
      return rounds.stream().map(Round::floor).mapToDouble(part).toArray();
    }
  }

  /** Reads {@code file} in 1 MiB reads, summing its longs; returns the bytes read. */
  static long readAll(Path file) {
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
    long bytes = 0;
    long sum = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      int n;
      while ((n = ch.read(buf, bytes)) > 0) {
        bytes += n;
        buf.flip();
        while (buf.remaining() >= 8) {
          sum += buf.getLong();
        }
        buf.clear();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    sink = sum;
    return bytes;
  }

  /** Wall seconds to radix-sort {@code entries} random longs split over {@code threads}. */
  static double sortSeconds(long entries, int threads) throws Exception {
    int parts = threads;
    long[][] keys = new long[parts][];
    SplittableRandom r = new SplittableRandom(20_241_125L);
    for (int p = 0; p < parts; p++) {
      long share = entries / parts + (p < entries % parts ? 1 : 0);
      keys[p] = new long[Math.toIntExact(share)];
      for (int i = 0; i < keys[p].length; i++) {
        keys[p][i] = r.nextLong();
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(parts);
    try {
      long t0 = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      for (long[] k : keys) {
        done.add(pool.submit(() -> radixSort(k)));
      }
      for (Future<?> f : done) {
        f.get();
      }
      return (System.nanoTime() - t0) / 1e9;
    } finally {
      pool.shutdownNow();
    }
  }

  /** LSD radix sort of {@code a} as unsigned 64-bit values, 8 passes of 8 bits. */
  static void radixSort(long[] a) {
    long[] src = a;
    long[] dst = new long[a.length];
    int[] count = new int[256];
    for (int shift = 0; shift < 64; shift += 8) {
      java.util.Arrays.fill(count, 0);
      for (long v : src) {
        count[(int) (v >>> shift) & 0xFF]++;
      }
      int sum = 0;
      for (int b = 0; b < 256; b++) {
        int c = count[b];
        count[b] = sum;
        sum += c;
      }
      for (long v : src) {
        dst[count[(int) (v >>> shift) & 0xFF]++] = v;
      }
      long[] t = src;
      src = dst;
      dst = t;
    }
    // 8 passes: the sorted keys are back in a.
  }

  /**
   * Writes {@code bytes} to {@code file} from its start in 1 MiB writes, then fsyncs it; creates
   * the file when missing.
   */
  static void writeAndSync(Path file, long bytes) {
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      long at = 0;
      while (at < bytes) {
        buf.clear();
        buf.limit((int) Math.min(buf.capacity(), bytes - at));
        while (buf.hasRemaining()) {
          at += ch.write(buf, at);
        }
      }
      ch.force(false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
