package dev.idxkit.loader;

import dev.idxkit.core.Database;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.RebuildReport;
import dev.idxkit.idxbuild.Selection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The deferred index build of a load, done by the rebuilder: the named indexes are rebuilt from the
 * table's heap in one {@link IndexRebuild} and published active together. A unique violation
 * arrives as the core's {@link dev.idxkit.core.DuplicateEntryException} with both RIDs, which is
 * what {@link IndexBuild}'s contract asks for; nothing is published then, so the indexes stay
 * inactive as the load left them.
 */
public final class RebuildIndexBuild implements IndexBuild {
  private final RebuildOptions options;
  private final String srtChoice;

  /**
   * @param options the rebuild's knobs (sort directories, memory, threads); the selection is
   *     replaced by the indexes each build names
   * @param srtChoice where the sort directories came from, for the report
   */
  public RebuildIndexBuild(RebuildOptions options, String srtChoice) {
    this.options = options;
    this.srtChoice = srtChoice;
  }

  @Override
  public Result build(Database db, List<String> indexNames, Listener listener) {
    Set<String> names = new LinkedHashSet<>(indexNames);
    RebuildOptions o = options.withSelection(new Selection(Set.of(), Set.of(), names, false));
    RebuildListener progress =
        new RebuildListener() {
          private volatile long total;

          @Override
          public void phaseStarted(String phase, long totalUnits, String unit) {
            total = totalUnits;
            listener.progress(phase, 0, totalUnits);
          }

          @Override
          public void progress(String phase, long doneUnits) {
            listener.progress(phase, doneUnits, total);
          }
        };
    RebuildReport r = new IndexRebuild(db, o, srtChoice, progress).run();
    StringBuilder summary = new StringBuilder();
    for (RebuildReport.Phase p : r.phases()) {
      summary.append(summary.length() == 0 ? "" : ", ");
      summary.append(String.format(Locale.ROOT, "%s %.2f s", p.name(), p.wallNanos() / 1e9));
    }
    summary.append(
        String.format(
            Locale.ROOT,
            "; %,d keys, %,d runs, %d merge passes",
            r.keys(),
            r.runs(),
            r.mergePasses()));
    return new Result(
        r.indexes().stream().map(RebuildReport.IndexResult::name).toList(),
        r.keys(),
        summary.toString());
  }
}
