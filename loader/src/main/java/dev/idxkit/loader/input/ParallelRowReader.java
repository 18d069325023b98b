package dev.idxkit.loader.input;

import dev.idxkit.core.IdxkitException;
import dev.idxkit.loader.internal.ParseAhead;
import java.util.concurrent.ExecutorService;

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
 * cancels the parses it submitted (call it after a failure too: other parses may still run). The
 * mechanism is the loader's {@link ParseAhead}, with nothing done to a batch after its parse.
 */
public final class ParallelRowReader implements AutoCloseable {
  private final ParseAhead<Batch> ahead;

  public ParallelRowReader(RowSource source, ExecutorService executor, int maxInFlight) {
    this.ahead = new ParseAhead<>(source, executor, maxInFlight, (chunk, clock) -> chunk.parse());
  }

  /**
   * The next batch in input order, or {@code null} when the source is exhausted.
   *
   * @throws InterruptedException if interrupted while waiting for a parse
   * @throws IdxkitException what a parse threw (unwrapped from the executor's exception)
   */
  public Batch nextBatch() throws InterruptedException {
    return ahead.next();
  }

  /** Cancels parses still in flight; does not close the source. */
  @Override
  public void close() {
    ahead.close();
  }
}
