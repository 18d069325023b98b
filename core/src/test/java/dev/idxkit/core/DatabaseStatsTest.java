package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Database#stats()} reports what the store holds: rows, index states and tree heights. */
class DatabaseStatsTest {
  @TempDir Path tmp;

  @Test
  void statsFollowRowsAndTreeGrowth() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(40))");
      DatabaseStats empty = db.stats();
      assertThat(empty.table("t").rows()).isZero();
      assertThat(empty.index("t_pk").state()).isEqualTo(DatabaseStats.State.ACTIVE);
      assertThat(empty.index("t_pk").height()).isEqualTo(1);
      assertThat(empty.index("t_pk").columns()).containsExactly("id");

      // enough keys that one 8 KiB leaf cannot hold them: the root must split
      try (Transaction txn = db.begin()) {
        Table t = db.table("t");
        for (long i = 0; i < 5_000; i++) {
          txn.insert(t, i, "name-" + i);
        }
        txn.commit();
      }
      DatabaseStats full = db.stats();
      assertThat(full.table("t").rows()).isEqualTo(5_000);
      assertThat(full.table("t").heapPages()).isPositive();
      assertThat(full.index("t_pk").height()).isGreaterThan(1);
      assertThat(full.area("index").pages()).isGreaterThan(empty.area("index").pages());
      assertThat(full.pageSize()).isEqualTo(8192);
      assertThat(full.table("nope")).isNull();
    }
  }
}
