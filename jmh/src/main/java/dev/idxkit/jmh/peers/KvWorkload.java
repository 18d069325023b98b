package dev.idxkit.jmh.peers;

import dev.idxkit.jmh.btree.TreeEntries;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.BitSet;
import java.util.SplittableRandom;

/**
 * The operations of the {@code compare} experiment and the checks that make a wrong answer fail
 * instead of producing a fast figure. Every store gets exactly the same keys in the same order.
 *
 * <ul>
 *   <li>{@link #verify}: after the build, before any timing: the first and last entries, random
 *       present keys, absent keys (between two present ones, past the end), scans from present and
 *       absent keys, a scan that runs off the end and one that starts past it.
 *   <li>{@link #lookups}: {@code get(keyOf(i))} for each drawn {@code i}; the value must be {@code
 *       i}.
 *   <li>{@link #scans}: {@value #SCAN_LENGTH} consecutive entries from {@code keyOf(i)}; there must
 *       be {@code min(100, n - i)} of them with values {@code i, i+1, ...}.
 *   <li>{@link #newKeys}, {@link #inserts}, {@link #verifyInserts}: the random-insert workload. New
 *       keys fall in the gaps between the built ones ({@code keyOf(i) + 1 .. keyOf(i) + 7}),
 *       uniformly over the whole map and all distinct, so every insert lands in a random leaf and
 *       adds an entry; each gets a value above every built one. They are inserted in transactions
 *       (write batches) of {@code batch}, and afterwards every inserted key must read back with its
 *       value and the built keys must still read theirs.
 * </ul>
 *
 * Times are wall clock ({@link System#nanoTime}) and the calling thread's CPU time ({@link
 * ThreadMXBean#getCurrentThreadCpuTime}, which includes native code run on the thread, so it is
 * comparable between Java and JNI stores); on a shared machine the CPU time per operation moves
 * much less than the wall time.
 */
final class KvWorkload {
  static final int SCAN_LENGTH = 100;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** {@code ops} operations took {@code wallNanos} and {@code cpuNanos} of this thread's CPU. */
  record Timing(long ops, long wallNanos, long cpuNanos) {
    double opsPerSecond() {
      return ops / (wallNanos / 1e9);
    }

    double cpuNanosPerOp() {
      return cpuNanos < 0 ? Double.NaN : cpuNanos / (double) ops;
    }
  }

  private KvWorkload() {}

  /** {@code count} draws of {@code [0, bound)} from {@code random}. */
  static long[] draws(SplittableRandom random, int count, long bound) {
    long[] out = new long[count];
    for (int i = 0; i < count; i++) {
      out[i] = random.nextLong(bound);
    }
    return out;
  }

  /**
   * {@code count} distinct keys absent from a map of {@code n} built entries, uniform over the gaps
   * between them, in random order. Memory: one bit per gap position ({@code 7 n} bits).
   */
  static long[] newKeys(SplittableRandom random, int count, long n) {
    long gaps = n * (TreeEntries.STRIDE - 1);
    if (count > gaps / 2 || gaps > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "inserts : "
              + count
              + " into "
              + n
              + " keys (expected: at most "
              + gaps / 2
              + " new keys, and at most "
              + Integer.MAX_VALUE / 7
              + " built keys)");
    }
    BitSet taken = new BitSet((int) gaps);
    long[] out = new long[count];
    for (int j = 0; j < count; j++) {
      int g;
      do {
        g = (int) random.nextLong(gaps);
      } while (taken.get(g));
      taken.set(g);
      out[j] = TreeEntries.keyOf(g / (TreeEntries.STRIDE - 1)) + 1 + g % (TreeEntries.STRIDE - 1);
    }
    return out;
  }

  /**
   * Inserts {@code keys[from..to)} with {@code values[from..to)} in batches of {@code batch}, each
   * batch one {@link KvStore#insertBatch} (a transaction). Ops are entries inserted.
   */
  static Timing inserts(KvStore s, long[] keys, long[] values, int from, int to, int batch)
      throws Exception {
    long cpu0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    for (int i = from; i < to; i += batch) {
      s.insertBatch(keys, values, i, Math.min(to, i + batch));
    }
    long wall = System.nanoTime() - t0;
    long cpu = THREADS.getCurrentThreadCpuTime();
    return new Timing(to - from, wall, cpu0 < 0 || cpu < 0 ? -1 : cpu - cpu0);
  }

  /**
   * After {@code keys[0..count)} were inserted into a map of {@code n} built entries: every
   * inserted key reads its value, a random sample of built keys still read theirs, and a scan from
   * an inserted key starts with it.
   */
  static void verifyInserts(KvStore s, long[] keys, long[] values, int count, long n, long seed)
      throws Exception {
    for (int j = 0; j < count; j++) {
      long v = s.get(keys[j]);
      if (v != values[j]) {
        throw wrong(s, "get(" + keys[j] + ") of inserted key " + j, values[j] + "", v + "");
      }
    }
    SplittableRandom r = new SplittableRandom(seed);
    long[] one = new long[1];
    for (int k = 0; k < Math.min(count, 1000); k++) {
      long i = r.nextLong(n);
      expectGet(s, i, i);
      int j = r.nextInt(count);
      if (s.scan(keys[j], one) != 1 || one[0] != values[j]) {
        throw wrong(s, "scan from " + keys[j], "value " + values[j] + " first", "value " + one[0]);
      }
    }
  }

  /** The correctness checks after a build of {@code n} entries; throws naming what was wrong. */
  static void verify(KvStore s, long n, long seed) throws Exception {
    if (n < 1) {
      throw new IllegalArgumentException("n : " + n + " (expected: >= 1)");
    }
    SplittableRandom r = new SplittableRandom(seed);
    expectGet(s, 0, 0);
    expectGet(s, n - 1, n - 1);
    for (int k = 0; k < 1000; k++) {
      long i = r.nextLong(n);
      expectGet(s, i, i);
      long absent = TreeEntries.keyOf(i) + 1 + r.nextLong(TreeEntries.STRIDE - 1);
      long v = s.get(absent);
      if (v != -1) {
        throw wrong(s, "get(" + absent + ") of an absent key", "-1", Long.toString(v));
      }
    }
    long past = s.get(TreeEntries.keyOf(n));
    if (past != -1) {
      throw wrong(s, "get(" + TreeEntries.keyOf(n) + ") past the end", "-1", Long.toString(past));
    }
    long[] buf = new long[SCAN_LENGTH];
    for (int k = 0; k < 100; k++) {
      long i = r.nextLong(n);
      expectScan(s, TreeEntries.keyOf(i), i, n, buf);
      if (i + 1 < n) {
        // From a key between two present ones: the scan starts at the next present one.
        expectScan(s, TreeEntries.keyOf(i) + 1, i + 1, n, buf);
      }
    }
    expectScan(s, TreeEntries.keyOf(Math.max(0, n - SCAN_LENGTH / 2)), Math.max(0, n - 50), n, buf);
    int none = s.scan(TreeEntries.keyOf(n), buf);
    if (none != 0) {
      throw wrong(s, "scan from past the end", "0 entries", none + " entries");
    }
  }

  /** Looks up {@code keyOf(i)} for each {@code i} in {@code idx}; checks each value. */
  static Timing lookups(KvStore s, long[] idx) throws Exception {
    long cpu0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    for (long i : idx) {
      expectGet(s, i, i);
    }
    long wall = System.nanoTime() - t0;
    long cpu = THREADS.getCurrentThreadCpuTime();
    return new Timing(idx.length, wall, cpu0 < 0 || cpu < 0 ? -1 : cpu - cpu0);
  }

  /**
   * Scans {@value #SCAN_LENGTH} entries from {@code keyOf(i)} for each {@code i} in {@code starts};
   * checks count and values. Ops are entries read.
   */
  static Timing scans(KvStore s, long[] starts, long n) throws Exception {
    long[] buf = new long[SCAN_LENGTH];
    long entries = 0;
    long cpu0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    for (long i : starts) {
      entries += expectScan(s, TreeEntries.keyOf(i), i, n, buf);
    }
    long wall = System.nanoTime() - t0;
    long cpu = THREADS.getCurrentThreadCpuTime();
    return new Timing(entries, wall, cpu0 < 0 || cpu < 0 ? -1 : cpu - cpu0);
  }

  private static void expectGet(KvStore s, long i, long expected) throws Exception {
    long v = s.get(TreeEntries.keyOf(i));
    if (v != expected) {
      throw wrong(s, "get(keyOf(" + i + "))", Long.toString(expected), Long.toString(v));
    }
  }

  /**
   * Scans from {@code from}; the entries must be {@code first, first+1, ...}; returns the count.
   */
  private static int expectScan(KvStore s, long from, long first, long n, long[] buf)
      throws Exception {
    int got = s.scan(from, buf);
    long want = Math.min(buf.length, n - first);
    if (got != want) {
      throw wrong(s, "scan from key " + from, want + " entries", got + " entries");
    }
    for (int j = 0; j < got; j++) {
      if (buf[j] != first + j) {
        throw wrong(
            s, "scan from key " + from + ", entry " + j, "value " + (first + j), "value " + buf[j]);
      }
    }
    return got;
  }

  private static IllegalStateException wrong(
      KvStore s, String what, String expected, String actual) {
    return new IllegalStateException(
        s.name() + ": " + what + " : " + actual + " (expected: " + expected + ")");
  }
}
