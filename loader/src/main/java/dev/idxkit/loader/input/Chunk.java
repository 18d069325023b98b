package dev.idxkit.loader.input;

/**
 * A piece of input that parses on its own: its bytes (or generator part) and everything needed to
 * number its records exactly are fixed when {@link RowSource#nextChunk()} cuts it, so chunks parse
 * concurrently on any threads and their batches concatenate, in index order, to what a sequential
 * read gives.
 */
public interface Chunk {
  /** 0-based place of this chunk in the input. */
  long index();

  /** Where this chunk starts (also where the previous chunk ends). */
  ResumePoint start();

  /**
   * Parses the chunk. Call once; safe to call on any thread, concurrently with other chunks of the
   * same source (and after the source is closed).
   */
  Batch parse();
}
