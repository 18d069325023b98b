package dev.idxkit.core.spi;

import dev.idxkit.core.internal.io.Madvise;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Read-ahead for an input file read once from start to end in positional reads (the loader's CSV
 * and text inputs): asks the kernel to start reading the next {@value #WINDOW_MIB} MiB into the
 * page cache ({@code posix_fadvise(WILLNEED)}) while the reader works on what it has.
 *
 * <p>Why: the loader reads its input on one thread, which also cuts it into chunks for the parse
 * threads; when the file is not in the page cache (the usual case for a file just copied in, or one
 * the kernel reclaimed since), every read waited for the device with the parse threads idle.
 * Measured with {@code idxkit bench load --tpch-sf 1}: a round whose 782 MB input had left the
 * cache spent 4.3 s cutting instead of 0.8 s. The kernel's own read-ahead for sequential reads is a
 * few hundred KiB; this keeps tens of MiB in flight.
 *
 * <p>How: before reading at {@code offset}, if {@code offset} is past the middle of the window
 * hinted last, hint from its end up to {@code offset + window}. So each byte is hinted once, about
 * half a window before it is read. Example (window 64 MiB): reading at 0 hints 0..64 MiB, at 32 MiB
 * hints 64..96 MiB, at 64 MiB hints 96..128 MiB.
 *
 * <p>Speed only: where the call is not available (another OS, no native access) or the kernel
 * refuses it, the first failure turns hints off for this file, and reads go on as before. Not
 * thread-safe: one per reader.
 */
public final class InputReadAhead implements AutoCloseable {
  /** Size of the window hinted ahead of the reader. */
  public static final int WINDOW_MIB = 64;

  /** How a range is hinted; replaceable so tests can record or refuse the hints. */
  @FunctionalInterface
  public interface Hint {
    void willNeed(long offset, long length) throws IOException;
  }

  private final long window;
  private Hint hint;
  private Runnable onClose;
  private long hintedTo = -1;

  /** Hints through {@code hint} with a window of {@code windowBytes}. */
  public InputReadAhead(Hint hint, long windowBytes, Runnable onClose) {
    if (windowBytes < 2) {
      throw new IllegalArgumentException("windowBytes : " + windowBytes + " (expected: >= 2)");
    }
    this.hint = hint;
    this.window = windowBytes;
    this.onClose = onClose;
  }

  /**
   * Read-ahead for {@code file} through the C library, or one that does nothing where it cannot.
   */
  public static InputReadAhead of(Path file) {
    int fd;
    try {
      fd = Madvise.openForAdvice(file);
    } catch (IOException | RuntimeException | LinkageError e) {
      return new InputReadAhead(null, (long) WINDOW_MIB << 20, () -> {});
    }
    return new InputReadAhead(
        (offset, length) -> Madvise.willNeed(fd, offset, length),
        (long) WINDOW_MIB << 20,
        () -> Madvise.closeFd(fd));
  }

  /** Whether hints are still given (false once one failed, or where they cannot be). */
  public boolean active() {
    return hint != null;
  }

  /** Call before reading at {@code offset}. */
  public void before(long offset) {
    if (hint == null || (offset >= 0 && offset < hintedTo - window / 2)) {
      return;
    }
    long from = offset < hintedTo ? hintedTo : offset;
    long to = offset + window;
    try {
      hint.willNeed(from, to - from);
      hintedTo = to;
    } catch (IOException | RuntimeException | LinkageError e) {
      hint = null; // speed only: read on without
    }
  }

  /** Stops hinting and closes what it opened; once (a descriptor closed twice may be another's). */
  @Override
  public void close() {
    hint = null;
    Runnable r = onClose;
    onClose = null;
    if (r != null) {
      r.run();
    }
  }
}
