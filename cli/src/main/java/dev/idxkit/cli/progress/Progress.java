package dev.idxkit.cli.progress;

/**
 * Progress of a long command, shown on stderr so that stdout stays data: a bar with rate and ETA on
 * a terminal, a plain line every few seconds in a log, or nothing.
 *
 * <p>Call order: {@link #start} a phase, {@link #step} as units complete, {@link #done} when it
 * ends; then the next phase, and {@link #close()} at the end (also on failure: it ends an open
 * phase without claiming it completed). Implementations are used from one thread (the command's);
 * the plain renderer's ticker reads the counters from its own.
 */
public interface Progress extends AutoCloseable {
  /** A phase begins; {@code total} units (rows, pages) or -1 if unknown. */
  void start(String phase, long total, String unit);

  /** {@code n} more units done. */
  void step(long n);

  /** The current phase completed. */
  void done();

  /** Ends an open phase (without a completion line) and releases the renderer; idempotent. */
  @Override
  void close();

  /** Shows nothing. */
  Progress NONE =
      new Progress() {
        @Override
        public void start(String phase, long total, String unit) {}

        @Override
        public void step(long n) {}

        @Override
        public void done() {}

        @Override
        public void close() {}
      };
}
