package dev.idxkit.loader.input;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Reads a {@link RowSource} record by record on the calling thread: cuts a chunk, parses it, hands
 * out its records, cuts the next. For tests, small inputs and the CLI; the loader's bulk path uses
 * {@link ParallelRowReader}.
 */
public final class RowReader implements Iterator<InputRecord> {
  private final RowSource source;
  private Iterator<InputRecord> current = java.util.Collections.emptyIterator();
  private boolean done;

  public RowReader(RowSource source) {
    this.source = source;
  }

  @Override
  public boolean hasNext() {
    while (!current.hasNext()) {
      if (done) {
        return false;
      }
      Chunk chunk = source.nextChunk();
      if (chunk == null) {
        done = true;
        return false;
      }
      current = chunk.parse().records().iterator();
    }
    return true;
  }

  @Override
  public InputRecord next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return current.next();
  }
}
