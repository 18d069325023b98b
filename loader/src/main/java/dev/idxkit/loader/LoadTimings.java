package dev.idxkit.loader;

/**
 * Where a load's time went, for its summary and for benchmarks. The loading thread's time is split
 * into cutting, waiting, appending and checkpointing (wall-clock, they add up to about the loading
 * phase); parsing and encoding run on the parse threads and are given as CPU time summed over them,
 * so on N cores the loading phase can be as short as (parse + encode) / N.
 *
 * @param totalNanos the whole run, wall clock
 * @param cutNanos cutting the input into chunks (a sequential byte scan, on the loading thread)
 * @param waitNanos the loading thread waiting for a parsed chunk (parsing is behind)
 * @param appendNanos appending rows to heap pages (bulk) or inserting them (live), and counting
 * @param checkpointNanos flushing, syncing and publishing checkpoints, reject file included
 * @param indexBuildNanos the deferred index build
 * @param parseCpuNanos CPU time of parsing chunks into values, over all parse threads
 * @param encodeCpuNanos CPU time of encoding values into records, over all parse threads (bulk
 *     modes; live mode encodes while inserting, inside {@code appendNanos})
 */
public record LoadTimings(
    long totalNanos,
    long cutNanos,
    long waitNanos,
    long appendNanos,
    long checkpointNanos,
    long indexBuildNanos,
    long parseCpuNanos,
    long encodeCpuNanos) {
  public static final LoadTimings ZERO = new LoadTimings(0, 0, 0, 0, 0, 0, 0, 0);
}
