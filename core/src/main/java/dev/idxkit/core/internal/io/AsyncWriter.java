package dev.idxkit.core.internal.io;

import dev.idxkit.core.IdxkitException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Writes large buffers of pages with several writes in flight.
 *
 * <p>Call order: {@link #acquire()} a buffer (blocks while every buffer is in flight), fill it with
 * whole pages, {@link #submit} it for a page file and position; repeat; {@link #flush()} to wait
 * for all writes and surface the first failure; {@link #close()}.
 *
 * <p>Each buffer goes back to the pool the moment its own write completes, in whatever order writes
 * complete, so one slow write never holds back the buffers of later ones. Memory: up to {@code
 * buffers × bufferBytes} of direct memory, each buffer allocated when a caller first finds none
 * free, by that caller, and one more buffer each time a caller would otherwise wait for ever
 * ({@link #acquire()}). Not all up front: a rebuild's bulk session allocated and zeroed its sixteen
 * buffers of 1 MiB on the main thread before its scan could start (10-15 ms in a new JVM, on a
 * primary key rebuilt in 0.5 s), and a session that writes little needs few. Writer threads are
 * named {@code idxkit-io-N} and are daemons so an abandoned writer cannot keep a JVM alive.
 */
public final class AsyncWriter implements AutoCloseable {
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final ExecutorService io;
  private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
  private final IdentityHashMap<ByteBuffer, BytesStore<?, ?>> stores = new IdentityHashMap<>();
  private final int bufferBytes;
  private final int pooled;
  private int total; // guarded by this
  private int inFlight;
  private Throwable failure;
  private long bytesWritten;

  /**
   * @param buffers buffers in the pool (allocated as first needed), at least the number of writes
   *     to keep in flight
   * @param bufferBytes size of each buffer, a multiple of the page size
   * @param threads I/O threads
   */
  public AsyncWriter(int buffers, int bufferBytes, int threads) {
    if (buffers < 1 || threads < 1 || bufferBytes < 1) {
      throw new IllegalArgumentException(
          "buffers : " + buffers + ", threads : " + threads + " (expected: >= 1)");
    }
    this.bufferBytes = bufferBytes;
    this.pooled = buffers;
    this.io =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "idxkit-io-" + THREADS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  public int bufferBytes() {
    return bufferBytes;
  }

  /**
   * A cleared buffer. With none free, a new one while the pool has fewer than its {@code buffers};
   * then waits while some are in flight: a write's completion gives one back. With none free and
   * none in flight, every buffer is held by callers that have not submitted it (a bulk session's
   * streams keep one each between pages, one per area and thread), so no write would ever give one
   * back, and waiting would hang the caller for good (a rebuild whose sort group spans more areas
   * than the pool has buffers did): the pool grows by one instead. Fails fast if an earlier write
   * failed.
   */
  public ByteBuffer acquire() {
    synchronized (this) {
      while (free.isEmpty() && failure == null && total >= pooled && inFlight > 0) {
        waitUninterruptibly();
      }
      throwIfFailed();
      ByteBuffer b = free.poll();
      if (b != null) {
        b.clear();
        return b;
      }
      total++;
    }
    // Allocated (and zeroed) outside the lock, which the I/O threads take to give buffers back.
    try {
      ByteBuffer b = ByteBuffer.allocateDirect(bufferBytes);
      BytesStore<?, ?> store = BytesStore.wrap(b);
      synchronized (this) {
        stores.put(b, store);
      }
      return b;
    } catch (RuntimeException | Error e) {
      synchronized (this) {
        total--;
      }
      throw e;
    }
  }

  /** The pool buffer's memory as Chronicle bytes, for copying pages in without a byte[] hop. */
  public synchronized BytesStore<?, ?> storeOf(ByteBuffer pooled) {
    BytesStore<?, ?> s = stores.get(pooled);
    if (s == null) {
      throw new IllegalArgumentException("not a buffer of this writer");
    }
    return s;
  }

  /** Gives back a buffer that was acquired but not submitted. */
  public synchronized void release(ByteBuffer b) {
    free.add(b);
    notifyAll();
  }

  /** Told of each write that completed: which file, at which page, how many bytes. */
  @FunctionalInterface
  public interface Written {
    Written NONE = (file, pageNo, bytes) -> {};

    void written(PageFile file, long pageNo, int bytes);
  }

  /** Writes {@code buf} (flipped: position 0 to limit) at {@code pageNo} of {@code file}. */
  public void submit(PageFile file, long pageNo, ByteBuffer buf) {
    submit(file, pageNo, buf, Written.NONE);
  }

  /**
   * As {@link #submit(PageFile, long, ByteBuffer)}, then tells {@code done} on the I/O thread once
   * the write succeeded (not after a failure).
   */
  public void submit(PageFile file, long pageNo, ByteBuffer buf, Written done) {
    synchronized (this) {
      throwIfFailed();
      inFlight++;
    }
    int bytes = buf.remaining();
    io.execute(
        () -> {
          Throwable err = null;
          try {
            file.write(pageNo, buf);
            done.written(file, pageNo, bytes);
          } catch (Throwable t) {
            err = t;
          }
          synchronized (this) {
            inFlight--;
            if (err != null && failure == null) {
              failure = err;
            } else if (err == null) {
              bytesWritten += bytes;
            }
            free.add(buf);
            notifyAll();
          }
        });
  }

  /** Waits for every submitted write; rethrows the first failure. */
  public synchronized void flush() {
    while (inFlight > 0) {
      waitUninterruptibly();
    }
    throwIfFailed();
  }

  public synchronized long bytesWritten() {
    return bytesWritten;
  }

  @Override
  public void close() {
    synchronized (this) {
      while (inFlight > 0) {
        waitUninterruptibly();
      }
    }
    io.shutdown();
    synchronized (this) {
      free.clear();
    }
  }

  /** Buffers allocated so far (free, held or in flight). */
  public synchronized int buffers() {
    return total;
  }

  private void throwIfFailed() {
    if (failure != null) {
      if (failure instanceof IdxkitException e) {
        throw e;
      }
      throw new IdxkitException("asynchronous write failed", failure);
    }
  }

  // Writes in flight finish quickly; abandoning them would leave buffers and files in an unknown
  // state, so an interrupt is remembered and re-asserted for the caller rather than acted on here.
  private void waitUninterruptibly() {
    boolean interrupted = false;
    while (true) {
      try {
        wait();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
