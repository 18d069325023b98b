package dev.idxkit.idxbuild;

import dev.idxkit.core.IdxkitException;

/** Shared by a rebuild's threads: set once (Ctrl-C, a failure elsewhere), checked often. */
final class Cancel {
  private volatile String reason;

  void cancel(String why) {
    if (reason == null) {
      reason = why;
    }
  }

  boolean cancelled() {
    return reason != null;
  }

  /** Throws {@link RebuildCancelledException} once cancelled, or if the thread was interrupted. */
  void check() {
    if (Thread.currentThread().isInterrupted()) {
      cancel("interrupted");
    }
    String r = reason;
    if (r != null) {
      throw new RebuildCancelledException(r);
    }
  }

  /** The rebuild stopped before publishing: the database is as it was. */
  static final class RebuildCancelledException extends IdxkitException {
    private static final long serialVersionUID = 1L;

    RebuildCancelledException(String reason) {
      super("rebuild cancelled (" + reason + "); the database is unchanged");
    }
  }
}
