package dev.idxkit.cli;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.ProblemText;
import java.io.IOException;
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
 * still fails later, with the I/O error's own words. Whether a directory takes new files is tried,
 * not asked: {@code access(2)} (what {@link Files#isWritable} asks) answers yes to root for any
 * directory of a writable mount, {@code /proc} and {@code /sys} included, where creating a file
 * then fails. The CLI fuzz found {@code dump --csv /proc/out.txt} refused only after the database
 * was opened, as a failure (exit 1) naming the dump's temporary file. So an empty file is created
 * in the directory and deleted at once ({@code .idxkit-probe-PID-N}).
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
      tryCreate(dir, what);
      return;
    }
    parentWritable(dir, what);
  }

  /**
   * A directory the command will create with any missing parents (a new database): its nearest
   * existing ancestor must be a directory that takes new files.
   */
  public static void creatableDirectory(Path dir, String option) {
    String what = option + " " + dir + " : ";
    Path existing = dir.toAbsolutePath().normalize();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing != null) {
      takesNewFiles(existing, what);
    }
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
    takesNewFiles(parent, what);
  }

  /** {@code dir}, which exists, is a directory where this process can create a file. */
  private static void takesNewFiles(Path dir, String what) {
    if (!Files.isDirectory(dir)) {
      throw new InvalidInputException(what + dir + " is not a directory");
    }
    if (!Files.isWritable(dir)) {
      throw new InvalidInputException(
          what + "cannot create files in " + dir + " (no write permission)");
    }
    tryCreate(dir, what);
  }

  /** Creates an empty file in {@code dir} and deletes it; refuses the path if that fails. */
  private static void tryCreate(Path dir, String what) {
    Path probe =
        dir.resolve(
            ".idxkit-probe-"
                + ProcessHandle.current().pid()
                + "-"
                + Long.toHexString(System.nanoTime()));
    try {
      Files.createFile(probe);
    } catch (IOException e) {
      throw new InvalidInputException(
          what + "cannot create files in " + dir + " (" + ProblemText.of(e) + ")");
    }
    try {
      Files.delete(probe);
    } catch (IOException e) {
      // Created but not deleted: the directory takes files, which is what was asked; the empty
      // probe stays behind rather than stop the command.
    }
  }
}
