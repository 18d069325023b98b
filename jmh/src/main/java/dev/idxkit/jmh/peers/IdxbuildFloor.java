package dev.idxkit.jmh.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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
 *       writes to a new file beside the database and fsynced, then deleted.
 * </ol>
 *
 * <p>It extracts no key, merges nothing, builds no page and checks nothing: a real rebuild cannot
 * reach it, and "within 2x of the floor" is the bar. Memory: 16 bytes per entry for the sort (the
 * keys and their scratch), 1 MiB buffers for the I/O.
 */
final class IdxbuildFloor {
  /** Seconds of each part. */
  record Result(double readSeconds, double sortSeconds, double writeSeconds, long bytesRead) {
    double total() {
      return readSeconds + sortSeconds + writeSeconds;
    }
  }

  /**
   * Where the read's checksum goes, so that the JIT cannot drop the loop that touches the bytes.
   */
  static volatile long sink;

  private IdxbuildFloor() {}

  static Result measure(
      Path heapFile, long entries, long bytesWritten, Path scratchDir, int threads)
      throws Exception {
    long t0 = System.nanoTime();
    long read = readAll(heapFile);
    double readS = (System.nanoTime() - t0) / 1e9;
    double sortS = sortSeconds(entries, Math.max(1, threads));
    Path out = Files.createTempFile(scratchDir, "floor-", ".out");
    try {
      long t1 = System.nanoTime();
      writeAndSync(out, bytesWritten);
      double writeS = (System.nanoTime() - t1) / 1e9;
      return new Result(readS, sortS, writeS, read);
    } finally {
      Files.deleteIfExists(out);
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

  /** Writes {@code bytes} to {@code file} in 1 MiB writes, then fsyncs it. */
  static void writeAndSync(Path file, long bytes) {
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
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
