package dev.idxkit.loader.shards;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One shard as the manifest records it: its directory name, its rows, the encoded primary keys of
 * its first and last row (null for an empty shard), and the entries of each index. Serializable: a
 * Spark task returns it to the driver.
 */
public record ManifestShard(
    String name, long rows, byte[] firstKey, byte[] lastKey, Map<String, Long> entries)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  public ManifestShard {
    entries = new LinkedHashMap<>(entries);
  }

  public boolean isEmpty() {
    return rows == 0;
  }

  static String hex(byte[] b) {
    return b == null ? null : HexFormat.of().formatHex(b);
  }

  /** "(1, 'x', 2024-01-01)": key values for messages. */
  static String valuesText(Object[] values) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      b.append(i == 0 ? "" : ", ");
      if (v == null) {
        b.append("NULL");
      } else if (v instanceof String s) {
        b.append('\'').append(s.replace("'", "''")).append('\'');
      } else if (v instanceof byte[] bytes) {
        b.append("x'").append(HexFormat.of().formatHex(bytes)).append('\'');
      } else if (v instanceof BigDecimal d) {
        b.append(d.toPlainString());
      } else {
        b.append(v);
      }
    }
    return b.append(')').toString();
  }

  @Override
  public String toString() {
    return name + " (" + rows + " rows, " + hex(firstKey) + ".." + hex(lastKey) + ")";
  }
}
