package dev.idxkit.jmh.api;

import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Index;
import dev.idxkit.core.Row;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.jmh.BenchDir;
import dev.idxkit.jmh.BenchmarkBase;
import java.util.List;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Point lookups through the public API, {@code db.index("kv_pk").get(k)}, on a table of {@code
 * rows} rows (10,000,000 by default): the figure to set beside {@link
 * dev.idxkit.jmh.btree.BTreeReadBench#pointLookup}, which reads the same kind of tree directly. The
 * difference is what the API adds per lookup: key coercion and encoding, a {@code BTree} object and
 * a cursor, the heap read and decode of the row, the {@code Row} and list objects.
 *
 * <p>Setup, once per trial (it is the slow part: all rows go through transactions): {@value #DDL}
 * in a fresh database, then rows {@code (k, k * 3)} for {@code k} in {@code [0, rows)} inserted in
 * ascending key order through {@code db.begin(Durability.OFF)} transactions of {@value #LOAD_BATCH}
 * rows, then a checkpoint, so lookups read the area files, not log images. The load rate is
 * printed. Tear-down closes the database and deletes its directory.
 *
 * <p>Each lookup checks it got exactly the row it asked for and throws otherwise.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar IndexLookupBench} ({@code -p rows=1000000} for
 * a quicker set-up).
 */
public class IndexLookupBench extends BenchmarkBase {
  static final String DDL =
      "CREATE TABLE kv (k BIGINT NOT NULL, v BIGINT NOT NULL, PRIMARY KEY (k))";
  static final int LOAD_BATCH = 50_000;
  static final long SEED = 20_240_603L;

  /** The database and its table, shared by every benchmark thread. */
  @State(Scope.Benchmark)
  public static class Db {
    @Param("10000000")
    public long rows;

    BenchDir dir;
    Database db;
    Index index;

    @Setup(Level.Trial)
    public void setup() {
      if (rows < 1) {
        throw new IllegalArgumentException("rows : " + rows + " (expected: >= 1)");
      }
      dir = BenchDir.create("api-lookup");
      try {
        db = Database.create(dir.resolve("db"));
        db.execute(DDL);
        long t0 = System.nanoTime();
        load(db, rows);
        db.checkpoint();
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
            "%n[loaded %d rows through transactions in %.1f s: %.0f rows/s]%n", rows, s, rows / s);
        index = db.index("kv_pk");
      } catch (RuntimeException e) {
        tearDown();
        throw e;
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      try {
        if (db != null) {
          db.close();
          db = null;
        }
      } finally {
        if (dir != null) {
          dir.close();
          dir = null;
        }
      }
    }
  }

  /** One thread's random stream (fixed seed per thread). */
  @State(Scope.Thread)
  public static class Keys {
    SplittableRandom random;

    @Setup(Level.Trial)
    public void setup(ThreadParams params) {
      random = new SplittableRandom(SEED + params.getThreadIndex());
    }
  }

  /** Inserts rows {@code (k, k * 3)} for {@code k} in {@code [0, rows)}, in ascending order. */
  static void load(Database db, long rows) {
    Table kv = db.table("kv");
    for (long k = 0; k < rows; ) {
      try (Transaction t = db.begin(Durability.OFF)) {
        for (long end = Math.min(rows, k + LOAD_BATCH); k < end; k++) {
          t.insert(kv, k, k * 3);
        }
        t.commit();
      }
    }
  }

  /** {@code index.get(k)} for a random existing key; returns the row's value column. */
  @Benchmark
  public long indexGet(Db d, Keys r) {
    long k = r.random.nextLong(d.rows);
    List<Row> found = d.index.get(k);
    if (found.size() != 1 || !found.get(0).get(0).equals(k)) {
      throw new IllegalStateException("get(" + k + ") returned " + found);
    }
    return (Long) found.get(0).get(1);
  }
}
