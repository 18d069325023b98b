package dev.idxkit.jmh.experiments;

import dev.idxkit.jmh.BenchDir;
import java.nio.file.Path;

/**
 * An experiment's scratch directory (a {@link BenchDir}) that is also deleted when the JVM is
 * stopped by Ctrl-C or SIGTERM: {@code idxkit bench} stops a child that way, and a 1 GiB file left
 * in {@code /tmp} by an interrupted run is litter on a shared machine. {@link #close()} deletes it
 * and removes the hook; it is idempotent. {@link #keep()} removes the hook and leaves the
 * directory.
 */
final class Scratch implements AutoCloseable {
  private final BenchDir dir;
  final Thread hook;

  private Scratch(BenchDir dir) {
    this.dir = dir;
    this.hook = new Thread(dir::close, "idxkit-bench-scratch-cleanup");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** A new directory {@code idxkit-<prefix>-*} under {@code parent}. */
  static Scratch under(Path parent, String prefix) {
    return new Scratch(BenchDir.create(parent, prefix));
  }

  Path path() {
    return dir.path();
  }

  Path resolve(String name) {
    return dir.resolve(name);
  }

  /**
   * Keeps the directory after the JVM exits: without this the hook would delete it at {@code
   * System.exit}, whatever the experiment printed about keeping it.
   */
  void keep() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // Already shutting down: the hook runs (or ran); nothing left to keep.
    }
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // Already shutting down: the hook runs (or ran) and deletes the directory itself.
      return;
    }
    dir.close();
  }
}
