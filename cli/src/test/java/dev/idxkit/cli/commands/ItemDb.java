package dev.idxkit.cli.commands;

import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Transaction;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * A small database with one column of every kind the CLI prints, rows computed from their id, and
 * the awkward values: NULL and empty names, text with a comma, a quote and a line break, NaN.
 */
final class ItemDb {
  static final String DDL =
      """
      CREATE TABLE item (
        id BIGINT NOT NULL,
        code INT NOT NULL,
        name VARCHAR(40),
        price DECIMAL(10,2),
        ratio DOUBLE,
        born DATE,
        seen TIMESTAMP,
        ok BOOLEAN,
        bin VARBINARY(16),
        PRIMARY KEY (id));
      CREATE INDEX item_code_name ON item (code, name);
      CREATE INDEX item_born ON item (born DESC);
      """;

  static final int ROWS = 300;

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

  /** Inserts the rows into a database created with {@link #DDL}. */
  static void fill(Path dir) {
    try (Database db = Database.open(dir);
        Transaction tx = db.begin(Durability.OFF)) {
      for (long id = 1; id <= ROWS; id++) {
        tx.insert(db.table("item"), row(id));
      }
      tx.commit();
    }
  }
}
