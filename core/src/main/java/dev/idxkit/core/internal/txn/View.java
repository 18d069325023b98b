package dev.idxkit.core.internal.txn;

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

  /** The index's state, or null when it has none. */
  IndexState index(int id);
}
