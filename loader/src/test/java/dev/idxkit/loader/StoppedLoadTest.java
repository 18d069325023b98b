package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.loader.input.CsvOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deferred load cancelled (what Ctrl-C does) into a table whose indexes were active: the load
 * stops at a checkpoint, the rows it keeps are indexed and every index is active again; a resume
 * then completes the load with every row once and the indexes active.
 */
class StoppedLoadTest {
  static final String DDL =
      "CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(20), PRIMARY KEY (id));"
          + "CREATE INDEX t_name ON t (name);";

  @TempDir Path tmp;

  @Test
  void aCancelledLoadLeavesNoIndexInactiveAndResumes() throws IOException {
    StringBuilder sb = new StringBuilder("id,name\n");
    for (int i = 1; i <= 2000; i++) {
      sb.append(i).append(",row").append(i).append('\n');
    }
    Path csv = Files.writeString(tmp.resolve("t.csv"), sb, StandardCharsets.UTF_8);
    LoadOptions options =
        LoadOptions.of("t", LoadInput.csv(csv, CsvOptions.defaults().withChunkBytes(1024)))
            .withCheckpointRows(100);
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      db.table("t").insert(-1L, "before");
      assertThat(db.index("t_pk").isActive()).isTrue();
      Loader[] loader = new Loader[1];
      loader[0] = new Loader(db, options, new TestIndexBuild());
      LoadReport stopped =
          loader[0].run(
              new LoadListener() {
                @Override
                public void checkpoint(LoadProgress p) {
                  loader[0].cancel(); // as the Ctrl-C handler does
                }
              });
      assertThat(stopped.outcome()).isEqualTo(LoadOutcome.CANCELLED);
      long kept = db.table("t").rowCount();
      assertThat(kept).isGreaterThan(1).isLessThan(2001);
      assertThat(stopped.indexes().values()).containsOnly(IndexStatus.ACTIVE);
      assertThat(LoadTesting.rows(db.index("t_pk"))).hasSize((int) kept);
      assertThat(LoadTesting.rows(db.index("t_name"))).hasSize((int) kept);
      assertThat(db.index("t_pk").get(-1L)).hasSize(1);
      assertThat(String.join("\n", stopped.summaryLines()))
          .contains("continue it with --resume", "are indexed");
      assertThat(db.check().problems()).isEmpty();

      LoadReport done =
          new Loader(db, options.withStartMode(StartMode.RESUME), new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(done.outcome()).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(db.table("t").rowCount()).isEqualTo(2001);
      assertThat(done.indexes().values()).containsOnly(IndexStatus.ACTIVE);
      assertThat(LoadTesting.rows(db.index("t_pk"))).hasSize(2001);
      assertThat(db.check().problems()).isEmpty();
    }
  }
}
