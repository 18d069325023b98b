package dev.idxkit.cli.output;

/** How {@code get} and {@code scan} print rows. */
public enum RowFormat {
  /** Aligned columns with a header, NULL shown as {@code NULL}: for people. */
  TABLE,
  /** RFC 4180 with a header row; NULL an empty unquoted field, the empty string {@code ""}. */
  CSV,
  /** JSON Lines: one object per row, column name to value. */
  JSON
}
