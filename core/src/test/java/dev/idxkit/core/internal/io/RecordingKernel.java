package dev.idxkit.core.internal.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A {@link WriteBehind.Kernel} for tests: records what it was asked, as {@code "open FILE FD"},
 * {@code "start FD OFFSET LENGTH"} and {@code "close FD"}, and refuses {@code open} or {@code
 * start} when told to, with the message the native kernel gives for that case.
 */
public final class RecordingKernel implements WriteBehind.Kernel {
  /** What {@link #open} says when refusing: the call does not exist here. */
  public static final String OPEN_REFUSED = "sync_file_range is not available on this system";

  /** What {@link #start} says when refusing: the kernel turned the request down. */
  public static final String START_REFUSED = "sync_file_range refused: Operation not supported";

  /** What {@link #open} throws when unlinked: the native function cannot be called at all. */
  public static final String UNLINKED = "sync_file_range: symbol not found in the C library";

  public final List<String> calls = Collections.synchronizedList(new ArrayList<>());
  private final boolean refuseOpen;
  private final boolean refuseStart;
  private final boolean unlinked;
  private int nextFd = 10;

  public RecordingKernel(boolean refuseOpen, boolean refuseStart) {
    this(refuseOpen, refuseStart, false);
  }

  /**
   * @param unlinked {@code open} throws an {@link UnsatisfiedLinkError}, as a native binding does
   *     when the function is missing: an error, not an exception
   */
  public RecordingKernel(boolean refuseOpen, boolean refuseStart, boolean unlinked) {
    this.refuseOpen = refuseOpen;
    this.refuseStart = refuseStart;
    this.unlinked = unlinked;
  }

  @Override
  public synchronized int open(Path file) throws IOException {
    if (unlinked) {
      throw new UnsatisfiedLinkError(UNLINKED);
    }
    if (refuseOpen) {
      throw new IOException(OPEN_REFUSED);
    }
    calls.add("open " + file + " " + nextFd);
    return nextFd++;
  }

  @Override
  public void start(int fd, long offset, long length) throws IOException {
    calls.add("start " + fd + " " + offset + " " + length);
    if (refuseStart) {
      throw new IOException(START_REFUSED);
    }
  }

  @Override
  public void close(int fd) {
    calls.add("close " + fd);
  }
}
