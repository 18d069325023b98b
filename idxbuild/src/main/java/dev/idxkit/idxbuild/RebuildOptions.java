package dev.idxkit.idxbuild;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.idxbuild.temp.SrtFile;

/**
 * The knobs of a rebuild, named as OpenEdge names them where it has them.
 *
 * @param selection which indexes
 * @param scanThreads phase-1 workers splitting the heap pages ({@code -datascanthreads})
 * @param threads groups merged and built at once ({@code -threadnum})
 * @param mergeThreads workers for one big group, split by key range ({@code -mergethreads})
 * @param sortGroups sort groups, 8..64 ({@code -SG})
 * @param memoryBytes total memory for sort buffers ({@code --memory})
 * @param sortBlockKb run block size in KB, 8..64 ({@code -TB})
 * @param mergeFanIn runs merged at once, 2..1024 ({@code -TM})
 * @param mergeBlockKb read-ahead per run while merging, in KB ({@code -TMB})
 * @param leafFill percent of each leaf filled, 10..100 ({@code -pfactor})
 * @param srt the temp directories
 */
public record RebuildOptions(
    Selection selection,
    int scanThreads,
    int threads,
    int mergeThreads,
    int sortGroups,
    long memoryBytes,
    int sortBlockKb,
    int mergeFanIn,
    int mergeBlockKb,
    int leafFill,
    SrtFile srt) {
  public static final int DEFAULT_SORT_GROUPS = 48;
  public static final int DEFAULT_FAN_IN = 32;
  public static final int DEFAULT_BLOCK_KB = 64;

  public RebuildOptions {
    check("--scan-threads", scanThreads, 1, 256);
    check("--threads", threads, 1, 256);
    check("--merge-threads", mergeThreads, 1, 256);
    check("-SG", sortGroups, 8, 64);
    check("-TB", sortBlockKb, 8, 64);
    check("-TM", mergeFanIn, 2, 1024);
    check("-TMB", mergeBlockKb, 8, 4096);
    check("--fill (-pfactor)", leafFill, 10, 100);
    if (memoryBytes < (64L << 10)) {
      throw new InvalidInputException("--memory : " + memoryBytes + " bytes (expected: >= 64 KiB)");
    }
    if (selection == null || srt == null) {
      throw new NullPointerException("selection and srt are required");
    }
  }

  /** Defaults for this machine: a thread per CPU, a safe share of the heap for sorting. */
  public static RebuildOptions defaults(SrtFile srt) {
    int cpus = Runtime.getRuntime().availableProcessors();
    return new RebuildOptions(
        Selection.ALL,
        cpus,
        cpus,
        cpus,
        DEFAULT_SORT_GROUPS,
        defaultMemory(),
        DEFAULT_BLOCK_KB,
        DEFAULT_FAN_IN,
        DEFAULT_BLOCK_KB,
        100,
        srt);
  }

  /** Half of the heap that is free to grow into, at least 16 MiB: sort buffers live on the heap. */
  public static long defaultMemory() {
    Runtime rt = Runtime.getRuntime();
    long max = rt.maxMemory();
    return Math.max(16L << 20, max / 2);
  }

  public RebuildOptions withSelection(Selection s) {
    return new RebuildOptions(
        s,
        scanThreads,
        threads,
        mergeThreads,
        sortGroups,
        memoryBytes,
        sortBlockKb,
        mergeFanIn,
        mergeBlockKb,
        leafFill,
        srt);
  }

  /**
   * The three thread counts, in the record's order: {@code scanThreads}, {@code threads} (groups
   * merged and built at once) and {@code mergeThreads} (key ranges of one big group).
   */
  public RebuildOptions withThreads(int scanThreads, int threads, int mergeThreads) {
    return new RebuildOptions(
        selection,
        scanThreads,
        threads,
        mergeThreads,
        sortGroups,
        memoryBytes,
        sortBlockKb,
        mergeFanIn,
        mergeBlockKb,
        leafFill,
        srt);
  }

  public RebuildOptions withMemory(long bytes) {
    return new RebuildOptions(
        selection,
        scanThreads,
        threads,
        mergeThreads,
        sortGroups,
        bytes,
        sortBlockKb,
        mergeFanIn,
        mergeBlockKb,
        leafFill,
        srt);
  }

  public RebuildOptions withMerge(int sortGroups, int blockKb, int fanIn, int mergeBlockKb) {
    return new RebuildOptions(
        selection,
        scanThreads,
        threads,
        mergeThreads,
        sortGroups,
        memoryBytes,
        blockKb,
        fanIn,
        mergeBlockKb,
        leafFill,
        srt);
  }

  public RebuildOptions withLeafFill(int fill) {
    return new RebuildOptions(
        selection,
        scanThreads,
        threads,
        mergeThreads,
        sortGroups,
        memoryBytes,
        sortBlockKb,
        mergeFanIn,
        mergeBlockKb,
        fill,
        srt);
  }

  public RebuildOptions withSrt(SrtFile s) {
    return new RebuildOptions(
        selection,
        scanThreads,
        threads,
        mergeThreads,
        sortGroups,
        memoryBytes,
        sortBlockKb,
        mergeFanIn,
        mergeBlockKb,
        leafFill,
        s);
  }

  private static void check(String name, int v, int min, int max) {
    if (v < min || v > max) {
      throw new InvalidInputException(name + " : " + v + " (expected: " + min + ".." + max + ")");
    }
  }
}
