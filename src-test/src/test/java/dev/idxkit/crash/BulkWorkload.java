package dev.idxkit.crash;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The units of the {@code bulk} campaign as a pure function of (seed, n, the state after n-1), like
 * {@link TxnWorkload}.
 *
 * <p>Most units are <b>publishes</b>: unit n appends batch n - {@link #rows} rows {@code (batch =
 * n, seq = 0..rows-1, payload)} on heap pages of their own - and may drop whole older batches
 * (their pages are freed, so later publishes and transactions reuse them). The table hovers around
 * {@link #TARGET_BATCHES} batches. About one unit in five is a <b>log transaction</b> instead: an
 * ordinary SYNC transaction inserting {@code (n, batches, rows)} into {@code batch_log} between two
 * bulk sessions, so the next session's opening checkpoint has log pages to copy home. Payloads are
 * a function of (seed, batch, seq), so the verifier regenerates every row without storing it.
 *
 * <p>Memory: a map of live batches and the set of log units.
 */
final class BulkWorkload {
  static final String DDL =
      """
      CREATE TABLE batch_rows (
        batch BIGINT NOT NULL,
        seq INT NOT NULL,
        payload VARCHAR(300));
      CREATE INDEX batch_rows_batch ON batch_rows (batch, seq);
      CREATE TABLE batch_log (
        unit BIGINT NOT NULL PRIMARY KEY,
        batches INT NOT NULL,
        total_rows BIGINT NOT NULL);
      """;

  static final int TARGET_BATCHES = 16;

  /** What a unit does. */
  enum Kind {
    PUBLISH,
    LOG
  }

  /**
   * Unit n: a publish of {@code rows} rows as batch n that also drops the batches of {@code drops}
   * (batch to its row count), or a log transaction; {@code endSession} closes the bulk session
   * after this publish.
   */
  record Unit(long n, Kind kind, int rows, Map<Long, Integer> drops, boolean endSession) {}

  /** The log row of a LOG unit: the state as the unit saw it. */
  record LogRow(long unit, int batches, long totalRows) {
    Object[] values() {
      return new Object[] {unit, batches, totalRows};
    }
  }

  private final long seed;
  private final TreeMap<Long, Integer> batches = new TreeMap<>();
  private final TreeMap<Long, LogRow> logs = new TreeMap<>();
  private long units;
  private long lastPublish;
  private long totalRows;

  BulkWorkload(long seed) {
    this.seed = seed;
  }

  long units() {
    return units;
  }

  /** Live batches and their row counts. */
  TreeMap<Long, Integer> batches() {
    return batches;
  }

  /** Log rows of the LOG units applied so far, by unit. */
  TreeMap<Long, LogRow> logs() {
    return logs;
  }

  /** The last PUBLISH unit applied (the resume point the database must hold), 0 if none. */
  long lastPublish() {
    return lastPublish;
  }

  long totalRows() {
    return totalRows;
  }

  Unit advance() {
    long n = units + 1;
    SplittableRandom r = new SplittableRandom(TxnWorkload.mix(seed, n));
    Unit u;
    if (n > 1 && r.nextInt(5) == 0) {
      u = new Unit(n, Kind.LOG, 0, Map.of(), false);
      logs.put(n, new LogRow(n, batches.size(), totalRows));
    } else {
      int rows = 1 + r.nextInt(r.nextInt(4) == 0 ? 3000 : 400);
      TreeMap<Long, Integer> drops = new TreeMap<>();
      int dropCount =
          batches.size() > TARGET_BATCHES
              ? 1 + r.nextInt(2)
              : batches.size() >= 3 && r.nextInt(4) == 0 ? 1 : 0;
      List<Long> live = new ArrayList<>(batches.keySet());
      for (int i = 0; i < dropCount && !live.isEmpty(); i++) {
        long d = live.remove(r.nextInt(live.size()));
        drops.put(d, batches.remove(d));
        totalRows -= drops.get(d);
      }
      batches.put(n, rows);
      totalRows += rows;
      lastPublish = n;
      u = new Unit(n, Kind.PUBLISH, rows, drops, r.nextInt(3) == 0);
    }
    units = n;
    return u;
  }

  void advanceTo(long n) {
    while (units < n) {
      advance();
    }
  }

  /** Row {@code seq} of batch {@code batch}, in column order. */
  Object[] row(long batch, int seq) {
    SplittableRandom r = new SplittableRandom(TxnWorkload.mix(seed ^ batch, seq));
    int d = r.nextInt(50);
    if (d == 0) {
      return new Object[] {batch, seq, null};
    }
    int len = d < 40 ? r.nextInt(60) : r.nextInt(300);
    char[] c = new char[len];
    for (int i = 0; i < len; i++) {
      c[i] = (char) ('a' + r.nextInt(26));
    }
    return new Object[] {batch, seq, new String(c)};
  }
}
