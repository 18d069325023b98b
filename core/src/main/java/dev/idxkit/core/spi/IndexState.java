package dev.idxkit.core.spi;

import dev.idxkit.core.IndexStatus;

/** Where an index's tree is and whether it is usable; root 0 means no tree yet. */
public record IndexState(long root, IndexStatus status) {
  public boolean active() {
    return status == IndexStatus.ACTIVE;
  }
}
