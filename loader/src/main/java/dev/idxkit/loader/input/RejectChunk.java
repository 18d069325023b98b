package dev.idxkit.loader.input;

import java.util.List;

/** A chunk that is a single rejected record: one the chunker had to skip, too long to hold. */
record RejectChunk(long index, ResumePoint start, RejectedRow reject) implements Chunk {
  @Override
  public Batch parse() {
    return new Batch(index, List.of(reject), 0, reject.resumePoint());
  }
}
