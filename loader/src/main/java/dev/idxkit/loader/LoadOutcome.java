package dev.idxkit.loader;

/** How a load ended. */
public enum LoadOutcome {
  /** Every record read; rows appended; indexes handled as the mode says; resume point removed. */
  COMPLETED,
  /**
   * Stopped by {@link Loader#cancel()} or an interrupt: the rows up to the point where it stopped
   * were checkpointed, and {@link StartMode#RESUME} continues from there.
   */
  CANCELLED,
  /**
   * More rejected rows than {@code maxErrors}: the table keeps the rows of the last checkpoint (not
   * those read after it; in live mode, where each batch commits with its resume point, those of the
   * last batch commit); {@link StartMode#RESUME} with a higher limit, or {@link StartMode#RESTART}
   * after fixing the input, goes on.
   */
  TOO_MANY_ERRORS,
  /**
   * Every row was loaded but the deferred index build found two rows with the same key in a unique
   * index ({@link LoadReport#duplicate()}): the table's indexes stay inactive until the duplicate
   * is removed and {@code idxkit idxbuild DB --inactive} builds them.
   */
  DUPLICATE_KEYS;

  /** The command line's exit code: 0 when completed, 1 otherwise (the load did not finish). */
  public int exitCode() {
    return this == COMPLETED ? 0 : 1;
  }
}
