package dev.idxkit.idxbuild.sort;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Counts what a test must give back: open files under a directory, live threads. */
final class Leaks {
  private static final Path FDS = Path.of("/proc/self/fd");

  private Leaks() {}

  /** True where open files can be listed (Linux). */
  static boolean canCountOpenFiles() {
    return Files.isDirectory(FDS);
  }

  /** Open file descriptors of this process that point into {@code dir}. */
  static long openFilesUnder(Path dir) {
    String prefix = dir.toAbsolutePath().toString();
    try (Stream<Path> s = Files.list(FDS)) {
      return s.filter(
              fd -> {
                try {
                  return Files.readSymbolicLink(fd).toString().startsWith(prefix);
                } catch (IOException e) {
                  return false; // closed while listing: not open
                }
              })
          .count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Set<Thread> liveThreads() {
    return new HashSet<>(Thread.getAllStackTraces().keySet());
  }

  /**
   * Names of live threads that were not in {@code baseline}, each first given up to 10 s in all to
   * end: a pool's {@code awaitTermination} returns once its last worker has left its loop, a moment
   * before that thread has ended (a worker still alive then failed this check once).
   */
  static List<String> newThreads(Set<Thread> baseline) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (!baseline.contains(t)) {
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
    }
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && !baseline.contains(t))
        .map(Thread::getName)
        .toList();
  }
}
