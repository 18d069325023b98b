package dev.idxkit.core;

/**
 * Whether an index is maintained and usable. INACTIVE indexes (after a load with {@code
 * --index-build none}, or created on a non-empty table by a bulk tool) are neither maintained by
 * writes nor used by reads until a rebuild makes them ACTIVE.
 */
public enum IndexStatus {
  ACTIVE,
  INACTIVE
}
