package dev.idxkit.loader.input;

import dev.idxkit.core.IdxkitException;
import java.util.ArrayDeque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Parses a {@link RowSource}'s chunks on an executor and hands the batches back in input order.
 *
 * <p>Algorithm: the calling thread cuts chunks ({@link RowSource#nextChunk()} - a sequential byte
 * scan) and submits each one's {@link Chunk#parse()} to the executor, keeping at most {@code
 * maxInFlight} parses submitted but not yet taken; {@link #nextBatch()} waits for the oldest. So
 * the executor's threads parse while the caller cuts and consumes, output order is input order, and
 * memory is bounded by {@code maxInFlight} chunks and their parsed batches (a parsed row takes
 * several times its bytes in the input).
 *
 * <p>The executor is the caller's: this class neither creates nor shuts it down; {@link #close()}
 * cancels the parses it submitted (call it after a failure too: other parses may still run).
 */
public final class ParallelRowReader implements AutoCloseable {
  private final RowSource source;
  private final ExecutorService executor;
  private final int maxInFlight;
  private final ArrayDeque<Future<Batch>> inFlight = new ArrayDeque<>();
  private boolean exhausted;

  public ParallelRowReader(RowSource source, ExecutorService executor, int maxInFlight) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight : " + maxInFlight + " (expected: >= 1)");
    }
    this.source = source;
    this.executor = executor;
    this.maxInFlight = maxInFlight;
  }

  /**
   * The next batch in input order, or {@code null} when the source is exhausted.
   *
   * @throws InterruptedException if interrupted while waiting for a parse
   * @throws IdxkitException what a parse threw (unwrapped from the executor's exception)
   */
  public Batch nextBatch() throws InterruptedException {
    while (!exhausted && inFlight.size() < maxInFlight) {
      Chunk chunk = source.nextChunk();
      if (chunk == null) {
        exhausted = true;
      } else {
        inFlight.add(executor.submit(chunk::parse));
      }
    }
    Future<Batch> head = inFlight.poll();
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
    }
  }

  /** Cancels parses still in flight; does not close the source. */
  @Override
  public void close() {
    for (Future<Batch> f : inFlight) {
      f.cancel(true);
    }
    inFlight.clear();
    exhausted = true;
  }
}
