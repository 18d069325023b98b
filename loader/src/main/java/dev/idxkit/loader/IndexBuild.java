package dev.idxkit.loader;

import dev.idxkit.core.Database;
import dev.idxkit.core.DuplicateEntryException;
import java.util.List;

/**
 * The deferred index build a {@link IndexMode#DEFERRED} load runs after its last row: the hook
 * through which the loader calls the rebuilder ({@code dev.idxkit.idxbuild.IndexRebuild}) without
 * depending on how it works.
 *
 * <h2>Contract</h2>
 *
 * {@link #build} is called with no bulk session or transaction open (the loader has published its
 * last checkpoint and closed its session), on the loading thread. It must:
 *
 * <ol>
 *   <li>rebuild each named index from the table's heap as it is published now, replacing the
 *       index's tree whatever it holds (the load left the old tree in place, marked inactive);
 *   <li>publish the new trees and mark them {@code ACTIVE}, all of them in one publish or each in
 *       its own - a crash before a publish must leave the index inactive, as the load left it;
 *   <li>on a unique index with two entries of the same key (NULL-holding keys excepted), publish
 *       nothing for that index, leave it inactive, and throw {@link DuplicateEntryException} naming
 *       the key and both RIDs - the loader fetches both rows for its report. A plain {@link
 *       dev.idxkit.core.DuplicateKeyException} (no RIDs) is reported with its message only.
 *   <li>return normally only when every named index is active.
 * </ol>
 *
 * Being interrupted (the thread's interrupt flag) may stop it with any {@link
 * dev.idxkit.core.IdxkitException}; the loader keeps its resume point in the "building indexes"
 * phase, so a resumed load runs the build again. It must therefore also accept indexes that a
 * previous, interrupted build already made active.
 */
@FunctionalInterface
public interface IndexBuild {
  /**
   * Builds {@code indexNames} (indexes of one table) and makes them active.
   *
   * @throws DuplicateEntryException a unique index has a key twice; nothing published for it
   */
  Result build(Database db, List<String> indexNames, Listener listener);

  /** What the build reports while it runs; called on any thread. */
  @FunctionalInterface
  interface Listener {
    /**
     * Progress of one step, e.g. {@code ("scan", 1_200_000, 6_001_215)}; {@code total} -1 when
     * unknown.
     */
    void progress(String step, long done, long total);
  }

  /**
   * What was built.
   *
   * @param indexes the indexes now active
   * @param entries index entries written, over all of them
   * @param summary a line or two for the load's summary (phases, times, temp space), may be empty
   */
  record Result(List<String> indexes, long entries, String summary) {
    public Result {
      indexes = List.copyOf(indexes);
      summary = summary == null ? "" : summary;
    }
  }
}
