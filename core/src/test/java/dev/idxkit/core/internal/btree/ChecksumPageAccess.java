package dev.idxkit.core.internal.btree;

import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import java.nio.file.Path;

/**
 * Verifies every page read against the checksum {@link Page#seal} stored, as the real page file
 * does, over another {@link PageAccess}; for fault injection (flip a byte, then read).
 */
final class ChecksumPageAccess implements PageAccess {
  private final PageAccess delegate;

  ChecksumPageAccess(PageAccess delegate) {
    this.delegate = delegate;
  }

  @Override
  public int pageSize() {
    return delegate.pageSize();
  }

  @Override
  public int areaId() {
    return delegate.areaId();
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public Page read(long pageNo) {
    Page p = delegate.read(pageNo);
    int stored = p.storedChecksum();
    int actual = p.computeChecksum();
    if (stored != actual) {
      throw CorruptPageException.checksum(Path.of(name()), pageNo, stored, actual);
    }
    return p;
  }

  @Override
  public Page write(long pageNo) {
    return delegate.write(pageNo);
  }

  @Override
  public Page allocate(PageType type) {
    return delegate.allocate(type);
  }

  @Override
  public void free(long pageNo) {
    delegate.free(pageNo);
  }
}
