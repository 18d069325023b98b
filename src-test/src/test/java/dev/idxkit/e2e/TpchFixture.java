package dev.idxkit.e2e;

import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.LocalDate;

/**
 * A small TPC-H-schema database with rows computed from their keys, so a test knows every value
 * without keeping a copy: regions (one with a NULL comment, one with an empty one), nations,
 * customers, orders 1..N and 1 to 7 line items per order. Comments hold commas and quotes so CSV
 * quoting is exercised. The schema comes from {@code idxkit create --tpch}; rows are inserted here
 * through the library API.
 */
final class TpchFixture {
  static final LocalDate EPOCH = LocalDate.of(1992, 1, 1);
  static final String[] MODES = {"AIR", "MAIL", "RAIL", "SHIP", "TRUCK", "REG AIR", "FOB"};

  private TpchFixture() {}

  static int customers(int orders) {
    return Math.max(1, orders / 10);
  }

  static int lines(long orderKey) {
    return 1 + (int) (orderKey % 7);
  }

  static long lineitems(int orders) {
    long n = 0;
    for (long k = 1; k <= orders; k++) {
      n += lines(k);
    }
    return n;
  }

  static BigDecimal money(long cents) {
    return new BigDecimal(BigInteger.valueOf(cents), 2);
  }

  static Object[] region(int r) {
    String comment = r == 0 ? null : r == 1 ? "" : "region " + r + ", \"quoted\"";
    return new Object[] {r, "REGION " + r, comment};
  }

  static Object[] nation(int n) {
    return new Object[] {n, "NATION " + n, n % 5, "nation " + n};
  }

  static Object[] customer(long c) {
    return new Object[] {
      c,
      "Customer#" + c,
      "street " + c,
      (int) (c % 25),
      "25-" + (100 + c % 900) + "-000-0000",
      money(c * 7919 % 1_000_000 - 99_999),
      c % 2 == 0 ? "BUILDING" : "MACHINERY",
      "customer " + c
    };
  }

  static LocalDate orderDate(long k) {
    return EPOCH.plusDays(k * 37 % 2400);
  }

  static Object[] order(long k, int orders) {
    return new Object[] {
      k,
      1 + k % customers(orders),
      k % 3 == 0 ? "F" : k % 3 == 1 ? "O" : "P",
      money(k * 123_457 % 50_000_000),
      orderDate(k),
      (1 + k % 5) + "-PRIORITY",
      "Clerk#" + (k % 1000),
      0,
      "order " + k + ", \"rush\""
    };
  }

  static Object[] lineitem(long k, int l) {
    LocalDate ship = orderDate(k).plusDays(3L * l);
    return new Object[] {
      k,
      1 + (k * 31 + l) % 2000,
      1 + (k + 7L * l) % 100,
      l,
      money(100 * (1 + (k + l) % 50)),
      money((k * 977 + l * 131) % 10_000_000),
      money((k + l) % 11),
      money((k * 3 + l) % 9),
      k % 2 == 0 ? "R" : "N",
      l % 2 == 0 ? "O" : "F",
      ship,
      ship.plusDays(2),
      ship.plusDays(5),
      "DELIVER IN PERSON",
      MODES[(int) ((k + l) % MODES.length)],
      "line " + l + " of order " + k
    };
  }

  /** Inserts every row into the database at {@code dir} (created with the TPC-H schema). */
  static void fill(Path dir, int orders) {
    try (Database db = Database.open(dir)) {
      Batch b = new Batch(db);
      for (int r = 0; r < 5; r++) {
        b.insert(db.table("region"), region(r));
      }
      for (int n = 0; n < 25; n++) {
        b.insert(db.table("nation"), nation(n));
      }
      for (long c = 1; c <= customers(orders); c++) {
        b.insert(db.table("customer"), customer(c));
      }
      Table ordersT = db.table("orders");
      Table lineitemT = db.table("lineitem");
      for (long k = 1; k <= orders; k++) {
        b.insert(ordersT, order(k, orders));
        for (int l = 1; l <= lines(k); l++) {
          b.insert(lineitemT, lineitem(k, l));
        }
      }
      b.close();
    }
  }

  /** Inserts in transactions of a few thousand rows without fsync: a fixture, not a ledger. */
  private static final class Batch {
    private final Database db;
    private Transaction tx;
    private int n;

    Batch(Database db) {
      this.db = db;
    }

    void insert(Table t, Object[] row) {
      if (tx == null) {
        tx = db.begin(Durability.OFF);
      }
      tx.insert(t, row);
      if (++n % 5000 == 0) {
        close();
      }
    }

    void close() {
      if (tx != null) {
        tx.commit();
        tx.close();
        tx = null;
      }
    }
  }
}
