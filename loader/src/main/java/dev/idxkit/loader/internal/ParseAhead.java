package dev.idxkit.loader.internal;

import dev.idxkit.core.IdxkitException;
import dev.idxkit.loader.input.Chunk;
import dev.idxkit.loader.input.RowSource;
import java.util.ArrayDeque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Parses a {@link RowSource}'s chunks on the parse threads, ahead of the loading thread, and hands
 * them back in input order. Each parse task goes on to prepare its batch for the consumer (the
 * loader encodes records, see {@link EncodedBatch}) while it is still on the parse thread, and the
 * cut, the wait and each task's CPU time are measured. {@link
 * dev.idxkit.loader.input.ParallelRowReader} is this with nothing prepared.
 *
 * <p>Call order: {@link #next()} until it returns null, then {@link #close()} (also after a
 * failure: it cancels what is still in flight). The calling thread cuts each chunk ({@link
 * RowSource#nextChunk()}, a sequential byte scan) and submits it; at most {@code maxInFlight}
 * chunks are submitted and not yet taken, which bounds memory to that many chunks and their parsed
 * batches. The executor is the caller's.
 */
public final class ParseAhead<T> implements AutoCloseable {
  /**
   * What a parse task does with its chunk, on the parse thread: parses it ({@link Chunk#parse()} or
   * {@link Chunk#parseEncoded}) and prepares the result; {@code clock} measures the thread's CPU.
   */
  @FunctionalInterface
  public interface Prepare<T> {
    T apply(Chunk chunk, CpuClock clock);
  }

  private final RowSource source;
  private final ExecutorService executor;
  private final int maxInFlight;
  private final Prepare<T> prepare;
  private final ArrayDeque<Future<T>> inFlight = new ArrayDeque<>();
  private boolean exhausted;
  private long cutNanos;
  private long waitNanos;

  public ParseAhead(
      RowSource source, ExecutorService executor, int maxInFlight, Prepare<T> prepare) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight : " + maxInFlight + " (expected: >= 1)");
    }
    this.source = source;
    this.executor = executor;
    this.maxInFlight = maxInFlight;
    this.prepare = prepare;
  }

  /**
   * The next batch in input order, or null at the end of the input.
   *
   * @throws InterruptedException if interrupted while waiting for a parse
   * @throws IdxkitException what the parse threw, unwrapped
   */
  public T next() throws InterruptedException {
    // Before cutting: an interrupt that finds the cutter reading the input file closes the file.
    if (Thread.interrupted()) {
      throw new InterruptedException("loading " + source.inputName());
    }
    long t0 = System.nanoTime();
    while (!exhausted && inFlight.size() < maxInFlight) {
      Chunk chunk = source.nextChunk();
      if (chunk == null) {
        exhausted = true;
      } else {
        inFlight.add(executor.submit(() -> run(chunk)));
      }
    }
    long t1 = System.nanoTime();
    cutNanos += t1 - t0;
    Future<T> head = inFlight.poll();
    if (head == null) {
      return null;
    }
    try {
      return head.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IdxkitException("parsing " + source.inputName() + " failed", cause);
    } catch (CancellationException e) {
      throw new IdxkitException("parsing " + source.inputName() + " was cancelled", e);
    } finally {
      waitNanos += System.nanoTime() - t1;
    }
  }

  private T run(Chunk chunk) {
    try {
      return prepare.apply(chunk, new CpuClock());
    } finally {
      chunk.release(); // what the parse made no longer refers to the chunk's bytes
    }
  }

  /** Wall time the calling thread spent cutting chunks. */
  public long cutNanos() {
    return cutNanos;
  }

  /** Wall time the calling thread spent waiting for parsed chunks. */
  public long waitNanos() {
    return waitNanos;
  }

  /** Cancels the parses in flight; does not close the source. Idempotent. */
  @Override
  public void close() {
    for (Future<T> f : inFlight) {
      f.cancel(true);
    }
    inFlight.clear();
    exhausted = true;
  }
}
