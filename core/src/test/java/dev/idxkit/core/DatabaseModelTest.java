package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.idxkit.core.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A randomized test of the whole store against in-memory models: mixed inserts, deletes, updates,
 * point lookups and range scans (both directions, with limits) on a table with a unique index, a
 * composite index with a DESC column, and an index on a string column with long and duplicate
 * values. Transactions of random size commit or roll back; failing statements (duplicate keys) must
 * change nothing. The database is closed and reopened halfway and checked in full at intervals.
 *
 * <p>{@code -Dmodel.ops=N} sets the operation count (default 1,000,000); {@code -Dtests.seed=S}
 * replays a run.
 */
class DatabaseModelTest {
  @TempDir Path tmp;

  static final String DDL =
      """
      CREATE TABLE m (
        id BIGINT NOT NULL,
        grp INT,
        score DOUBLE,
        name VARCHAR(1500),
        note TEXT,
        PRIMARY KEY (id));
      CREATE INDEX m_grp_score ON m (grp, score DESC);
      CREATE INDEX m_name ON m (name);
      """;

  /** Marks the end of a key prefix in model sentinels: below or above every value. */
  enum Bound {
    MIN,
    MAX
  }

  /** A model index entry: key values in index order, then the RID. */
  record Entry(Object[] key, long rid) {}

  static final class ModelIndex {
    final int[] columns;
    final boolean[] desc;
    final TreeSet<Entry> entries;

    ModelIndex(int[] columns, boolean[] desc) {
      this.columns = columns;
      this.desc = desc;
      this.entries = new TreeSet<>(this::compare);
    }

    Entry entryOf(Object[] row, long rid) {
      Object[] k = new Object[columns.length];
      for (int i = 0; i < k.length; i++) {
        k[i] = row[columns[i]];
      }
      return new Entry(k, rid);
    }

    int compare(Entry a, Entry b) {
      for (int i = 0; i < columns.length; i++) {
        int c = compareValue(a.key[i], b.key[i], desc[i]);
        if (c != 0) {
          return c;
        }
      }
      return Long.compare(a.rid, b.rid);
    }

    static int compareValue(Object x, Object y, boolean desc) {
      if (x instanceof Bound bx) {
        return y instanceof Bound by ? bx.compareTo(by) : bx == Bound.MIN ? -1 : 1;
      }
      if (y instanceof Bound by) {
        return by == Bound.MIN ? 1 : -1;
      }
      if (x == null || y == null) {
        return x == null ? (y == null ? 0 : -1) : 1; // NULLs first in ASC and DESC
      }
      int c;
      if (x instanceof String sx) {
        c = compareCodePoints(sx, (String) y);
      } else if (x instanceof Double dx) {
        c = Double.compare(dx, (Double) y);
      } else {
        @SuppressWarnings("unchecked")
        Comparable<Object> cx = (Comparable<Object>) x;
        c = cx.compareTo(y);
      }
      return desc ? -c : c;
    }

    /** Rows in [from, to] by key prefix, as the database defines KeyRange. */
    List<Entry> range(
        Object[] from, boolean fromInc, Object[] to, boolean toInc, boolean reverse, int limit) {
      NavigableSet<Entry> s = entries;
      Entry lo = from == null ? null : sentinel(from, fromInc ? Bound.MIN : Bound.MAX);
      Entry hi = to == null ? null : sentinel(to, toInc ? Bound.MAX : Bound.MIN);
      if (lo != null && hi != null && compare(lo, hi) > 0) {
        return List.of();
      }
      if (lo != null) {
        s = s.tailSet(lo, true);
      }
      if (hi != null) {
        s = s.headSet(hi, true);
      }
      List<Entry> out = new ArrayList<>();
      Iterator<Entry> it = reverse ? s.descendingIterator() : s.iterator();
      while (it.hasNext() && (limit < 0 || out.size() < limit)) {
        out.add(it.next());
      }
      return out;
    }

    private Entry sentinel(Object[] prefix, Bound fill) {
      Object[] k = new Object[columns.length];
      for (int i = 0; i < k.length; i++) {
        k[i] = i < prefix.length ? prefix[i] : fill;
      }
      return new Entry(k, fill == Bound.MIN ? Long.MIN_VALUE : Long.MAX_VALUE);
    }
  }

  static int compareCodePoints(String a, String b) {
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
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /** The model: rows by id, their RIDs, and the three indexes. Undo records allow rollback. */
  static final class Model {
    final Map<Long, Object[]> rows = new HashMap<>();
    final Map<Long, Long> rids = new HashMap<>();
    final TreeMap<Long, Long> pk = new TreeMap<>();
    final ModelIndex grpScore = new ModelIndex(new int[] {1, 2}, new boolean[] {false, true});
    final ModelIndex name = new ModelIndex(new int[] {3}, new boolean[] {false});
    final List<Runnable> undo = new ArrayList<>();

    void put(long id, Object[] row, long rid) {
      rows.put(id, row);
      rids.put(id, rid);
      pk.put(id, rid);
      grpScore.entries.add(grpScore.entryOf(row, rid));
      name.entries.add(name.entryOf(row, rid));
      undo.add(() -> remove(id, false));
    }

    void remove(long id, boolean record) {
      Object[] row = rows.remove(id);
      long rid = rids.remove(id);
      pk.remove(id);
      grpScore.entries.remove(grpScore.entryOf(row, rid));
      name.entries.remove(name.entryOf(row, rid));
      if (record) {
        undo.add(() -> put(id, row, rid));
      }
    }

    void rollback() {
      for (int i = undo.size() - 1; i >= 0; i--) {
        int before = undo.size();
        undo.get(i).run();
        // Undo actions must not log themselves.
        while (undo.size() > before) {
          undo.remove(undo.size() - 1);
        }
      }
      undo.clear();
    }
  }

  private final String[] namePool = new String[64];

  private String randomName(SplittableRandom r) {
    switch (r.nextInt(10)) {
      case 0:
        return null;
      case 1:
      case 2:
        return "x".repeat(200 + r.nextInt(1200)) + r.nextInt(100); // long, shared prefix
      case 3:
        return "é漢" + new String(Character.toChars(0x1F600 + r.nextInt(40))) + r.nextInt(50);
      default:
        return namePool[r.nextInt(namePool.length)]; // many duplicates
    }
  }

  private Object[] randomRow(SplittableRandom r, long id) {
    Integer grp = r.nextInt(20) == 0 ? null : r.nextInt(50);
    Double score;
    int k = r.nextInt(40);
    if (k == 0) {
      score = null;
    } else if (k == 1) {
      score = Double.NaN;
    } else if (k == 2) {
      score = r.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
    } else {
      score = (double) (r.nextInt(2000) - 1000) / 8;
    }
    String note = r.nextInt(200) == 0 ? "n".repeat(20_000 + r.nextInt(20_000)) : "note" + id;
    return new Object[] {id, grp, score, randomName(r), note};
  }

  /**
   * Small checkpoint bounds (16 MiB of log, 16 MiB of dirty pages), so that checkpoints run beside
   * the commits every few thousand operations and the model sees reads and writes go through the
   * frozen index, the second log segment and the page index's reuse. (At 1 MiB the test took three
   * times as long, in the checkpoints' fsyncs.)
   */
  private static Database.DatabaseOptions options() {
    return Database.DatabaseOptions.defaults()
        .withDurability(Durability.OFF)
        .withCheckpointBytes(16 << 20)
        .withDirtyPageBytes(16 << 20);
  }

  @Test
  void millionMixedOperationsAgreeWithTheModel() {
    long seed = Seeds.seed();
    int ops = Integer.getInteger("model.ops", 1_000_000);
    String repro = Seeds.reproduce(seed, getClass()) + " -Dmodel.ops=" + ops;
    try {
      run(seed, ops);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(repro + ": " + e.getMessage(), e);
    }
  }

  private void run(long seed, int ops) {
    SplittableRandom r = Seeds.random(seed);
    for (int i = 0; i < namePool.length; i++) {
      namePool[i] = "name-" + (i * 7919 % 1000);
    }
    Path dir = tmp.resolve("db");
    Model model = new Model();
    Database db = Database.create(dir, options());
    db.execute(DDL);
    long idSpace = 60_000;
    int done = 0;
    int txns = 0;
    int rollbacks = 0;
    int duplicates = 0;
    int ranges = 0;
    boolean reopened = false;
    long generations = 0;
    try {
      while (done < ops) {
        Table t = db.table("m");
        Index pkIx = db.index("m_pk");
        Index gsIx = db.index("m_grp_score");
        Index nameIx = db.index("m_name");
        int size = 1 + r.nextInt(r.nextInt(10) == 0 ? 400 : 40);
        boolean rollback = r.nextInt(20) == 0;
        try (Transaction tx = db.begin()) {
          for (int i = 0; i < size && done < ops; i++, done++) {
            int op = r.nextInt(100);
            long id = r.nextLong(idSpace);
            if (op < 35) { // insert
              Object[] row = randomRow(r, id);
              if (model.rows.containsKey(id)) {
                try {
                  tx.insert(t, row);
                  fail("insert of existing id " + id + " succeeded");
                } catch (DuplicateKeyException e) {
                  duplicates++;
                  assertThat(e.index()).isEqualTo("m_pk");
                }
              } else {
                model.put(id, row, tx.insert(t, row));
              }
            } else if (op < 50) { // delete
              Long rid = model.rids.get(id);
              if (rid == null) {
                assertThat(tx.lookup(pkIx, id)).isEmpty();
              } else {
                assertThat(tx.delete(t, rid)).isTrue();
                model.remove(id, true);
              }
            } else if (op < 65) { // update (sometimes changing indexed values or size)
              Long rid = model.rids.get(id);
              if (rid != null) {
                Object[] row = randomRow(r, id);
                long moved = tx.update(t, rid, row);
                model.remove(id, true);
                model.put(id, row, moved);
              }
            } else if (op < 80) { // point lookup by primary key
              List<Row> got = tx.lookup(pkIx, id);
              Object[] want = model.rows.get(id);
              if (want == null) {
                assertThat(got).isEmpty();
              } else {
                assertThat(got).hasSize(1);
                assertRow(got.get(0), want, model.rids.get(id));
              }
            } else if (op < 92) { // range scan on a random index
              ranges++;
              checkRange(r, tx, model, r.nextBoolean() ? gsIx : nameIx, r.nextBoolean());
            } else if (op < 96) { // by RID
              Long rid = model.rids.get(id);
              if (rid != null) {
                assertRow(tx.get(t, rid), model.rows.get(id), rid);
              }
            } else { // all rows with a duplicated name
              String n = namePool[r.nextInt(namePool.length)];
              List<Row> got = tx.lookup(nameIx, n);
              List<Entry> want =
                  model.name.range(new Object[] {n}, true, new Object[] {n}, true, false, -1);
              assertThat(got.stream().map(Row::rid).toList())
                  .isEqualTo(want.stream().map(Entry::rid).toList());
            }
          }
          if (rollback) {
            tx.rollback();
            model.rollback();
            rollbacks++;
          } else {
            tx.commit();
            model.undo.clear();
          }
          txns++;
        }
        if (!reopened && done >= ops / 2) {
          db.close();
          db.close(); // idempotent
          db = Database.open(dir, options());
          reopened = true;
          verifyAll(db, model);
        }
        if (txns % 3000 == 0) {
          assertClean(db.check());
        }
      }
      verifyAll(db, model);
      assertClean(db.check());
      generations = db.stats().generation();
    } finally {
      db.close();
    }
    // One meta slot per checkpoint: the reopen's and a handful by the bounds are the least.
    assertThat(generations).as("checkpoints beside the commits ran").isGreaterThan(5);
    System.out.printf(
        "model test: %d ops in %d transactions (%d rolled back), %d duplicate inserts refused,"
            + " %d range scans, %d rows at the end, meta generation %d%n",
        ops, txns, rollbacks, duplicates, ranges, model.rows.size(), generations);
  }

  private void checkRange(SplittableRandom r, Transaction tx, Model model, Index ix, boolean rev) {
    ModelIndex m = ix.name().equals("m_name") ? model.name : model.grpScore;
    Object[] from = r.nextInt(4) == 0 ? null : boundFor(r, m);
    Object[] to = r.nextInt(4) == 0 ? null : boundFor(r, m);
    boolean fromInc = r.nextBoolean();
    boolean toInc = r.nextBoolean();
    int limit = r.nextInt(3) == 0 ? -1 : 1 + r.nextInt(60);
    List<Entry> want = m.range(from, fromInc, to, toInc, rev, limit < 0 ? 200 : limit);
    List<Row> got;
    try (RowCursor c = tx.scan(ix, new KeyRange(from, fromInc, to, toInc), rev, limit)) {
      got = c.take(limit < 0 ? 200 : limit);
    }
    assertThat(got.stream().map(Row::rid).toList())
        .as(
            "range %s %s..%s %s rev=%s limit=%d on %s",
            fromInc ? "[" : "(",
            Arrays.deepToString(from),
            Arrays.deepToString(to),
            toInc ? "]" : ")",
            rev,
            limit,
            ix.name())
        .isEqualTo(want.stream().map(Entry::rid).toList());
    for (Row row : got) {
      assertThat(row.values()).isEqualTo(model.rows.get((Long) row.values()[0]));
    }
  }

  private Object[] boundFor(SplittableRandom r, ModelIndex m) {
    if (m == null || m.columns.length == 1) {
      String s = randomName(r);
      return new Object[] {s};
    }
    Integer grp = r.nextInt(30) == 0 ? null : r.nextInt(52) - 1;
    if (r.nextBoolean()) {
      return new Object[] {grp};
    }
    return new Object[] {grp, (double) (r.nextInt(2000) - 1000) / 8};
  }

  private static void assertRow(Row got, Object[] want, long rid) {
    assertThat(got).isNotNull();
    assertThat(got.rid()).isEqualTo(rid);
    assertThat(got.values()).isEqualTo(want);
  }

  private static void verifyAll(Database db, Model model) {
    Table t = db.table("m");
    assertThat(t.rowCount()).isEqualTo(model.rows.size());
    Map<Long, Row> seen = new HashMap<>();
    try (RowCursor c = t.scan()) {
      c.forEachRemaining(row -> seen.put((Long) row.values()[0], row));
    }
    assertThat(seen.keySet()).isEqualTo(model.rows.keySet());
    for (var e : model.rows.entrySet()) {
      assertRow(seen.get(e.getKey()), e.getValue(), model.rids.get(e.getKey()));
    }
    try (RowCursor c = db.index("m_pk").scan()) {
      List<Long> ids = new ArrayList<>();
      c.forEachRemaining(row -> ids.add((Long) row.values()[0]));
      assertThat(ids).isEqualTo(new ArrayList<>(model.pk.keySet()));
    }
    for (String name : List.of("m_grp_score", "m_name")) {
      ModelIndex m = name.equals("m_name") ? model.name : model.grpScore;
      try (RowCursor c = db.index(name).scan(KeyRange.ALL, true, -1)) {
        List<Long> rids = new ArrayList<>();
        c.forEachRemaining(row -> rids.add(row.rid()));
        List<Long> want = new ArrayList<>();
        m.entries.descendingIterator().forEachRemaining(e -> want.add(e.rid()));
        assertThat(rids).as(name + " reversed").isEqualTo(want);
      }
    }
  }

  private static void assertClean(DatabaseCheck.Report report) {
    assertThat(report.problems()).as("check").isEmpty();
  }
}
