package dev.idxkit.core.internal;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the next insert into each table should look first: the page the last insert used, and a
 * short queue of pages that deletes left roomy. Owned by the writer; lost at close (only a hint).
 */
public final class HeapHints {
  private static final int MAX_ROOMY = 64;

  private final Map<Integer, Long> insertPage = new HashMap<>();
  private final Map<Integer, ArrayDeque<Long>> roomy = new HashMap<>();

  public synchronized long insertPage(int table) {
    return insertPage.getOrDefault(table, 0L);
  }

  public synchronized void insertPage(int table, long page) {
    insertPage.put(table, page);
  }

  public synchronized void offerRoomy(int table, long page) {
    ArrayDeque<Long> q = roomy.computeIfAbsent(table, k -> new ArrayDeque<>());
    if (q.size() < MAX_ROOMY && !q.contains(page)) {
      q.add(page);
    }
  }

  /** A roomy page to try, or 0. */
  public synchronized long pollRoomy(int table) {
    ArrayDeque<Long> q = roomy.get(table);
    Long p = q == null ? null : q.poll();
    return p == null ? 0 : p;
  }

  /** Forgets everything (after a bulk load replaced the table's pages). */
  public synchronized void clear() {
    insertPage.clear();
    roomy.clear();
  }
}
