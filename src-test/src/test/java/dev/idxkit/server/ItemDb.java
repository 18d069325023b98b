package dev.idxkit.server;

import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * The database the server tests read: {@code item} with a column of every kind the JSON output has
 * a rule for, rows computed from their id (so a test knows each value), the awkward values (NULL,
 * empty, a comma and a quote and a line break, NaN, bytes); {@code blob} with long texts, for
 * responses far larger than any socket buffer; and {@code other}, a second table whose index is not
 * {@code item}'s.
 */
final class ItemDb {
  static final String DDL =
      """
      CREATE TABLE item (
        id BIGINT NOT NULL,
        grp INT NOT NULL,
        name VARCHAR(40),
        price DECIMAL(10,2),
        ratio DOUBLE,
        born DATE,
        seen TIMESTAMP,
        ok BOOLEAN,
        bin VARBINARY(16),
        PRIMARY KEY (id));
      CREATE INDEX item_grp_name ON item (grp, name);
      CREATE INDEX item_born ON item (born DESC);
      CREATE TABLE blob (id BIGINT NOT NULL, text VARCHAR(5000) NOT NULL, PRIMARY KEY (id));
      CREATE TABLE other (id BIGINT NOT NULL, PRIMARY KEY (id));
      """;

  /** Items 1..ROWS; grp = id % 10, so each group holds ROWS / 10. */
  static final int ROWS = 2000;

  /** Blobs 1..BLOBS of {@link #BLOB_CHARS} characters: about 8 MB of JSON in all. */
  static final int BLOBS = 2000;

  static final int BLOB_CHARS = 4000;

  private ItemDb() {}

  static String name(long id) {
    if (id == 1) {
      return null;
    }
    if (id == 2) {
      return "";
    }
    if (id == 3) {
      return "comma, \"quote\"\nand a line";
    }
    return "item " + id;
  }

  static Object[] row(long id) {
    return new Object[] {
      id,
      (int) (id % 10),
      name(id),
      id == 4 ? null : BigDecimal.valueOf(id * 125, 2),
      id == 5 ? Double.NaN : id / 4.0,
      LocalDate.of(2000, 1, 1).plusDays(id),
      LocalDateTime.of(2020, 2, 29, 13, 5).plusSeconds(id),
      id % 2 == 0,
      new byte[] {(byte) id, 0x0a}
    };
  }

  static String blob(long id) {
    char c = (char) ('a' + id % 26);
    return String.valueOf(c).repeat(BLOB_CHARS - 8) + String.format("%08d", id);
  }

  /** Creates the database at {@code dir} with every row; closes it. */
  static void create(Path dir) {
    try (Database db = Database.create(dir)) {
      db.execute(DDL, "item.sql");
      Table item = db.table("item");
      Table blob = db.table("blob");
      try (Transaction tx = db.begin(Durability.OFF)) {
        for (long id = 1; id <= ROWS; id++) {
          tx.insert(item, row(id));
        }
        for (long id = 1; id <= BLOBS; id++) {
          tx.insert(blob, id, blob(id));
        }
        tx.insert(db.table("other"), 1L);
        tx.commit();
      }
    }
  }
}
