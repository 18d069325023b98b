package dev.idxkit.loader;

import dev.idxkit.core.Rid;
import java.util.Arrays;

/**
 * Two rows with the same key in a unique index, found by the deferred index build: the key and both
 * rows as they are in the table (fetched by RID), so the user can tell which one to remove.
 *
 * @param index the unique index
 * @param key the key as text, e.g. {@code (l_orderkey=1, l_linenumber=3)}
 * @param firstRid RID of one row, or -1 if the build did not say ({@link
 *     dev.idxkit.core.DuplicateKeyException} without RIDs)
 * @param firstRow that row's values in column order, or null if unknown
 * @param firstKey that row's key columns as text, or null if unknown
 * @param secondRid RID of the other row, or -1
 * @param secondRow the other row's values, or null
 * @param secondKey the other row's key columns as text, or null
 */
public record DuplicateKeys(
    String index,
    String key,
    long firstRid,
    Object[] firstRow,
    String firstKey,
    long secondRid,
    Object[] secondRow,
    String secondKey) {

  /** Lines for a summary: the key, then each row with its RID. */
  public String describe() {
    StringBuilder sb =
        new StringBuilder("unique index ").append(index).append(" has the key ").append(key);
    if (firstRid < 0) {
      return sb.append(" twice (the index build did not name the rows)").toString();
    }
    sb.append(" twice:");
    row(sb, firstRid, firstKey, firstRow);
    row(sb, secondRid, secondKey, secondRow);
    return sb.toString();
  }

  private static void row(StringBuilder sb, long rid, String key, Object[] row) {
    sb.append("\n  row ").append(Rid.toString(rid));
    if (row == null) {
      sb.append(": no longer in the table");
    } else {
      sb.append(" key ").append(key).append(": ").append(Arrays.deepToString(row));
    }
  }
}
