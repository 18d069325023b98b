package dev.idxkit.loader;

import dev.idxkit.loader.input.ResumePoint;

/**
 * A snapshot of a running load for progress displays. Counts are over the whole load, including the
 * runs before a resume.
 *
 * @param phase where the load is
 * @param recordsRead rows and rejected rows read so far
 * @param rowsLoaded rows appended or inserted so far (not all of them checkpointed yet)
 * @param rejected rows rejected so far
 * @param position where the input has been read to: a byte offset for files, a row count for the
 *     generator ({@link LoadInput#positionsAreBytes()})
 * @param size the input's size in the same unit, or -1 if unknown (for a percentage and an ETA)
 * @param startPosition where this run began to read (0, or the resume point's offset)
 * @param elapsedNanos time since this run started
 * @param checkpoints checkpoints published by this run
 * @param lastCheckpoint where the last checkpoint of the load stands (what a resume continues from)
 */
public record LoadProgress(
    LoadPhase phase,
    long recordsRead,
    long rowsLoaded,
    long rejected,
    long position,
    long size,
    long startPosition,
    long elapsedNanos,
    int checkpoints,
    ResumePoint lastCheckpoint) {

  /** The fraction of the input read, 0..1, or -1 if the size is unknown. */
  public double fraction() {
    return size <= 0 ? -1 : Math.min(1.0, (double) position / size);
  }

  /** Seconds until the input is read at this run's pace so far, or -1 if it cannot be told yet. */
  public double etaSeconds() {
    long done = position - startPosition;
    if (size <= 0 || done <= 0 || elapsedNanos <= 0) {
      return -1;
    }
    return (size - position) * (elapsedNanos / 1e9) / done;
  }
}
