package dev.idxkit.core.internal.io;

import dev.idxkit.core.ProblemText;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the device busy while a checkpoint is still copying pages into the page cache.
 *
 * <p>Why: a buffered write only dirties the page cache; the device starts writing when the kernel
 * decides to (seconds later, or at the fsync). A checkpoint that writes everything and then fsyncs
 * pays for the copy and the device one after the other. Instead, each time {@code step} more bytes
 * of a file have been written, this asks the kernel to start writing that part out ({@code
 * sync_file_range(SYNC_FILE_RANGE_WRITE)}, which returns at once), so the device works on the pages
 * written so far while the next ones are copied, and the closing fsync only waits for the tail.
 * Several ranges are in flight at once; the kernel queues them, and each page is freed for reuse as
 * soon as its own write completes. PostgreSQL's {@code checkpoint_flush_after} does the same.
 *
 * <p>Speed only: durability comes from the fsync that follows. Where the call is not available (not
 * Linux, no native access, a native binding that throws a {@link LinkageError}) or the kernel
 * refuses it, the first failure turns it off for the rest of this checkpoint and {@link #problem()}
 * says why; the writes go on as plain buffered writes. Nothing it throws may reach the writer's I/O
 * thread, which would take it for a failed write and fail the checkpoint.
 *
 * <p>Thread-safe: the writer's I/O threads report their writes as they complete; one starter thread
 * of its own makes the requests.
 */
public final class WriteBehind implements AutoCloseable {
  /** Bytes of a file written between two requests to start writeback: 16 MiB. */
  public static final long STEP = 16L << 20;

  /** The kernel's side, replaceable so tests can refuse it. */
  public interface Kernel {
    /** A descriptor of {@code file} for {@link #start}. */
    int open(Path file) throws IOException;

    /** Starts writeback of {@code [offset, offset + length)} without waiting for it. */
    void start(int fd, long offset, long length) throws IOException;

    void close(int fd);
  }

  /** The C library's {@code sync_file_range}, through {@link Madvise}. */
  public static final Kernel NATIVE =
      new Kernel() {
        @Override
        public int open(Path file) throws IOException {
          return Madvise.openForWriteback(file);
        }

        @Override
        public void start(int fd, long offset, long length) throws IOException {
          Madvise.startWriteback(fd, offset, length);
        }

        @Override
        public void close(int fd) {
          Madvise.closeFd(fd);
        }
      };

  /** What has been written of one file since its last request. */
  private static final class Pending {
    final int fd;
    long from = Long.MAX_VALUE;
    long to;
    long bytes;

    Pending(int fd) {
      this.fd = fd;
    }
  }

  private final Kernel kernel;
  private final long step;
  private final Map<Path, Pending> files = new HashMap<>();
  private final ExecutorService starter =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "idxkit-write-behind");
            t.setDaemon(true);
            return t;
          });
  private volatile String problem;
  private long requests;

  public WriteBehind(Kernel kernel, long step) {
    if (step < 1) {
      throw new IllegalArgumentException("step : " + step + " (expected: >= 1)");
    }
    this.kernel = kernel;
    this.step = step;
  }

  /** Records that {@code [offset, offset + length)} of {@code file} was just written. */
  public synchronized void written(Path file, long offset, long length) {
    if (problem != null) {
      return;
    }
    try {
      Pending p = files.get(file);
      if (p == null) {
        p = new Pending(kernel.open(file));
        files.put(file, p);
      }
      p.from = Math.min(p.from, offset);
      p.to = Math.max(p.to, offset + length);
      p.bytes += length;
      if (p.bytes >= step) {
        int fd = p.fd;
        long from = p.from;
        long span = p.to - p.from;
        requests++;
        starter.execute(() -> start(fd, from, span));
        p.from = Long.MAX_VALUE;
        p.to = 0;
        p.bytes = 0;
      }
    } catch (IOException | RuntimeException | LinkageError e) {
      problem = ProblemText.of(e);
    }
  }

  // On the starter thread: the call blocks while the device's queue is full, which must slow the
  // device's side only, never the copying.
  private void start(int fd, long offset, long length) {
    if (problem != null) {
      return;
    }
    try {
      kernel.start(fd, offset, length);
    } catch (IOException | RuntimeException | LinkageError e) {
      problem = ProblemText.of(e);
    }
  }

  /** Why write-behind stopped, or null while it works. */
  public String problem() {
    return problem;
  }

  /** Writeback requests made so far. */
  public synchronized long requests() {
    return requests;
  }

  /**
   * Waits for the requests made (they only start writes; the device finishes them later) and closes
   * the descriptors; the rest of each file is left to the caller's fsync.
   */
  @Override
  public synchronized void close() {
    starter.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (starter.awaitTermination(1, TimeUnit.DAYS)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true; // the descriptors must not close under a running call
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    for (Pending p : files.values()) {
      kernel.close(p.fd);
    }
    files.clear();
  }
}
