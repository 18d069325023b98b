package dev.idxkit.idxbuild.temp;

import java.nio.file.Path;

/**
 * One temp file created by a {@link TempSpace} for a sort group. A writer appends to it only what
 * it has {@linkplain TempSpace#reserve reserved}, so {@link #size()} is the file's length once the
 * writer's writes have completed. Deleted by {@link TempSpace#release} or when the space closes.
 */
public final class Segment {
  private final TempSpace owner;
  private final Path path;
  private final int group;
  private final int directoryIndex;
  // Written under the owner's lock; volatile so writers and reports read it without the lock.
  private volatile long size;
  private volatile boolean released;

  Segment(TempSpace owner, Path path, int group, int directoryIndex) {
    this.owner = owner;
    this.path = path;
    this.group = group;
    this.directoryIndex = directoryIndex;
  }

  public Path path() {
    return path;
  }

  public int group() {
    return group;
  }

  /** Index of the segment's directory in the {@code .srt} order. */
  public int directoryIndex() {
    return directoryIndex;
  }

  /** Bytes reserved in this segment so far, which is where the next write goes. */
  public long size() {
    return size;
  }

  public boolean isReleased() {
    return released;
  }

  TempSpace owner() {
    return owner;
  }

  void grow(long bytes) {
    size += bytes;
  }

  void markReleased() {
    released = true;
  }

  @Override
  public String toString() {
    return path + " (" + size + " bytes)";
  }
}
