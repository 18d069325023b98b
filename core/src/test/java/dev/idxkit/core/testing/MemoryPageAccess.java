package dev.idxkit.core.testing;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Pages on the Java heap, for unit tests of structures built on {@link PageAccess}. Reading or
 * writing a page that is not allocated fails, so a test catches use-after-free and lost pages;
 * {@link #livePages()} lets a test assert that deletes give every page back.
 */
public final class MemoryPageAccess implements PageAccess {
  private final int pageSize;
  private final List<Page> pages = new ArrayList<>();
  private final BitSet live = new BitSet();
  private final ArrayDeque<Long> freeList = new ArrayDeque<>();

  public MemoryPageAccess(int pageSize) {
    this.pageSize = Page.checkSize(pageSize);
    pages.add(null); // page 0 is the area header, never handed out
  }

  @Override
  public int pageSize() {
    return pageSize;
  }

  @Override
  public int areaId() {
    return 1;
  }

  @Override
  public String name() {
    return "memory";
  }

  @Override
  public Page read(long pageNo) {
    return live(pageNo);
  }

  @Override
  public Page write(long pageNo) {
    return live(pageNo);
  }

  @Override
  public Page allocate(PageType type) {
    long no;
    if (!freeList.isEmpty()) {
      no = freeList.poll();
    } else {
      no = pages.size();
      pages.add(new Page(BytesStore.wrap(new byte[pageSize]), 0, pageSize));
    }
    live.set(Math.toIntExact(no));
    Page p = pages.get((int) no);
    p.format(type, no, areaId());
    return p;
  }

  @Override
  public void free(long pageNo) {
    live(pageNo);
    live.clear((int) pageNo);
    pages.get((int) pageNo).setType(PageType.FREE);
    freeList.add(pageNo);
  }

  /** Pages allocated and not freed. */
  public int livePages() {
    return live.cardinality();
  }

  private Page live(long pageNo) {
    if (pageNo <= 0 || pageNo >= pages.size() || !live.get((int) pageNo)) {
      throw new IllegalStateException("page " + pageNo + " is not allocated");
    }
    return pages.get((int) pageNo);
  }
}
