package dev.idxkit.idxbuild;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a rebuild did: per phase, per index and in total. The CLI prints it and writes it as JSON
 * with {@code --json}.
 *
 * @param plan the plan it followed
 * @param srtChoice where the temp directories came from
 * @param phases scan, merge (intermediate passes), build (final merge into trees), publish
 * @param indexes what each index became
 * @param tempBytesPerDirectory bytes written to each temp directory
 * @param totalNanos wall time of the whole rebuild
 * @param usage process CPU and I/O over the rebuild
 */
public record RebuildReport(
    RebuildPlan plan,
    String srtChoice,
    List<Phase> phases,
    List<IndexResult> indexes,
    Map<Path, Long> tempBytesPerDirectory,
    long rows,
    long keys,
    long runs,
    int mergePasses,
    long pagesWritten,
    long totalNanos,
    ResourceUsage usage) {

  /** One phase: wall and CPU time and what it handled. */
  public record Phase(String name, long wallNanos, long cpuNanos, long units, String unit) {
    public double unitsPerSecond() {
      return wallNanos == 0 ? 0 : units / (wallNanos / 1e9);
    }
  }

  /** One rebuilt index; {@code ranges} > 1 when its group was merged on several threads. */
  public record IndexResult(
      String name, int group, int ranges, long entries, int height, long pages, long root) {}

  public double keysPerSecond() {
    return totalNanos == 0 ? 0 : keys / (totalNanos / 1e9);
  }
}
