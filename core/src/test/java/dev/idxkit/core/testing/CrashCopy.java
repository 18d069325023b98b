package dev.idxkit.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a crash at this instant would leave on disk: a copy of every file of a database directory
 * but its lock, taken while the database is open. Writes the OS has accepted are in the copy, as
 * they would survive a process kill.
 */
public final class CrashCopy {
  private CrashCopy() {}

  public static Path of(Path dir, Path to) throws IOException {
    Files.createDirectories(to);
    try (var files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (!f.getFileName().toString().equals("lock")) {
          Files.copy(f, to.resolve(f.getFileName()));
        }
      }
    }
    return to;
  }
}
