package dev.idxkit.crash;

import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.loader.internal.ResumeState;

/**
 * How far the {@code load} campaign's work has got, read from the database alone and packed into
 * one long that grows with every durable step, so it can travel as a unit number in READY and ACK
 * lines and be compared:
 *
 * <pre>
 * bits 63..40  job j (table load_j is the newest)      bits 39..36  step      bits 35..0  records
 * step 0  table created, no load yet (no resume point, no rows)
 * step 1  loading: the resume point's records read (rows and rejects)
 * step 2  every row in, deferred index build pending (resume point in its "building" phase)
 * step 3  load complete (no resume point, rows in the table)
 * </pre>
 *
 * These numbers are not dense (a checkpoint adds hundreds of records), so the campaign replaces the
 * runner's "at most one unit past the acknowledged" rule with its own.
 */
final class LoadProgressCode {
  static final int CREATED = 0;
  static final int LOADING = 1;
  static final int BUILDING = 2;
  static final int DONE = 3;

  private LoadProgressCode() {}

  static long of(int job, int step, long records) {
    return (long) job << 40 | (long) step << 36 | records;
  }

  static int job(long code) {
    return (int) (code >>> 40);
  }

  static int step(long code) {
    return (int) (code >>> 36) & 0xF;
  }

  static long records(long code) {
    return code & ((1L << 36) - 1);
  }

  static String describe(long code) {
    if (code == 0) {
      return "nothing";
    }
    String[] steps = {"created", "loading", "building indexes", "done"};
    return "job "
        + job(code)
        + " "
        + steps[step(code)]
        + (step(code) == LOADING ? " at record " + records(code) : "");
  }

  /** The newest job's table in the database, 0 if none. */
  static int newestJob(Database db) {
    int j = 0;
    for (TableInfo t : db.catalog().tables()) {
      String n = t.name();
      if (n.startsWith("load_")) {
        j = Math.max(j, Integer.parseInt(n.substring("load_".length())));
      }
    }
    return j;
  }

  /** The state of the database, encoded. */
  static long of(Database db) {
    int j = newestJob(db);
    if (j == 0) {
      return 0;
    }
    ResumeState s = resumeState(db, j);
    if (s != null) {
      return s.phase() == ResumeState.LOADING
          ? of(j, LOADING, s.recordsRead())
          : of(j, BUILDING, 0);
    }
    return of(j, db.table("load_" + j).rowCount() == 0 ? CREATED : DONE, 0);
  }

  /** The resume point of job j's load, or null. */
  static ResumeState resumeState(Database db, int j) {
    String key = ResumeState.key("load_" + j);
    byte[] b = db.resumePoint(key);
    return b == null ? null : ResumeState.decode(b, key, db.dir());
  }
}
