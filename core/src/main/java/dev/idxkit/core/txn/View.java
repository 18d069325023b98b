package dev.idxkit.core.txn;

import dev.idxkit.core.meta.IndexState;
import dev.idxkit.core.meta.TableState;
import dev.idxkit.core.page.PageAccess;

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
