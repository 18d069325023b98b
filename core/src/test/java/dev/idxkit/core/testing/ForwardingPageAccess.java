package dev.idxkit.core.testing;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;

/**
 * A {@link PageAccess} that does whatever {@code in} does: the base of the test views that check,
 * record or corrupt some calls (override those) and pass the rest through.
 */
public class ForwardingPageAccess implements PageAccess {
  protected final PageAccess in;

  public ForwardingPageAccess(PageAccess in) {
    this.in = in;
  }

  @Override
  public int pageSize() {
    return in.pageSize();
  }

  @Override
  public int areaId() {
    return in.areaId();
  }

  @Override
  public String name() {
    return in.name();
  }

  @Override
  public Page read(long pageNo) {
    return in.read(pageNo);
  }

  @Override
  public Page write(long pageNo) {
    return in.write(pageNo);
  }

  @Override
  public Page allocate(PageType type) {
    return in.allocate(type);
  }

  @Override
  public void free(long pageNo) {
    in.free(pageNo);
  }

  @Override
  public void willRead(long firstPage, long pages) {
    in.willRead(firstPage, pages);
  }
}
