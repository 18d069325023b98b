package dev.idxkit.idxbuild.temp;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the sort directories of a rebuild come from, in OpenEdge's order of precedence:
 *
 * <ol>
 *   <li>{@code --srt FILE} (alias {@code -SS}): that file, which must exist;
 *   <li>else {@code <dbname>.srt} in the current directory, if there is one;
 *   <li>else {@code -T DIR}: that one directory, without a limit;
 *   <li>else the current directory, without a limit.
 * </ol>
 *
 * The choice is returned with a sentence saying what was chosen and why, for the rebuild's report
 * and for the DBA who wonders why the sort files went where they went. Resolution parses the file
 * but does not touch the directories: {@link SrtFile#validate()} does that.
 */
public final class SrtSource {
  private SrtSource() {}

  /** The directories to use and a description of why ({@code "sort directories from ..."}). */
  public record Choice(SrtFile srt, String description) {}

  /**
   * Picks the sort directories.
   *
   * @param explicitSrt the {@code --srt} / {@code -SS} file, or null; relative to {@code
   *     currentDir}
   * @param dbName the database name; only its last path component is used ({@code /data/tpch} looks
   *     for {@code tpch.srt})
   * @param currentDir the working directory of the command
   * @param tempDir the {@code -T} directory, or null; relative to {@code currentDir}
   */
  public static Choice resolve(Path explicitSrt, String dbName, Path currentDir, Path tempDir) {
    if (explicitSrt != null) {
      // Messages name the file as the user typed it.
      Path f = currentDir.resolve(explicitSrt);
      if (!Files.exists(f)) {
        throw new SrtFileException(
            "sort file " + explicitSrt + " (given with --srt) does not exist");
      }
      if (Files.isDirectory(f)) {
        throw new SrtFileException(
            "sort file "
                + explicitSrt
                + " (given with --srt) is a directory (expected: a .srt file)");
      }
      return new Choice(
          SrtFile.parse(f, explicitSrt),
          "sort directories from " + explicitSrt + " (given with --srt)");
    }
    String base = baseName(dbName);
    String srtName = base + ".srt";
    Path dbSrt = currentDir.resolve(srtName);
    if (Files.isRegularFile(dbSrt)) {
      return new Choice(
          SrtFile.parse(dbSrt, Path.of(srtName)),
          "sort directories from " + srtName + " (found " + srtName + " in the current directory)");
    }
    if (tempDir != null) {
      Path t = currentDir.resolve(tempDir);
      return new Choice(
          SrtFile.ofDirectory(t, "-T directory"),
          "sort directory "
              + t
              + " without a size limit (from -T; no --srt and no "
              + srtName
              + " in the current directory)");
    }
    return new Choice(
        SrtFile.ofDirectory(currentDir, "current directory"),
        "sort directory "
            + currentDir
            + " without a size limit (the current directory; no --srt, no "
            + srtName
            + " there and no -T)");
  }

  private static String baseName(String dbName) {
    if (dbName == null || dbName.isBlank()) {
      throw new IllegalArgumentException("dbName : '" + dbName + "' (expected: a database name)");
    }
    Path p = Path.of(dbName).getFileName();
    return p == null ? dbName : p.toString();
  }
}
