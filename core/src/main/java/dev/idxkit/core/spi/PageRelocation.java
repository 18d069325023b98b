package dev.idxkit.core.spi;

/**
 * Moves a heap or overflow page to another page number in another database of the same page size by
 * adding a fixed offset to every page number it holds: its own (header), the first page of each
 * overflow chain its slots point at (heap stubs), and the next page of its chain (overflow pages).
 * Slots stay where they are, so a record's RID moves by the same offset: {@code page + offset, same
 * slot}. This is how {@code merge-shards} appends one shard's heap after another's without decoding
 * a record.
 *
 * <p>Works in place on a private copy; the caller seals and writes the page afterwards. Only HEAP
 * and OVERFLOW pages carry page numbers this knows; any other type is refused.
 */
public final class PageRelocation {
  private PageRelocation() {}

  /** Renumbers {@code p} (a copy) from its page number to that number plus {@code offset}. */
  public static void relocate(Page p, long offset) {
    long no = p.pageNo();
    PageType type = p.type();
    if (type == PageType.HEAP) {
      int slots = HeapPage.slotCount(p);
      for (int s = 0; s < slots; s++) {
        if (HeapPage.isLive(p, s) && HeapPage.isOverflow(p, s)) {
          int at = Overflow.stubOffset(p, s) + 4;
          p.putLong(at, p.getLong(at) + offset);
        }
      }
    } else if (type == PageType.OVERFLOW) {
      long next = Overflow.nextPage(p);
      if (next != 0) {
        p.putLong(Overflow.OFF_NEXT, next + offset);
      }
    } else {
      throw new IllegalArgumentException(
          "page " + no + " : " + type + " (expected: HEAP or OVERFLOW to relocate)");
    }
    p.renumber(no + offset);
  }

  /** Page numbers of the overflow chain that heap slot {@code slot} points at, in chain order. */
  public static long[] overflowChain(dev.idxkit.core.spi.PageAccess access, Page heap, int slot) {
    long first = Overflow.stubFirstPage(heap, slot);
    int len = Overflow.stubLength(heap, slot);
    int n = (int) Overflow.pagesFor(heap.size(), len);
    long[] pages = new long[n];
    long at = first;
    for (int i = 0; i < n; i++) {
      pages[i] = at;
      at = Overflow.nextPage(access.read(at));
    }
    return pages;
  }
}
