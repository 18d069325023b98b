package dev.idxkit.core.spi;

/**
 * How structures on pages (heap pages, B+trees) reach the pages of one area. Implementations: a
 * transaction's view (reads see its own writes; writes are private copies until commit), the
 * committed read view (writes refused), and an in-memory one for tests.
 *
 * <p>Page numbers are area-relative; page 0 is the area header and never handed out.
 */
public interface PageAccess {
  int pageSize();

  /** The area id stamped in page headers. */
  int areaId();

  /** A name for messages: the area's file. */
  String name();

  /**
   * The current image of a page, checksum-verified. Throws {@link
   * dev.idxkit.core.CorruptPageException} if it fails verification.
   */
  Page read(long pageNo);

  /**
   * A writable image of an existing page. Within a transaction the first call copies the page;
   * later reads and writes see that copy. Throws {@link UnsupportedOperationException} on a
   * read-only view.
   */
  Page write(long pageNo);

  /** A new page, zeroed and formatted with this type, from the free list or past the end. */
  Page allocate(PageType type);

  /** Returns a page to the free list; its number may be handed out again after commit. */
  void free(long pageNo);

  /**
   * A hint: pages {@code [firstPage, firstPage + pages)} are about to be read in order (a scan), so
   * the area file may start reading them from the device now. Changes speed only, never what a read
   * returns; views with nothing to prefetch ignore it. See {@link ScanReadAhead}.
   */
  default void willRead(long firstPage, long pages) {}
}
