package dev.idxkit.cli;

import dev.idxkit.core.InvalidInputException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Every path a user names on the command line is checked here, before the command does any work: a
 * report that cannot be written after a rebuild has published, or an input that turns out to be a
 * directory after a load has marked the indexes inactive, is work done and then thrown away. Each
 * refusal is bad input (exit 2) in plain words, naming the option and the path:
 *
 * <pre>
 * --json sort1 : is a directory (expected: a file name)
 * --reject out/rej.txt : directory out does not exist
 * --csv data : is a directory (expected: a file)
 * </pre>
 *
 * The checks look at the file system as it is now; a file removed between the check and its use
 * still fails later, with the I/O error's own words.
 */
public final class PathChecks {
  private PathChecks() {}

  /** A file the command will create or replace. */
  public static void outputFile(Path file, String option) {
    String what = option + " " + file + " : ";
    if (Files.isDirectory(file)) {
      throw new InvalidInputException(what + "is a directory (expected: a file name)");
    }
    parentWritable(file, what);
    if (Files.exists(file) && !Files.isWritable(file)) {
      throw new InvalidInputException(what + "is not writable (check its permissions)");
    }
  }

  /** A directory the command will write into, created if missing. */
  public static void outputDirectory(Path dir, String option) {
    String what = option + " " + dir + " : ";
    if (Files.exists(dir)) {
      if (!Files.isDirectory(dir)) {
        throw new InvalidInputException(what + "is a file (expected: a directory)");
      }
      if (!Files.isWritable(dir)) {
        throw new InvalidInputException(what + "is not writable (check its permissions)");
      }
      return;
    }
    parentWritable(dir, what);
  }

  /** A file the command will read. */
  public static void inputFile(Path file, String option) {
    String what = option + " " + file + " : ";
    if (!Files.exists(file)) {
      throw new InvalidInputException(what + "does not exist");
    }
    if (Files.isDirectory(file)) {
      throw new InvalidInputException(what + "is a directory (expected: a file)");
    }
    if (!Files.isReadable(file)) {
      throw new InvalidInputException(what + "is not readable (check its permissions)");
    }
  }

  private static void parentWritable(Path path, String what) {
    Path parent = path.toAbsolutePath().normalize().getParent();
    if (parent == null) {
      return;
    }
    if (!Files.exists(parent)) {
      Path shown = path.getParent() != null ? path.getParent() : parent;
      throw new InvalidInputException(what + "directory " + shown + " does not exist");
    }
    if (!Files.isDirectory(parent)) {
      throw new InvalidInputException(what + parent + " is not a directory");
    }
    if (!Files.isWritable(parent)) {
      throw new InvalidInputException(
          what + "cannot create files in " + parent + " (no write permission)");
    }
  }
}
