package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.HeapAppender;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.core.testing.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapAppenderTest {
  @TempDir Path tmp;

  @Test
  void appendedRowsArePublishedInBatchesAndReadBack() throws IOException {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    Path dir = tmp.resolve("db");
    Map<Long, Object[]> published = new HashMap<>();
    try (Database db = Database.create(dir)) {
      db.execute("CREATE TABLE t (id BIGINT NOT NULL, note TEXT)");
      Catalog.TableInfo t = db.catalog().table("t");
      try (BulkWrite bulk = Engine.of(db).beginBulk();
          HeapAppender out = new HeapAppender(bulk, t)) {
        Map<Long, Object[]> pending = new HashMap<>();
        for (int batch = 0; batch < 5; batch++) {
          for (int i = 0; i < 3000; i++) {
            long id = batch * 10_000L + i;
            String note = r.nextInt(100) == 0 ? "big".repeat(5000 + r.nextInt(5000)) : "n" + id;
            Object[] row = {id, note};
            pending.put(out.append(row), row);
          }
          out.flush();
          bulk.publish();
          published.putAll(pending);
          pending.clear();
          if (batch == 2) {
            CrashCopy.of(dir, tmp.resolve("crash"));
          }
        }
        // Appended but never published: lost, as a crash would lose it.
        out.append(new Object[] {-1L, "unpublished"});
      }
      db.bulkPublished();
      Table table = db.table("t");
      assertThat(table.rowCount()).isEqualTo(15_000);
      for (var e : published.entrySet()) {
        assertThat(table.get(e.getKey()).values()).isEqualTo(e.getValue());
      }
      List<Object> ids = new ArrayList<>();
      try (RowCursor c = table.scan()) {
        c.forEachRemaining(row -> ids.add(row.values()[0]));
      }
      assertThat(ids).hasSize(15_000).doesNotContain(-1L);
      assertThat(db.check().problems()).as(Seeds.reproduce(seed, getClass())).isEmpty();
      // Ordinary inserts go on after a bulk load.
      table.insert(99L, "after");
      assertThat(table.rowCount()).isEqualTo(15_001);
      assertThat(db.check().problems()).isEmpty();
    }
    try (Database db = Database.open(tmp.resolve("crash"))) {
      assertThat(db.table("t").rowCount()).isEqualTo(9000);
      assertThat(db.check().problems()).isEmpty();
    }
  }
}
