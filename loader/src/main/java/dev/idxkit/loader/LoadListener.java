package dev.idxkit.loader;

/**
 * What a running load tells its caller - a progress bar, a log, a test. Every method is called on
 * the loading thread, between batches (about a chunk of input, 1 MiB or 16k generated rows), so an
 * implementation must be quick and may call {@link Loader#cancel()}. All methods default to doing
 * nothing.
 */
public interface LoadListener {
  LoadListener NONE = new LoadListener() {};

  /** The load entered {@code phase}. */
  default void phase(LoadPhase phase) {}

  /** After each batch of records. */
  default void progress(LoadProgress progress) {}

  /**
   * After each checkpoint is durable: the rows so far and the resume point are published (bulk
   * modes) or committed with a synced log (live mode). A crash from here on resumes at {@code
   * progress.lastCheckpoint()}.
   */
  default void checkpoint(LoadProgress progress) {}

  /** Progress of the deferred index build, as {@link IndexBuild.Listener} reports it. */
  default void indexBuild(String step, long done, long total) {}

  /**
   * Something the user should know that is not an error (e.g. how a resume treated the reject
   * file).
   */
  default void note(String message) {}
}
