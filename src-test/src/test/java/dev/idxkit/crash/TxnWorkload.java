package dev.idxkit.crash;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The transactions of the {@code txn} and {@code checkpoint} campaigns as a pure function: unit n's
 * operations follow from (seed, n, the rows after units 1..n-1), so the child that runs them and
 * the parent that checks them replay the same history without exchanging anything but unit numbers.
 *
 * <p>A unit is one transaction of 1-6 row operations on {@code item} - inserts with fresh ids,
 * updates and deletes of existing rows, now and then an insert of an existing id that must fail
 * with a duplicate key and change nothing - plus its {@code ledger} row {@code (n, ops, rows
 * after)}, which is how the verifier tells whether unit n committed. Every row written carries
 * {@code txn = n}. About one unit in eight first runs a throwaway transaction of the same shape
 * (including a ledger row for n) and rolls it back, so a rollback that leaves anything behind shows
 * up as a duplicate ledger key or a row the model does not have.
 *
 * <p>Values cover what the store treats specially: NULL names, duplicate names, long names (long
 * index keys), notes from empty to several KiB (inline records and overflow chains on 4 and 8 KiB
 * pages), non-ASCII text. The table hovers around {@link #TARGET_ROWS} rows so a thousand kills do
 * not grow the verification.
 *
 * <p>Memory: the rows (a few thousand) and one small ledger entry per unit.
 */
final class TxnWorkload {
  static final String DDL =
      """
      CREATE TABLE item (
        id BIGINT NOT NULL,
        grp INT NOT NULL,
        seq BIGINT NOT NULL,
        name VARCHAR(200),
        txn BIGINT NOT NULL,
        note TEXT,
        PRIMARY KEY (id));
      CREATE INDEX item_grp_seq ON item (grp, seq DESC);
      CREATE INDEX item_name ON item (name);
      CREATE TABLE ledger (
        txn BIGINT NOT NULL PRIMARY KEY,
        ops INT NOT NULL,
        rows_after BIGINT NOT NULL);
      """;

  static final int TARGET_ROWS = 1500;

  /** Ids of unit n are n * IDS_PER_UNIT + i: fresh and unique without asking the database. */
  static final int IDS_PER_UNIT = 1024;

  private static final String[] WORDS = {
    "alpha", "bravo", "charlie", "delta", "écho", "foxtrot", "golf", "hôtel", "india", "日本語", "kilo"
  };
  private static final String LETTERS = "abcdefghijklmnopqrstuvwxyzäöüß0123456789 -";

  /** A row of {@code item}, in column order. */
  record Item(long id, int grp, long seq, String name, long txn, String note) {
    Object[] values() {
      return new Object[] {id, grp, seq, name, txn, note};
    }

    static Item of(Object[] v) {
      return new Item(
          (Long) v[0], (Integer) v[1], (Long) v[2], (String) v[3], (Long) v[4], (String) v[5]);
    }

    @Override
    public String toString() {
      String n = note == null ? "null" : note.length() + " chars";
      return "Item[id="
          + id
          + " grp="
          + grp
          + " seq="
          + seq
          + " name="
          + name
          + " txn="
          + txn
          + " note="
          + n
          + "]";
    }
  }

  /** One statement of a unit. */
  sealed interface Op permits Insert, Update, Delete, DuplicateInsert {}

  record Insert(Item item) implements Op {}

  /** Replaces the row whose id is {@code id} by {@code item}, whose id may differ. */
  record Update(long id, Item item) implements Op {}

  record Delete(long id) implements Op {}

  /** Inserts a row whose id exists: must fail with a duplicate key and change nothing. */
  record DuplicateInsert(Item item) implements Op {}

  /** The ledger row unit n commits with its operations. */
  record LedgerRow(long txn, int ops, long rowsAfter) {
    Object[] values() {
      return new Object[] {txn, ops, rowsAfter};
    }
  }

  /**
   * Unit n: {@code rolledBack} (possibly empty) runs first and is rolled back, then {@code ops} and
   * {@code ledger} commit in one transaction; {@code checkpointAfter} asks for an explicit
   * checkpoint once it is acknowledged (the checkpoint campaign honours it).
   */
  record Unit(
      long n, List<Op> rolledBack, List<Op> ops, LedgerRow ledger, boolean checkpointAfter) {}

  private final long seed;
  private final TreeMap<Long, Item> rows = new TreeMap<>();
  private final List<LedgerRow> ledger = new ArrayList<>();

  TxnWorkload(long seed) {
    this.seed = seed;
  }

  /** Units applied so far. */
  long units() {
    return ledger.size();
  }

  /** The rows after {@link #units()} units, by id. */
  TreeMap<Long, Item> rows() {
    return rows;
  }

  /** Unit {@code n}'s ledger row (1-based). */
  LedgerRow ledger(long n) {
    return ledger.get(Math.toIntExact(n - 1));
  }

  /** Generates the next unit and applies it to the model. */
  Unit advance() {
    long n = ledger.size() + 1L;
    SplittableRandom r = new SplittableRandom(mix(seed, n));
    List<Op> rolledBack = List.of();
    if (r.nextInt(8) == 0) {
      Map<Long, Item> undo = new HashMap<>();
      rolledBack = generate(r, n, undo);
      undo.forEach(
          (id, before) -> {
            if (before == NONE) {
              rows.remove(id);
            } else {
              rows.put(id, before);
            }
          });
    }
    List<Op> ops = generate(r, n, null);
    boolean checkpoint = r.nextInt(4) == 0;
    LedgerRow l = new LedgerRow(n, ops.size(), rows.size());
    ledger.add(l);
    return new Unit(n, rolledBack, ops, l, checkpoint);
  }

  /** Advances until {@code units} units are applied. */
  void advanceTo(long units) {
    while (units() < units) {
      advance();
    }
  }

  private static final Item NONE = new Item(-1, 0, 0, null, 0, null);

  /**
   * Draws a unit's operations and applies each to {@link #rows} as it goes (later operations see
   * earlier ones); with {@code undo}, records each id's first prior state so the caller can take
   * them back. Most units have 1-6 operations; one in 25 is big (40-200), mostly inserts while the
   * table is below {@link #TARGET_ROWS} and mostly deletes above, so trees split and merge in waves
   * and commits span many pages.
   */
  private List<Op> generate(SplittableRandom r, long n, Map<Long, Item> undo) {
    boolean big = r.nextInt(25) == 0;
    int count = big ? 40 + r.nextInt(161) : 1 + r.nextInt(6);
    // Percent weights of insert, duplicate insert, update; delete takes the rest.
    int[] mix;
    if (big) {
      mix = rows.size() < TARGET_ROWS ? new int[] {85, 1, 7} : new int[] {5, 1, 14};
    } else {
      mix =
          rows.size() < TARGET_ROWS / 4
              ? new int[] {80, 3, 9}
              : rows.size() > TARGET_ROWS ? new int[] {25, 3, 36} : new int[] {45, 3, 26};
    }
    List<Op> ops = new ArrayList<>(count);
    long nextId = n * IDS_PER_UNIT;
    for (int i = 0; i < count; i++) {
      int dice = r.nextInt(100);
      if (rows.isEmpty() || dice < mix[0]) {
        Item item = item(r, nextId++, n);
        remember(undo, item.id());
        rows.put(item.id(), item);
        ops.add(new Insert(item));
      } else if (dice < mix[0] + mix[1]) {
        ops.add(new DuplicateInsert(item(r, pick(r), n)));
      } else if (dice < mix[0] + mix[1] + mix[2]) {
        long id = pick(r);
        // One update in ten moves the row to a fresh id: the unique key itself changes.
        Item item = item(r, r.nextInt(10) == 0 ? nextId++ : id, n);
        remember(undo, id);
        remember(undo, item.id());
        rows.remove(id);
        rows.put(item.id(), item);
        ops.add(new Update(id, item));
      } else {
        long id = pick(r);
        remember(undo, id);
        rows.remove(id);
        ops.add(new Delete(id));
      }
    }
    return ops;
  }

  private void remember(Map<Long, Item> undo, long id) {
    if (undo != null) {
      undo.putIfAbsent(id, rows.getOrDefault(id, NONE));
    }
  }

  /** An existing id, drawn through the id range (rows must not be empty). */
  private long pick(SplittableRandom r) {
    long lo = rows.firstKey();
    long hi = rows.lastKey();
    return rows.ceilingKey(lo + r.nextLong(hi - lo + 1));
  }

  private static Item item(SplittableRandom r, long id, long n) {
    int grp = r.nextInt(16);
    long seq = r.nextLong(1_000_000);
    String name;
    int d = r.nextInt(20);
    if (d < 2) {
      name = null;
    } else if (d == 2) {
      name = text(r, 120 + r.nextInt(80));
    } else {
      name = WORDS[r.nextInt(WORDS.length)] + "-" + r.nextInt(40);
    }
    String note;
    int e = r.nextInt(100);
    if (e < 5) {
      note = null;
    } else if (e < 85) {
      note = text(r, r.nextInt(120));
    } else if (e < 95) {
      note = text(r, 200 + r.nextInt(700));
    } else {
      note = text(r, 1100 + r.nextInt(5000)); // overflows on 4 KiB pages, often on 8 KiB
    }
    return new Item(id, grp, seq, name, n, note);
  }

  private static String text(SplittableRandom r, int length) {
    StringBuilder b = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      b.append(LETTERS.charAt(r.nextInt(LETTERS.length())));
    }
    return b.toString();
  }

  /** A well-spread per-unit seed (SplitMix64's finalizer over seed and n). */
  static long mix(long seed, long n) {
    long z = seed + n * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
