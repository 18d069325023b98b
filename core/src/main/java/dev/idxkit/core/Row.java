package dev.idxkit.core;

import java.util.Arrays;

/**
 * A record as read: its RID and its values in table column order (Java classes per {@link
 * dev.idxkit.core.schema.TypeKind}; null for SQL NULL).
 */
public record Row(long rid, Object[] values) {
  public Object get(int column) {
    return values[column];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Row r && r.rid == rid && Arrays.deepEquals(r.values, values);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(rid) * 31 + Arrays.deepHashCode(values);
  }

  @Override
  public String toString() {
    return "Row[" + Rid.toString(rid) + " " + Arrays.deepToString(values) + "]";
  }
}
