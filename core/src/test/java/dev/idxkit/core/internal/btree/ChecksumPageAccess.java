package dev.idxkit.core.internal.btree;

import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.testing.ForwardingPageAccess;
import java.nio.file.Path;

/**
 * Verifies every page read against the checksum {@link Page#seal} stored, as the real page file
 * does, over another {@link PageAccess}; for fault injection (flip a byte, then read).
 */
final class ChecksumPageAccess extends ForwardingPageAccess {
  ChecksumPageAccess(PageAccess delegate) {
    super(delegate);
  }

  @Override
  public Page read(long pageNo) {
    Page p = in.read(pageNo);
    int stored = p.storedChecksum();
    int actual = p.computeChecksum();
    if (stored != actual) {
      throw CorruptPageException.checksum(Path.of(name()), pageNo, stored, actual);
    }
    return p;
  }
}
