package dev.idxkit.corrupt;

import dev.idxkit.core.Database;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The questions the corruption sweep asks a damaged database, each answered as a SHA-256 digest of
 * its result text, so a victim JVM can compare its answers with the golden ones without holding
 * them: the table scanned (rows sorted), its row count, each index scanned in order (rows with
 * their RIDs), one index scanned backwards, a key-prefix range, and point lookups of present and
 * absent keys. An answer is right when it equals the golden answer of an acceptable state.
 */
final class Answers {
  static final String TABLE = "s";
  static final List<String> INDEXES = List.of("s_pk", "s_grp", "s_name");

  private Answers() {}

  /** Query name to the function computing its result text. */
  static Map<String, Function<Database, String>> queries() {
    Map<String, Function<Database, String>> q = new LinkedHashMap<>();
    q.put("rows", db -> sorted(db.table(TABLE).scan()));
    q.put("count", db -> Long.toString(db.table(TABLE).rowCount()));
    for (String ix : INDEXES) {
      q.put("scan " + ix, db -> ordered(db.index(ix).scan()));
    }
    q.put("reverse s_name", db -> ordered(db.index("s_name").scan(KeyRange.ALL, true, -1)));
    q.put("range s_grp 7", db -> ordered(db.index("s_grp").scan(KeyRange.prefix(7), false, -1)));
    q.put(
        "lookups",
        db -> {
          StringBuilder b = new StringBuilder();
          for (long id = 1; id < SweepDatabase.MAX_ID; id += 37) {
            b.append(id).append(':');
            for (Row r : db.index("s_pk").get(id)) {
              b.append(text(r)).append(';');
            }
            b.append('\n');
          }
          return b.toString();
        });
    return q;
  }

  /** Every query's digest, computed on a healthy database (the golden answers). */
  static Map<String, String> digests(Database db) {
    Map<String, String> out = new LinkedHashMap<>();
    for (var e : queries().entrySet()) {
      out.put(e.getKey(), digest(e.getValue().apply(db)));
    }
    return out;
  }

  static String digest(String text) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String ordered(RowCursor c) {
    StringBuilder b = new StringBuilder();
    try (c) {
      while (c.hasNext()) {
        b.append(text(c.next())).append('\n');
      }
    }
    return b.toString();
  }

  private static String sorted(RowCursor c) {
    List<String> rows = new ArrayList<>();
    try (c) {
      while (c.hasNext()) {
        rows.add(text(c.next()));
      }
    }
    rows.sort(null);
    return String.join("\n", rows);
  }

  static String text(Row r) {
    StringBuilder b = new StringBuilder().append(r.rid()).append('=');
    for (Object v : r.values()) {
      b.append(v == null ? "null" : v instanceof BigDecimal d ? d.toPlainString() : v.toString());
      b.append('|');
    }
    return b.toString();
  }
}
