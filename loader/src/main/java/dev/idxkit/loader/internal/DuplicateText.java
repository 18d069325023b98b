package dev.idxkit.loader.internal;

/**
 * The words of a duplicate-key reject, the same in live mode (found by the insert) and in the
 * deferred build (found by the rebuilder): the key, the index, and where the row kept came from.
 */
public final class DuplicateText {
  /** The kept row's line is not known (it was in the table before this run). */
  public static final long UNKNOWN = -1;

  private DuplicateText() {}

  /**
   * E.g. {@code duplicate key (id=8) in unique index t_pk; the row kept is line 3}.
   *
   * @param keptLine the input line of the row that stays, or {@link #UNKNOWN}
   */
  public static String reason(String index, String key, long keptLine) {
    return "duplicate key "
        + key
        + " in unique index "
        + index
        + "; the row kept is "
        + (keptLine >= 0
            ? "line " + keptLine
            : "one that was in the table before this run (an earlier load or insert)");
  }
}
