package dev.idxkit.loader;

import dev.idxkit.core.Database;
import dev.idxkit.core.testing.FileTrees;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.temp.SrtFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The real deferred build ({@link RebuildIndexBuild}) with a small memory budget, counting its
 * calls for tests that check when the loader builds. Each build sorts in a temp directory of its
 * own, removed when the build returns: deleteOnExit did not run in Surefire's forks, and every test
 * run left its directories in /tmp.
 */
final class TestIndexBuild implements IndexBuild {
  int calls;

  @Override
  public Result build(Database db, List<String> indexNames, Listener listener) {
    calls++;
    Path sort;
    try {
      sort = Files.createTempDirectory("idxkit-test-sort");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      IndexBuild real =
          new RebuildIndexBuild(
              RebuildOptions.defaults(SrtFile.ofDirectory(sort))
                  .withThreads(2, 2, 2)
                  .withMemory(16L << 20),
              "test sort directory " + sort);
      return real.build(db, indexNames, listener);
    } finally {
      FileTrees.delete(sort);
    }
  }
}
