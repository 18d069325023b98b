package dev.idxkit.core.internal;

import dev.idxkit.core.internal.txn.View;
import java.util.function.Function;

/** Runs a read against a consistent view: the committed state under the read lock, or a txn. */
public interface ViewSource {
  <T> T read(Function<View, T> read);
}
