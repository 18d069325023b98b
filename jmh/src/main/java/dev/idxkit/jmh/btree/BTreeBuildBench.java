package dev.idxkit.jmh.btree;

import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageSink;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.jmh.BenchmarkBase;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Bottom-up build of a B+tree of {@code keys} sorted entries (10,000,000 by default): the
 * rebuilder's last phase without its merge. Single shot: one build per iteration, timed in seconds;
 * entries/s = {@code keys} / score.
 *
 * <p>{@code sink=store} is the real thing: a fresh store per iteration (created in the iteration's
 * set-up, closed and deleted in its tear-down), and in the measured part one bulk session: a {@link
 * TreeBuilder} writing leaves through {@code BulkWrite.stream(area)}, then the publish, which waits
 * for the writes, fsyncs the area file and writes the meta slot. {@code sink=memory} runs the same
 * builder into a sink that only seals each page (its CRC32C, as the stream does) and keeps none:
 * the CPU cost of building, so the difference is what the I/O path costs.
 *
 * <p>{@code feed=add} gives the builder one entry per call ({@link TreeBuilder#add}); {@code
 * feed=batch} gives it {@value TreeStore#BATCH} at a time with what each shares with the one before
 * ({@link TreeBuilder#addNextAll}), as the rebuilder's packed merge does.
 *
 * <p>Each build checks its result (entry count, and for the store the published root) and throws if
 * it is wrong.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar BTreeBuildBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class BTreeBuildBench extends BenchmarkBase {
  @Param("10000000")
  public long keys;

  @Param({"store", "memory"})
  public String sink;

  @Param({"add", "batch"})
  public String feed = "add";

  TreeStore store;

  @Setup(Level.Iteration)
  public void setup() {
    if (!sink.equals("store") && !sink.equals("memory")) {
      throw new IllegalArgumentException("sink : " + sink + " (expected: store or memory)");
    }
    if (!feed.equals("add") && !feed.equals("batch")) {
      throw new IllegalArgumentException("feed : " + feed + " (expected: add or batch)");
    }
    if (sink.equals("store")) {
      store = TreeStore.createTemporary("btree-build");
    }
  }

  @Benchmark
  public BuildResult build() {
    BuildResult r;
    if (store != null) {
      r = store.build(keys, 100, feed());
      if (store.root() != r.root()) {
        throw new IllegalStateException("published root " + store.root() + ", built " + r.root());
      }
    } else {
      SealingSink s = new SealingSink();
      TreeBuilder b = new TreeBuilder(s, Page.DEFAULT_SIZE, TreeStore.AREA, 100, "memory");
      feed().add(b, keys);
      r = b.finish();
      if (s.written != r.pagesWritten()) {
        throw new IllegalStateException(
            s.written + " pages sealed, " + r.pagesWritten() + " built");
      }
    }
    if (r.entries() != keys) {
      throw new IllegalStateException("built " + r.entries() + " entries of " + keys);
    }
    return r;
  }

  private TreeStore.Feed feed() {
    return feed.equals("batch") ? TreeStore::addEntryBatches : TreeStore::addEntries;
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    if (store != null) {
      store.close();
      store = null;
    }
  }

  /** Numbers pages consecutively and seals each one written; keeps nothing. */
  static final class SealingSink implements PageSink {
    long next = 1;
    long written;

    @Override
    public long allocate() {
      return next++;
    }

    @Override
    public void write(long pageNo, Page page) {
      page.seal(1);
      written++;
    }
  }
}
