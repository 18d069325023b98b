package dev.idxkit.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The one owner of a benchmark's files: a fresh directory created in {@code @Setup} and deleted,
 * with everything in it, in {@code @TearDown}. Every file a benchmark writes (databases, page
 * files) lives under one of these, so a benchmark that fails halfway leaves nothing behind once its
 * tear-down ran.
 *
 * <p>Where: under the directory named by the system property {@value #PROPERTY} if set (pass it to
 * the forks with {@code -jvmArgsAppend -Didxkit.bench.dir=/fast/disk}), else under {@code
 * java.io.tmpdir}. The B+tree benchmarks need about 0.5 GB there, the page-read benchmark its
 * {@code fileMiB}.
 *
 * <p>{@link #close()} is idempotent.
 */
public final class BenchDir implements AutoCloseable {
  public static final String PROPERTY = "idxkit.bench.dir";

  private final Path path;
  private boolean closed;

  private BenchDir(Path path) {
    this.path = path;
  }

  /** A new empty directory named {@code idxkit-<prefix>-<random>} under the benchmark root. */
  public static BenchDir create(String prefix) {
    String root = System.getProperty(PROPERTY);
    Path parent = Path.of(root != null ? root : System.getProperty("java.io.tmpdir"));
    return create(parent, prefix);
  }

  /** A new empty directory under {@code parent} (tests pass their own). */
  public static BenchDir create(Path parent, String prefix) {
    try {
      Files.createDirectories(parent);
      return new BenchDir(Files.createTempDirectory(parent, "idxkit-" + prefix + "-"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a benchmark directory under " + parent, e);
    }
  }

  public Path path() {
    return path;
  }

  /** A path inside this directory (not created). */
  public Path resolve(String name) {
    return path.resolve(name);
  }

  /** Deletes the directory and everything in it. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    deleteTree(path);
  }

  /**
   * Deletes {@code root} and everything under it, if it exists: for the experiments' own
   * directories that are not a {@code BenchDir} (a kept work directory, a database made and dropped
   * inside one).
   */
  public static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete benchmark directory " + root, e);
    }
  }
}
