package dev.idxkit.core.internal.txn;

/**
 * What the last checkpoint did and how long each part took (nanoseconds): the log fsync (none for a
 * checkpoint beside the commits: the switch of log segments did it), the double write ({@code
 * doubledPages} of the {@code pages}, all but those formatted since the last checkpoint, to a file
 * of their own, fsynced, before any is written home), the flush (writing pages home, {@code
 * writeNanos} of it, then the area fsyncs), and the meta write plus log reset. {@code
 * writeBehindProblem} says why the flush ran without write-behind, null when it had it; {@code
 * writeBehindRequests} how many times it asked the kernel to start writing; {@code cleanupProblem}
 * what failed after the meta write (emptying the log segment the checkpoint left, deleting its
 * double write: files recovery knows to be obsolete), null when nothing did.
 */
public record CheckpointStats(
    long pages,
    long bytes,
    long doubledPages,
    long walSyncNanos,
    long doubleWriteNanos,
    long writeNanos,
    long flushNanos,
    long metaNanos,
    String writeBehindProblem,
    long writeBehindRequests,
    String cleanupProblem) {
  public static final CheckpointStats NONE =
      new CheckpointStats(0, 0, 0, 0, 0, 0, 0, 0, null, 0, null);

  /** Bytes of the double write: the doubled pages, of the same size as every page written. */
  public long doubledBytes() {
    return pages == 0 ? 0 : doubledPages * (bytes / pages);
  }

  /** Double-write bandwidth in MiB/s: the doubled pages' bytes, one sequential file. */
  public double doubleWriteMibPerSecond() {
    return doubleWriteNanos == 0 ? 0 : doubledBytes() / 1048576.0 / (doubleWriteNanos / 1e9);
  }

  /** The whole checkpoint: log fsync, double write, flush and meta write. */
  public long totalNanos() {
    return walSyncNanos + doubleWriteNanos + flushNanos + metaNanos;
  }

  /** Flush bandwidth in MiB/s. */
  public double flushMibPerSecond() {
    return flushNanos == 0 ? 0 : bytes / 1048576.0 / (flushNanos / 1e9);
  }
}
