package dev.idxkit.jmh.sort;

import dev.idxkit.idxbuild.sort.EntryBuffer;
import dev.idxkit.idxbuild.sort.EntrySource;
import dev.idxkit.idxbuild.sort.LoserTree;
import dev.idxkit.idxbuild.sort.Run;
import dev.idxkit.idxbuild.sort.RunReader;
import dev.idxkit.idxbuild.sort.RunWriter;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.idxbuild.temp.TempSpace;
import dev.idxkit.jmh.BenchDir;
import dev.idxkit.jmh.BenchmarkBase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The rebuilder's sort and merge kernels on {@value #ENTRIES} index entries shaped like the
 * rebuilder's: {@code u16 index id || 8-byte key || 8-byte RID}, 18 bytes, random keys. ops/s =
 * entries/s.
 *
 * <ul>
 *   <li>{@code prefixRadixSort}: {@link EntryBuffer} — entries appended with their 8-byte
 *       normalized prefix, MSD radix sort of the prefixes, full comparison only among equal ones;
 *   <li>{@code arraysSortPrefixes}: {@code Arrays.sort(long[])} of the same prefixes alone, the
 *       floor a primitive sort gives (it does not order the entries, only their prefixes);
 *   <li>{@code comparatorSort}: {@code Arrays.sort(byte[][], Arrays::compareUnsigned)}, the boxed
 *       comparator route the radix sort avoids;
 *   <li>{@code loserTreeMerge}: {@value #FAN_IN} sorted buffers merged by a {@link LoserTree};
 *   <li>{@code runWrite} / {@code runRead}: the sorted entries written as a checksummed,
 *       prefix-compressed run under a {@link TempSpace}, and read back through {@link RunReader}
 *       with prefetch (warm page cache: these are CPU, not disk, figures).
 * </ul>
 *
 * <p>Every kernel checks its result (count and order of what it produced) and throws if it is
 * wrong. Tear-down deletes the runs and the directory and stops the prefetch threads.
 */
@State(Scope.Thread)
public class SortMergeBench extends BenchmarkBase {
  static final int ENTRIES = 1 << 20;
  static final int FAN_IN = 32;
  static final int ENTRY_BYTES = 18;

  /**
   * Entries sorted per invocation: {@link #ENTRIES}, which the operation counts assume (tests set
   * less).
   */
  public int entries = ENTRIES;

  byte[][] input;
  long[] prefixes;
  EntryBuffer[] sortedParts;
  BenchDir dir;
  TempSpace temp;
  Run run;
  ExecutorService prefetch;

  @Setup(Level.Trial)
  public void setup() {
    SplittableRandom rnd = new SplittableRandom(20_261_121L);
    input = new byte[entries][];
    prefixes = new long[entries];
    for (int i = 0; i < entries; i++) {
      byte[] e = new byte[ENTRY_BYTES];
      e[1] = 7; // one index id
      long key = rnd.nextLong();
      for (int b = 0; b < 8; b++) {
        e[2 + b] = (byte) (key >>> (56 - 8 * b));
        e[10 + b] = (byte) (i >>> (56 - 8 * b));
      }
      input[i] = e;
    }
    sortedParts = new EntryBuffer[FAN_IN];
    for (int p = 0; p < FAN_IN; p++) {
      EntryBuffer b = new EntryBuffer(bufferBytes(entries / FAN_IN + 1));
      for (int i = p; i < entries; i += FAN_IN) {
        b.add(input[i]);
      }
      b.sort();
      sortedParts[p] = b;
    }
    dir = BenchDir.create("sortmerge");
    temp = new TempSpace(SrtFile.ofDirectory(dir.path()), "bench");
    prefetch = RunReader.newPrefetchExecutor(2);
    run = writeRun();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    prefetch.shutdownNow();
    temp.close();
    dir.close();
  }

  @Benchmark
  @OperationsPerInvocation(ENTRIES)
  public long prefixRadixSort() {
    EntryBuffer b = new EntryBuffer(bufferBytes(entries));
    for (byte[] e : input) {
      b.add(e);
    }
    b.sort();
    return checkSorted(b.source(), entries);
  }

  @Benchmark
  @OperationsPerInvocation(ENTRIES)
  public long arraysSortPrefixes() {
    long[] p = new long[entries];
    for (int i = 0; i < entries; i++) {
      p[i] = prefix(input[i]) ^ Long.MIN_VALUE; // signed order of the flipped value = unsigned
    }
    Arrays.sort(p);
    for (int i = 1; i < p.length; i++) {
      if (p[i - 1] > p[i]) {
        throw new IllegalStateException("prefixes out of order at " + i);
      }
    }
    return p[p.length - 1];
  }

  @Benchmark
  @OperationsPerInvocation(ENTRIES)
  public long comparatorSort() {
    byte[][] copy = input.clone();
    Arrays.sort(copy, Arrays::compareUnsigned);
    for (int i = 1; i < copy.length; i++) {
      if (Arrays.compareUnsigned(copy[i - 1], copy[i]) > 0) {
        throw new IllegalStateException("entries out of order at " + i);
      }
    }
    return copy.length;
  }

  @Benchmark
  @OperationsPerInvocation(ENTRIES)
  public long loserTreeMerge() {
    return checkSorted(new LoserTree(sources()), entries);
  }

  @Benchmark
  @OperationsPerInvocation(ENTRIES)
  public long runWrite() {
    Run r = writeRun();
    long n = r.entries();
    r.delete();
    return n;
  }

  @Benchmark
  @OperationsPerInvocation(ENTRIES)
  public long runRead() {
    return checkSorted(RunReader.open(run, prefetch, 4), entries);
  }

  private Run writeRun() {
    try (RunWriter w = new RunWriter(temp, 0, 64 * 1024)) {
      w.addAll(new LoserTree(sources()));
      return w.finish();
    }
  }

  /** A fresh source over each of the sorted parts. */
  private List<EntrySource> sources() {
    List<EntrySource> s = new ArrayList<>();
    for (EntryBuffer b : sortedParts) {
      s.add(b.source());
    }
    return s;
  }

  /** Drains {@code s}, checking order and count; returns the count. */
  static long checkSorted(EntrySource s, long expected) {
    long n = 0;
    byte[] prev = new byte[256];
    int prevLen = -1;
    try (s) {
      while (s.next()) {
        int len = s.length();
        if (prevLen >= 0
            && Arrays.compareUnsigned(prev, 0, prevLen, s.array(), s.offset(), s.offset() + len)
                > 0) {
          throw new IllegalStateException("entries out of order at " + n);
        }
        System.arraycopy(s.array(), s.offset(), prev, 0, len);
        prevLen = len;
        n++;
      }
    } catch (Exception e) {
      throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
    }
    if (n != expected) {
      throw new IllegalStateException(n + " entries (expected: " + expected + ")");
    }
    return n;
  }

  static long prefix(byte[] e) {
    long p = 0;
    for (int b = 0; b < 8; b++) {
      p = (p << 8) | (e[b] & 0xFF);
    }
    return p;
  }

  private static long bufferBytes(int n) {
    return (long) n * (ENTRY_BYTES + EntryBuffer.INDEX_BYTES_PER_ENTRY) + 1024;
  }
}
