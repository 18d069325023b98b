package dev.idxkit.jmh.peers;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The correctness check of the {@code idxbuild} and {@code load} experiments: every store must hold
 * the same rows and answer the same index lookups, so that no store's figure comes from an index
 * that is missing rows.
 *
 * <p>Checks, in order: each store's row count equals the expected count; then for every sampled row
 * and every index, idxkit's lookup of the row's key (through {@code Index.get}) finds at least that
 * row, and each other store - another idxkit database or a SQL peer forced through the index of the
 * same name - finds exactly as many. The first difference throws {@link IllegalStateException}
 * naming the store, index, key, expected and actual count.
 */
final class CrossCheck {
  private CrossCheck() {}

  /**
   * @param reference the idxkit database whose answers are the reference
   * @param others further idxkit databases by name (may be empty)
   * @param peers SQL peers (open, indexes built)
   * @param probes sampled rows of lineitem ({@link Lineitem#sample})
   * @return the number of lookups compared
   */
  static long run(
      Database reference,
      Map<String, Database> others,
      List<SqlPeer> peers,
      List<Object[]> probes,
      long expectedRows)
      throws Exception {
    expectRows("idxkit", reference.table(Lineitem.TABLE).rowCount(), expectedRows);
    for (Map.Entry<String, Database> o : others.entrySet()) {
      expectRows(o.getKey(), o.getValue().table(Lineitem.TABLE).rowCount(), expectedRows);
    }
    for (SqlPeer p : peers) {
      expectRows(p.name(), p.rowCount(Lineitem.TABLE), expectedRows);
    }
    List<IndexInfo> indexes = Lineitem.indexes(reference);
    long compared = 0;
    for (Object[] row : probes) {
      for (IndexInfo ix : indexes) {
        Object[] key = Lineitem.key(ix, row);
        long want = Lineitem.count(reference, ix, key);
        if (want < 1 || (ix.unique() && want != 1)) {
          throw differs("idxkit", ix, key, ix.unique() ? "1" : ">= 1", want);
        }
        for (Map.Entry<String, Database> o : others.entrySet()) {
          long got = Lineitem.count(o.getValue(), ix, key);
          if (got != want) {
            throw differs(o.getKey(), ix, key, Long.toString(want), got);
          }
        }
        for (SqlPeer p : peers) {
          long got = p.count(ix, key);
          if (got != want) {
            throw differs(p.name(), ix, key, Long.toString(want), got);
          }
        }
        compared++;
      }
    }
    return compared;
  }

  private static void expectRows(String store, long rows, long expected) {
    if (rows != expected) {
      throw new IllegalStateException(
          store + ": lineitem has " + rows + " rows (expected: " + expected + ")");
    }
  }

  private static IllegalStateException differs(
      String store, IndexInfo ix, Object[] key, String expected, long actual) {
    return new IllegalStateException(
        store
            + ": "
            + ix.name()
            + " key "
            + Arrays.toString(key)
            + " : "
            + actual
            + " rows (expected: "
            + expected
            + ")");
  }
}
