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
 * @param loadingThreadCpuNanos CPU time of the loading thread (index build included): compared with
 *     its wall-clock parts it shows how much of the time it was waiting for a core
 * @param processCpuNanos CPU time of the whole process during the run (GC and anything else the
 *     process did included), or -1 if the JVM does not tell
 * @param loadProcessCpuNanos the same up to the end of the loading, before the index build: what
 *     the load's rows/s cost (-1 if the JVM does not tell)
 */
public record LoadTimings(
    long totalNanos,
    long cutNanos,
    long waitNanos,
    long appendNanos,
    long checkpointNanos,
    long indexBuildNanos,
    long parseCpuNanos,
    long encodeCpuNanos,
    long loadingThreadCpuNanos,
    long processCpuNanos,
    long loadProcessCpuNanos) {}
