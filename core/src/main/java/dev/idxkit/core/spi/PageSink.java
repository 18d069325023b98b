package dev.idxkit.core.spi;

/**
 * Where a {@link TreeBuilder} puts the pages it fills: the rebuilder's bulk writer (pages past the
 * area's high-water mark or free in the published meta), or memory in tests.
 *
 * <p>Call order, per page: {@link #allocate} when the builder starts filling a page that others
 * must link to before it is complete (leaves: the next leaf's number goes into the current leaf's
 * right link) or when a branch page is complete; then {@link #write} exactly once with the page
 * formatted ({@link Page#format}) for that number. Numbers are written roughly in the order they
 * were allocated (see {@link TreeBuilder}).
 */
public interface PageSink {
  /** A page number for a page about to be filled. */
  long allocate();

  /**
   * Takes a filled page: the sink seals it (checksum) and writes it. The builder reuses {@code
   * page}'s memory after this returns, so the sink copies or writes it before returning.
   */
  void write(long pageNo, Page page);
}
