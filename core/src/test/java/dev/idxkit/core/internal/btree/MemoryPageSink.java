package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageSink;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.testing.MemoryPageAccess;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@link PageSink} into a {@link MemoryPageAccess}, so a built tree can be opened as a {@link
 * BTree}. Checks the builder's side of the contract: each allocated page written once, with a
 * header for its number, and records the write order.
 */
final class MemoryPageSink implements PageSink {
  final MemoryPageAccess pages;
  final List<Long> written = new ArrayList<>();
  private final Set<Long> open = new HashSet<>();

  MemoryPageSink(MemoryPageAccess pages) {
    this.pages = pages;
  }

  @Override
  public long allocate() {
    long no = pages.allocate(PageType.FREE).pageNo();
    open.add(no);
    return no;
  }

  @Override
  public void write(long pageNo, Page page) {
    assertThat(open.remove(pageNo)).as("page %d allocated and not yet written", pageNo).isTrue();
    assertThat(page.pageNo()).isEqualTo(pageNo);
    assertThat(page.areaId()).isEqualTo(pages.areaId());
    assertThat(page.type()).isIn(PageType.LEAF, PageType.BRANCH);
    page.seal(0);
    pages.write(pageNo).copyFrom(page);
    written.add(pageNo);
  }

  /** Pages written to a lower number than one written before them. */
  int outOfOrderWrites() {
    int n = 0;
    long max = 0;
    for (long no : written) {
      if (no < max) {
        n++;
      }
      max = Math.max(max, no);
    }
    return n;
  }

  void assertAllWritten() {
    assertThat(open).as("pages allocated but never written").isEmpty();
  }
}
