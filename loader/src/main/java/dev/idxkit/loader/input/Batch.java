package dev.idxkit.loader.input;

import java.util.List;

/**
 * What parsing one {@link Chunk} produced: its rows and rejects in input order.
 *
 * @param chunkIndex the chunk's 0-based place in the input, to put batches parsed out of order back
 *     in order
 * @param records rows and rejected rows, in input order
 * @param rows how many of {@code records} are rows
 * @param end where the input continues after this chunk
 */
public record Batch(long chunkIndex, List<InputRecord> records, int rows, ResumePoint end) {
  public int rejects() {
    return records.size() - rows;
  }
}
