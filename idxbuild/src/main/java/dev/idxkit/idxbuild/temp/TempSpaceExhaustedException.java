package dev.idxkit.idxbuild.temp;

import dev.idxkit.core.IdxkitException;
import java.util.List;

/**
 * No sort directory has room for the next block of a run: every directory of the {@code .srt} file
 * is at its size limit. The message names every directory with its limit and usage, so the DBA can
 * raise a limit or add a line. Not bad input: the same file may suffice for a smaller rebuild.
 */
public class TempSpaceExhaustedException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  private final transient List<TempSpace.Directory> directories;

  public TempSpaceExhaustedException(String message, List<TempSpace.Directory> directories) {
    super(message);
    this.directories = List.copyOf(directories);
  }

  /** Every directory as it stood when space ran out. */
  public List<TempSpace.Directory> directories() {
    return directories;
  }
}
