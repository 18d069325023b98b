package dev.idxkit.jmh;

import java.nio.file.Path;

/**
 * Points {@link BenchDir} at a test's temporary directory for the duration of a test, so that a
 * benchmark's set-up and tear-down can be run as they are and the test can check they leave nothing
 * behind.
 */
public final class BenchRoot implements AutoCloseable {
  private final String previous;

  private BenchRoot(Path root) {
    previous = System.getProperty(BenchDir.PROPERTY);
    System.setProperty(BenchDir.PROPERTY, root.toString());
  }

  public static BenchRoot at(Path root) {
    return new BenchRoot(root);
  }

  @Override
  public void close() {
    if (previous == null) {
      System.clearProperty(BenchDir.PROPERTY);
    } else {
      System.setProperty(BenchDir.PROPERTY, previous);
    }
  }
}
