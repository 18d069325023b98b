package dev.idxkit.core.internal.txn;

/**
 * What the last checkpoint did and how long each part took (nanoseconds): the log fsync, copying
 * pages home with their area fsyncs (the flush), and the meta write plus log reset.
 */
public record CheckpointStats(
    long pages, long bytes, long walSyncNanos, long flushNanos, long metaNanos) {
  public static final CheckpointStats NONE = new CheckpointStats(0, 0, 0, 0, 0);

  /** Flush bandwidth in MiB/s. */
  public double flushMibPerSecond() {
    return flushNanos == 0 ? 0 : bytes / 1048576.0 / (flushNanos / 1e9);
  }
}
