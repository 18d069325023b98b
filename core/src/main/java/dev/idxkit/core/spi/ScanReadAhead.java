package dev.idxkit.core.spi;

/**
 * Read-ahead for a scan that reads an area's pages in ascending order (a table scan, the
 * rebuilder's scan, {@code dump}): the area files advise the kernel that their mappings are read at
 * random, which stops the kernel's own read-ahead, so a scan asks for its pages ahead of time
 * through {@link PageAccess#willRead}.
 *
 * <p>How: before reading page {@code p}, if {@code p} is outside the window hinted last or past its
 * middle, hint the pages from the end of that window (or from {@code p}, after a jump) up to {@code
 * p + window}. So each page is hinted once, about half a window before it is needed, and the device
 * always has the next half window (4 MiB) to read while the scan works on the current one. Example
 * with 8 KiB pages (window 1,024 pages): page 0 hints 0..1023, page 512 hints 1024..1535, page 1024
 * hints 1536..2047, and so on.
 *
 * <p>One per scanning thread; not thread-safe. Costs one comparison per page between hints.
 */
public final class ScanReadAhead {
  /** Bytes hinted ahead of the scan. */
  public static final long WINDOW_BYTES = 8L << 20;

  private final long window;
  private long hintedFrom = -1;
  private long hintedTo = -1;

  /** For pages of {@code pageSize} bytes. */
  public ScanReadAhead(int pageSize) {
    this.window = Math.max(2, WINDOW_BYTES / pageSize);
  }

  /** Call before reading {@code page} through {@code pages}. */
  public void before(PageAccess pages, long page) {
    if (page >= hintedFrom && page < hintedTo - window / 2) {
      return;
    }
    long from = page >= hintedFrom && page < hintedTo ? hintedTo : page;
    long to = page + window;
    pages.willRead(from, to - from);
    if (from == page) {
      hintedFrom = page;
    }
    hintedTo = to;
  }
}
