package dev.idxkit.loader.input;

import dev.idxkit.core.spi.RecordLayout;

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

  /**
   * Parses the chunk straight into heap records of {@code layout}, without a Java object per value,
   * or returns null if this chunk has no such path (or meets input only {@link #parse()} judges):
   * the caller then parses and encodes. Rows, rejects, lines and resume points are the same as
   * {@link #parse()} followed by {@link RecordLayout#encode} gives. Call once, like parse.
   */
  default EncodedRows parseEncoded(RecordLayout layout) {
    return null;
  }

  /**
   * Says that the caller is done with this chunk - its parse has returned and nothing it returned
   * refers to the chunk's memory - so that the source may reuse that memory for a later chunk. Call
   * at most once, after the parse; the chunk must not be used afterwards. Optional: a chunk never
   * released is simply collected.
   */
  default void release() {}
}
