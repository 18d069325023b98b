package dev.idxkit.loader;

import dev.idxkit.core.Database;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.temp.SrtFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The real deferred build ({@link RebuildIndexBuild}) with a small memory budget, sorting in a temp
 * directory of its own, counting its calls for tests that check when the loader builds.
 */
final class TestIndexBuild implements IndexBuild {
  int calls;
  private final IndexBuild real;

  TestIndexBuild() {
    try {
      Path sort = Files.createTempDirectory("idxkit-test-sort");
      sort.toFile().deleteOnExit();
      real =
          new RebuildIndexBuild(
              RebuildOptions.defaults(SrtFile.ofDirectory(sort))
                  .withThreads(2, 2, 2)
                  .withMemory(16L << 20),
              "test sort directory " + sort);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Result build(Database db, List<String> indexNames, Listener listener) {
    calls++;
    return real.build(db, indexNames, listener);
  }
}
