package dev.idxkit.core.internal.txn;

import dev.idxkit.core.IdxkitException;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;

/**
 * The store's one writer: a {@link StoreTxn}, a {@link dev.idxkit.core.spi.BulkWrite} session, a
 * checkpoint, an inspection or close holds it, one at a time, in arrival order of the semaphore.
 * Once the store is closed nobody gets it again. A semaphore rather than a lock, because a
 * transaction may be committed or closed by another thread than the one that began it.
 */
public final class WriterGate {
  private final Semaphore permit = new Semaphore(1);
  private final Path dir;
  private volatile boolean closed;

  WriterGate(Path dir) {
    this.dir = dir;
  }

  /** Waits for the writer; refuses once the store is closed. */
  void acquire() {
    try {
      permit.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IdxkitException("interrupted while waiting for the database writer", e);
    }
    if (closed) {
      permit.release();
      throw new IllegalStateException("database " + dir + " is closed");
    }
  }

  public void release() {
    permit.release();
  }

  /** Called by close with the writer held. */
  void close() {
    closed = true;
  }

  boolean isClosed() {
    return closed;
  }
}
