package dev.idxkit.loader;

/** Where a load is, for progress displays. */
public enum LoadPhase {
  /** Checking options and the resume point, opening the input, marking indexes inactive. */
  STARTING,
  /** Reading, parsing and appending rows. */
  LOADING,
  /** The deferred index build ({@link IndexMode#DEFERRED}) after the last row. */
  BUILDING_INDEXES,
  /** Finished, stopped or cancelled; the report follows. */
  DONE
}
