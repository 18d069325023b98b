package dev.idxkit.core.spi;

import dev.idxkit.core.internal.key.KeyLayout;
import dev.idxkit.core.schema.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Comparator;

/**
 * The model the key encoding must agree with, written from SQL's definition rather than from the
 * encoding: NULL first in both directions, numeric order (0.0 = -0.0, NaN above +Infinity),
 * code-point order for strings, unsigned byte order for binary, false before true; DESC reverses
 * the order of non-null values.
 */
public final class SqlOrder {
  private SqlOrder() {}

  public static Comparator<Object[]> of(KeyLayout layout) {
    return (a, b) -> {
      int n = Math.min(a.length, b.length);
      for (int i = 0; i < n; i++) {
        int c = compare(layout.type(i), layout.descending(i), a[i], b[i]);
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(a.length, b.length);
    };
  }

  public static int compare(ColumnType type, boolean descending, Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    int c = compareValues(type, a, b);
    return descending ? -c : c;
  }

  private static int compareValues(ColumnType type, Object a, Object b) {
    switch (type.kind()) {
      case BIGINT:
        return Long.compare((Long) a, (Long) b);
      case INT:
        return Integer.compare((Integer) a, (Integer) b);
      case SMALLINT:
        return Short.compare((Short) a, (Short) b);
      case DOUBLE:
        return compareDoubles((Double) a, (Double) b);
      case DECIMAL:
        return ((BigDecimal) a).compareTo((BigDecimal) b);
      case VARCHAR:
      case TEXT:
        return compareCodePoints((String) a, (String) b);
      case DATE:
        return ((LocalDate) a).compareTo((LocalDate) b);
      case TIMESTAMP:
        return ((LocalDateTime) a).compareTo((LocalDateTime) b);
      case BOOLEAN:
        return Boolean.compare((Boolean) a, (Boolean) b);
      case VARBINARY:
        return compareUnsigned((byte[]) a, (byte[]) b);
      default:
        throw new IllegalStateException(type.toString());
    }
  }

  private static int compareDoubles(double a, double b) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Boolean.compare(Double.isNaN(a), Double.isNaN(b));
    }
    return a < b ? -1 : (a > b ? 1 : 0); // -0.0 == 0.0 here, unlike Double.compare
  }

  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  private static int compareUnsigned(byte[] a, byte[] b) {
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      int c = Integer.compare(a[i] & 0xFF, b[i] & 0xFF);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.length, b.length);
  }
}
