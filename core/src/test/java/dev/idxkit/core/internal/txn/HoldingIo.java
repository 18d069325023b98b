package dev.idxkit.core.internal.txn;

import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.testing.ForwardingFileChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.function.Predicate;

/**
 * The real file channels, one of whose positional writes can be held (until {@link #release}) or
 * failed once, on the first file that matches; and a count of the log segments a checkpoint beside
 * the commits emptied (a truncate to nothing of {@code wal} or {@code wal2} on the checkpoint's
 * thread). Shared by the tests of checkpoints beside the commits.
 */
final class HoldingIo implements FileIo, AutoCloseable {
  /** Counted down when the held write is reached; it waits for {@link #release}. */
  final CountDownLatch held = new CountDownLatch(1);

  /** Counted down when the write to fail is refused. */
  final CountDownLatch failed = new CountDownLatch(1);

  /** A permit for each log segment a checkpoint beside the commits emptied. */
  final Semaphore emptied = new Semaphore(0);

  private final CountDownLatch go = new CountDownLatch(1);
  private volatile Predicate<Path> hold;
  private volatile Predicate<Path> fail;

  /**
   * The files of a checkpoint's writes, by where the tests hold it: {@code "the double write"},
   * {@code "a home write"} (the data area's file) or {@code "the meta write"}.
   */
  static Predicate<Path> filesOf(String where) {
    return switch (where) {
      case "the double write" -> p -> p.getFileName().toString().startsWith("dwb.");
      case "a home write" -> p -> p.getFileName().toString().equals("data.area");
      default -> p -> p.getFileName().toString().equals("meta");
    };
  }

  void holdNextWrite(Predicate<Path> file) {
    hold = file;
  }

  void failNextWrite(Predicate<Path> file) {
    fail = file;
  }

  void release() {
    go.countDown();
  }

  /** Releases a held write, so that a failed test does not leave the checkpoint waiting. */
  @Override
  public void close() {
    release();
  }

  @Override
  public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
    return new Held(FileChannel.open(path, options), path);
  }

  private final class Held extends ForwardingFileChannel {
    private final Path path;

    Held(FileChannel real, Path path) {
      super(real);
      this.path = path;
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      super.truncate(size);
      String name = path.getFileName().toString();
      if (size == 0
          && (name.equals("wal") || name.equals("wal2"))
          && Thread.currentThread().getName().startsWith("idxkit-checkpoint-")) {
        emptied.release();
      }
      return this;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      Predicate<Path> h = hold;
      if (h != null && h.test(path)) {
        hold = null;
        held.countDown();
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while held", e);
        }
      }
      Predicate<Path> f = fail;
      if (f != null && f.test(path)) {
        fail = null;
        failed.countDown();
        throw new IOException("Input/output error (injected)");
      }
      return real.write(src, position);
    }
  }
}
