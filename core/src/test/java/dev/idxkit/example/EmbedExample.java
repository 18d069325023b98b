package dev.idxkit.example;

import dev.idxkit.core.Database;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import java.math.BigDecimal;
import java.nio.file.Path;

public class EmbedExample {
  public static void main(String[] args) {
    try (Database db = Database.create(Path.of(args[0]))) {
      db.execute(
          "CREATE TABLE item (id BIGINT PRIMARY KEY, name VARCHAR(40), price DECIMAL(9,2));"
              + "CREATE INDEX item_name ON item (name)");
      Table items = db.table("item");
      items.insert(1L, "anvil", new BigDecimal("99.95"));
      items.insert(2L, "rope", new BigDecimal("4.20"));
      Row anvil = db.index("item_pk").get(1L).get(0);
      System.out.println(anvil.get(1)); // anvil
      try (RowCursor c =
          db.index("item_name")
              .scan(KeyRange.closed(new Object[] {"a"}, new Object[] {"z"}), false, 10)) {
        c.forEachRemaining(r -> System.out.println(r.get(0) + " " + r.get(1)));
      }
    }
  }
}
