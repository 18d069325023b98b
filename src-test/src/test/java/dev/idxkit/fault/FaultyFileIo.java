package dev.idxkit.fault;

import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.testing.ForwardingFileChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link FileIo} that opens real channels and wraps each in one that misbehaves as the installed
 * {@link Fault}s say - the test side of the store's and the rebuilder's I/O seam (Lucene's {@code
 * MockDirectoryWrapper}, H2's {@code FilePathUnstable}). Give it to a database with {@code
 * DatabaseOptions.withFileIo}; a rebuild of that database uses it for its sort files too.
 *
 * <p>Faults can be added, armed and disarmed while files are open: a channel consults the current
 * list on every call. Positional reads and writes, {@code force} and plain reads and writes are
 * intercepted; mapping, locking and transfers pass through (the store's page reads are mapped by
 * Chronicle Bytes through a file handle of its own, so a damaged page is simulated by damaging the
 * file, not here).
 */
public final class FaultyFileIo implements FileIo {
  private final List<Fault> faults = new CopyOnWriteArrayList<>();
  private final List<Path> opened = new CopyOnWriteArrayList<>();

  /** Installs {@code fault} (armed) and returns it. */
  public Fault add(Fault fault) {
    faults.add(fault);
    return fault;
  }

  /** Removes every fault. */
  public void clear() {
    faults.clear();
  }

  /** Every file opened so far, in order (a file opened twice appears twice). */
  public List<Path> opened() {
    return List.copyOf(opened);
  }

  @Override
  public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
    FileChannel real = FileChannel.open(path, options);
    opened.add(path);
    return new Channel(path, real);
  }

  /** The wrapper: every operation that moves bytes asks the faults first. */
  private final class Channel extends ForwardingFileChannel {
    private final Path path;

    Channel(Path path, FileChannel real) {
      super(real);
      this.path = path;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      return write(src, position, true);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      long at = real.position();
      int n = write(src, at, false);
      real.position(at + n);
      return n;
    }

    private int write(ByteBuffer src, long position, boolean positional) throws IOException {
      long want = src.remaining();
      long allow = want;
      Fault failed = null;
      for (Fault f : faults) {
        if (f.kind() == Fault.Kind.SHORT_WRITES || f.kind() == Fault.Kind.WRITE_BUDGET) {
          if (f.applies(path)) {
            long a = f.allow(allow);
            if (a < allow && f.kind() == Fault.Kind.WRITE_BUDGET) {
              failed = f;
            }
            allow = a;
          }
        }
      }
      int written = 0;
      if (allow > 0) {
        ByteBuffer part = src.duplicate();
        part.limit(part.position() + (int) allow);
        while (part.hasRemaining()) {
          written += real.write(part, position + written);
        }
        src.position(src.position() + written);
      }
      if (failed != null) {
        throw failed.failure();
      }
      return written;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      long n = 0;
      for (int i = offset; i < offset + length; i++) {
        int w = write(srcs[i]);
        n += w;
        if (srcs[i].hasRemaining()) {
          break;
        }
      }
      return n;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      int start = dst.position();
      failReads();
      int n = real.read(dst, position);
      flip(dst, start, n, position);
      return n;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      int start = dst.position();
      long at = real.position();
      failReads();
      int n = real.read(dst);
      flip(dst, start, n, at);
      return n;
    }

    private void failReads() throws IOException {
      for (Fault f : faults) {
        if (f.kind() == Fault.Kind.FAILING_READS && f.applies(path)) {
          f.hit();
          throw f.failure();
        }
      }
    }

    private void flip(ByteBuffer dst, int start, int n, long position) {
      if (n <= 0) {
        return;
      }
      for (Fault f : faults) {
        if (f.kind() == Fault.Kind.BIT_FLIP_ON_READ
            && f.applies(path)
            && f.offset() >= position
            && f.offset() < position + n) {
          int at = start + (int) (f.offset() - position);
          dst.put(at, (byte) (dst.get(at) ^ (1 << f.bit())));
          f.hit();
        }
      }
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      long n = 0;
      for (int i = offset; i < offset + length; i++) {
        int r = read(dsts[i]);
        if (r < 0) {
          return n == 0 ? -1 : n;
        }
        n += r;
        if (dsts[i].hasRemaining()) {
          break;
        }
      }
      return n;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      for (Fault f : faults) {
        if (f.kind() == Fault.Kind.FAILING_FSYNC && f.applies(path)) {
          f.hit();
          throw f.failure();
        }
      }
      real.force(metaData);
    }
  }
}
