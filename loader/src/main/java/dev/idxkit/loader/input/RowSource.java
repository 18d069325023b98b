package dev.idxkit.loader.input;

import dev.idxkit.core.schema.TableDef;

/**
 * An input of rows for one table - a CSV file, a JSON Lines file, the TPC-H generator - cut into
 * {@link Chunk}s that parse independently.
 *
 * <p>Call order: open (each source has a static {@code open(..., ResumePoint from)}), then {@link
 * #nextChunk()} until it returns {@code null}, parsing each chunk on this or another thread, then
 * {@link #close()}. Cutting is sequential and cheap (a byte scan for record boundaries); parsing is
 * the expensive part and is what runs in parallel. {@link RowReader} reads a source on one thread,
 * {@link ParallelRowReader} on an executor.
 *
 * <p>Bad records never stop a source: they come out as {@link RejectedRow}s. What does stop it is
 * an input it cannot read at all (missing file, I/O error, a CSV header that does not match the
 * table): an {@link dev.idxkit.core.IdxkitException} naming the file.
 */
public interface RowSource extends AutoCloseable {
  /** The table whose rows this source yields; values come in its column order. */
  TableDef table();

  /** The input for messages: a file path, or e.g. {@code tpch lineitem sf=1}. */
  String inputName();

  /** Cuts the next chunk, or returns {@code null} at the end. Not thread-safe: one cutter. */
  Chunk nextChunk();

  /** Releases the file; idempotent. Chunks already cut stay parseable. */
  @Override
  void close();
}
