package dev.idxkit.idxbuild.sort;

/**
 * A stream of entries in non-decreasing unsigned byte order, the one interface every sort stage
 * merges through: an {@link EntryBuffer}'s sorted contents, a {@link RunReader}, a {@link
 * LoserTree} over other sources.
 *
 * <p>Call order: {@link #next()} advances and returns false at the end; after a true {@code next},
 * {@link #array()}, {@link #offset()} and {@link #length()} give the current entry, valid until the
 * next call to {@code next} or {@code close} (the array is usually a reused buffer: copy what you
 * keep, and never write into it - a source may leave bytes there for its next entry). {@link
 * #close()} releases files, buffers and prefetch work; it is idempotent and may be called before
 * the end.
 */
public interface EntrySource extends AutoCloseable {
  /** Advances to the next entry; false when there are no more. */
  boolean next();

  /** The array holding the current entry. */
  byte[] array();

  /** Where the current entry starts in {@link #array()}. */
  int offset();

  /** The current entry's length in bytes. */
  int length();

  /**
   * How many leading bytes the current entry shares with the one before it, when this source knows
   * without comparing them ({@link PackedMerge} derives it from the two longs it compared anyway);
   * -1 when it does not, and for the first entry.
   */
  default int shared() {
    return -1;
  }

  /**
   * How many entries follow the current one (before the first {@code next}: all of them), when this
   * source knows ({@link PackedMerge} does); -1 when it does not. A caller that knows it can call
   * {@code next} exactly that many times and never see it return false.
   */
  default long remaining() {
    return -1;
  }

  @Override
  void close();
}
