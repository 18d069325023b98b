package dev.idxkit.core.internal.txn;

/**
 * What the last checkpoint did and how long each part took (nanoseconds): the log fsync, the flush
 * (writing pages home, {@code writeNanos} of it, then the area fsyncs), and the meta write plus log
 * reset. {@code writeBehindProblem} says why the flush ran without write-behind, null when it had
 * it; {@code writeBehindRequests} how many times it asked the kernel to start writing.
 */
public record CheckpointStats(
    long pages,
    long bytes,
    long walSyncNanos,
    long writeNanos,
    long flushNanos,
    long metaNanos,
    String writeBehindProblem,
    long writeBehindRequests) {
  public static final CheckpointStats NONE = new CheckpointStats(0, 0, 0, 0, 0, 0, null, 0);

  /** Flush bandwidth in MiB/s. */
  public double flushMibPerSecond() {
    return flushNanos == 0 ? 0 : bytes / 1048576.0 / (flushNanos / 1e9);
  }
}
