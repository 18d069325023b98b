package dev.idxkit.jmh.sort;

import dev.idxkit.idxbuild.sort.EntryBuffer;
import dev.idxkit.idxbuild.sort.GroupSort;
import dev.idxkit.idxbuild.sort.PackedMerge;
import dev.idxkit.jmh.BenchmarkBase;
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
 * {@link GroupSort} alone: {@link ScanMergeBench#BUFFERS} scan buffers of {@link ScanSortBench}'s
 * shapes ({@code shape}), 4 MiB each, packed in arrival order as a group kept in memory is, sorted
 * as one on the calling thread. One operation is one sort, in milliseconds. The first sort rewrites
 * the buffers into the group's common layout; the operations after it count and sort (the passes,
 * not the rewrite, are what a change of digits moves). The merge that reads the result is {@link
 * ScanMergeBench}'s {@code source=sorted}.
 */
@State(Scope.Thread)
public class GroupSortBench extends BenchmarkBase {
  @Param({"pk", "partkey", "suppkey", "shipdate", "part_supp"})
  public String shape;

  /** Bytes of each buffer (tests set less). */
  public long bufferBytes = 4L << 20;

  private List<EntryBuffer> buffers;
  private final GroupSort.Workspace work = new GroupSort.Workspace();
  long total;
  // The last sort's result: a test reads it through in order (the operation checks its count).
  PackedMerge.Group group;

  @Setup(Level.Trial)
  public void setup() {
    buffers = ScanMergeBench.buffers(shape, bufferBytes, true);
    for (EntryBuffer b : buffers) {
      total += b.size();
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public long sort() {
    group = GroupSort.sort(buffers, Long.MAX_VALUE, work, Runnable::run);
    if (group == null) {
      throw new IllegalStateException("the buffers of " + shape + " do not sort as one");
    }
    PackedMerge m = group.merge(null, null);
    if (!m.next() || m.remaining() + 1 != total) {
      throw new IllegalStateException("the sort lost entries of " + shape);
    }
    return total;
  }
}
