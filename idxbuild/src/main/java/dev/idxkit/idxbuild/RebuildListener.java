package dev.idxkit.idxbuild;

/**
 * Hears what a rebuild is doing, for progress bars and logs. Called from the rebuild's threads;
 * implementations must be quick and thread-safe. Units are pages in the scan, entries in the merge
 * and build.
 */
public interface RebuildListener {
  RebuildListener NONE = new RebuildListener() {};

  default void planned(RebuildPlan plan, String srtChoice) {}

  default void phaseStarted(String phase, long totalUnits, String unit) {}

  /** Units done so far in the phase (cumulative). */
  default void progress(String phase, long doneUnits) {}

  default void phaseFinished(RebuildReport.Phase phase) {}

  /** Something the DBA should know that did not stop the rebuild. */
  default void warning(String message) {}
}
