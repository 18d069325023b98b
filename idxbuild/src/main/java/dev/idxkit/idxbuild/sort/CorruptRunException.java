package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.IdxkitException;
import java.nio.file.Path;

/**
 * A sort run file does not hold what its writer wrote: a checksum mismatch, a truncated file, a
 * block whose structure does not add up. Never a wrong entry: a reader stops here, naming the file
 * and the offset of the damaged block. The database is untouched (runs are temp files), so the
 * remedy is to look at the disk and run the rebuild again.
 */
public class CorruptRunException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long blockOffset;

  public CorruptRunException(Path file, long blockOffset, String detail) {
    super("corrupt sort run file " + file + ", block at offset " + blockOffset + ": " + detail);
    this.file = file;
    this.blockOffset = blockOffset;
  }

  public Path file() {
    return file;
  }

  /** Byte offset of the damaged block in {@link #file()}. */
  public long blockOffset() {
    return blockOffset;
  }
}
