package dev.idxkit.core.internal.txn;

import dev.idxkit.core.internal.btree.ChangeBuffer;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.TableState;

/**
 * A consistent state to read from: the committed state (valid while the store's read lock is held)
 * or a transaction's own state, its uncommitted changes included.
 */
public interface View {
  PageAccess pages(int area);

  TableState table(int id);

  ChangeBuffer[] NO_BUFFERS = {};

  /** The index's state, or null when it has none. */
  IndexState index(int id);

  /**
   * The change buffers laid over the index's tree, lowest first ({@code BufferedCursor}): none, the
   * committed one, and for a transaction its own on top.
   */
  default ChangeBuffer[] buffered(int index) {
    return NO_BUFFERS;
  }
}
