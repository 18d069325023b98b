package dev.idxkit.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A table {@code t} with three indexes and its model (a {@link TreeMap} by primary key), for the
 * fault tests: random transactions that insert, update and delete, applied to the model only when
 * their commit returns, and {@link #assertMatches} comparing the whole table and every index with
 * the model.
 */
final class ModelTable {
  static final String DDL =
      "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, grp INT NOT NULL, name VARCHAR(120));"
          + " CREATE INDEX t_grp ON t (grp, name DESC); CREATE INDEX t_name ON t (name);";

  final TreeMap<Long, Object[]> rows = new TreeMap<>();
  private final SplittableRandom r;
  private long nextId = 1;

  ModelTable(long seed) {
    this.r = new SplittableRandom(seed);
  }

  Object[] newRow() {
    long id = nextId++;
    String name =
        r.nextInt(10) == 0 ? null : "name-" + r.nextInt(500) + "-" + "x".repeat(r.nextInt(60));
    return new Object[] {id, r.nextInt(30), name};
  }

  /**
   * Stages a transaction of {@code inserts} inserts and a few updates and deletes in {@code tx};
   * returns the model as it will be if the commit succeeds.
   */
  TreeMap<Long, Object[]> stage(Database db, Transaction tx, int inserts) {
    TreeMap<Long, Object[]> after = new TreeMap<>(rows);
    Table t = db.table("t");
    for (int i = 0; i < inserts; i++) {
      Object[] row = newRow();
      tx.insert(t, row);
      after.put((Long) row[0], row);
    }
    List<Long> ids = new ArrayList<>(rows.keySet());
    for (int i = 0; i < Math.min(3, ids.size()); i++) {
      long id = ids.get(r.nextInt(ids.size()));
      if (!after.containsKey(id)) {
        continue;
      }
      Row found = tx.lookup(db.index("t_pk"), id).get(0);
      if (r.nextBoolean()) {
        tx.delete(t, found.rid());
        after.remove(id);
      } else {
        Object[] v = {id, r.nextInt(30), "updated-" + r.nextInt(1000)};
        tx.update(t, found.rid(), v);
        after.put(id, v);
      }
    }
    return after;
  }

  /** A transaction of {@code inserts} inserts (and a few changes) that must commit. */
  void commit(Database db, int inserts) {
    try (Transaction tx = db.begin()) {
      TreeMap<Long, Object[]> after = stage(db, tx, inserts);
      tx.commit();
      rows.clear();
      rows.putAll(after);
    }
  }

  /** The table, each index and point lookups equal the model. */
  void assertMatches(Database db, String when) {
    List<String> expected = new ArrayList<>();
    for (Object[] v : rows.values()) {
      expected.add(Arrays.toString(v));
    }
    expected.sort(null);
    assertThat(sortedTexts(db.table("t").scan())).as("table t %s", when).isEqualTo(expected);
    for (IndexInfo ix : db.catalog().table("t").indexes()) {
      assertThat(db.index(ix.name()).isActive()).as("%s active %s", ix.name(), when).isTrue();
      assertThat(sortedTexts(db.index(ix.name()).scan()))
          .as("index %s %s", ix.name(), when)
          .isEqualTo(expected);
    }
    for (Map.Entry<Long, Object[]> e : rows.entrySet()) {
      if (e.getKey() % 7 == 0) {
        List<Row> found = db.index("t_pk").get(e.getKey());
        assertThat(found).as("lookup of %d %s", e.getKey(), when).hasSize(1);
        assertThat(found.get(0).values()).isEqualTo(e.getValue());
      }
    }
    assertThat(db.table("t").rowCount()).as("row count %s", when).isEqualTo(rows.size());
  }

  private static List<String> sortedTexts(RowCursor c) {
    List<String> out = new ArrayList<>();
    try (c) {
      c.forEachRemaining(row -> out.add(Arrays.toString(row.values())));
    }
    out.sort(null);
    return out;
  }
}
