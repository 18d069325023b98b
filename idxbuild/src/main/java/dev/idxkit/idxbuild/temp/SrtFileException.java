package dev.idxkit.idxbuild.temp;

import dev.idxkit.core.InvalidInputException;
import java.util.List;

/**
 * A {@code .srt} file that cannot be used: a malformed line, a missing or unwritable directory, no
 * directories at all. Every problem names the file and line in the user's terms ({@code "idx.srt:3:
 * size limit 'abc' is not a number (expected: KB, 0 for no limit)"}); when several lines are wrong
 * the message lists each on its own line, so one run of the command shows them all.
 */
public class SrtFileException extends InvalidInputException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public SrtFileException(String problem) {
    this(List.of(problem));
  }

  public SrtFileException(List<String> problems) {
    super(String.join("\n", problems));
    this.problems = List.copyOf(problems);
  }

  /** Each problem on its own, in file order. */
  public List<String> problems() {
    return problems;
  }
}
