package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.loader.input.CsvOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A unique key twice in the input: the deferred build stops on it and the report shows both rows
 * (fetched by RID) and how to go on, the rows stay loaded and the indexes inactive; live mode
 * rejects the second row with its line number instead.
 */
class DuplicateKeysTest {
  static final String DDL =
      "CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(20), PRIMARY KEY (id));"
          + "CREATE INDEX t_name ON t (name);";

  @TempDir Path tmp;

  /** Rows 1..500 (line = id + 1), with id 250 again on line 402 as "second". */
  Path input() throws IOException {
    StringBuilder sb = new StringBuilder("id,name\n");
    for (int i = 1; i <= 500; i++) {
      sb.append(i).append(",row").append(i).append('\n');
      if (i == 400) {
        sb.append("250,second\n");
      }
    }
    Path csv = tmp.resolve("dup.csv");
    Files.writeString(csv, sb, StandardCharsets.UTF_8);
    return csv;
  }

  LoadOptions options(Path csv, IndexMode mode) {
    return LoadOptions.of("t", LoadInput.csv(csv, CsvOptions.defaults()))
        .withIndexMode(mode)
        .withCheckpointRows(64)
        .withRejectFile(tmp.resolve("rejects.txt"));
  }

  @Test
  void deferredBuildReportsBothRows() throws IOException {
    Path csv = input();
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      LoadReport r =
          new Loader(db, options(csv, IndexMode.DEFERRED), new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(r.outcome()).isEqualTo(LoadOutcome.DUPLICATE_KEYS);
      assertThat(r.outcome().exitCode()).isEqualTo(1);
      assertThat(r.rowsLoaded()).isEqualTo(501);
      DuplicateKeys d = r.duplicate();
      assertThat(d.index()).isEqualTo("t_pk");
      assertThat(d.key()).isEqualTo("(id=250)");
      assertThat(d.firstRow()).containsExactly(250L, "row250");
      assertThat(d.secondRow()).containsExactly(250L, "second");
      assertThat(d.firstKey()).isEqualTo("(id=250)");
      assertThat(d.secondKey()).isEqualTo("(id=250)");
      assertThat(db.table("t").get(d.firstRid()).values()).isEqualTo(d.firstRow());
      assertThat(db.table("t").get(d.secondRid()).values()).isEqualTo(d.secondRow());
      String summary = String.join("\n", r.summaryLines());
      assertThat(summary)
          .contains("unique index t_pk has the key (id=250) twice")
          .contains("[250, row250]", "[250, second]")
          .contains("stay inactive", "idxkit idxbuild " + db.dir() + " --inactive");
      assertThat(r.indexes())
          .containsEntry("t_pk", IndexStatus.INACTIVE)
          .containsEntry("t_name", IndexStatus.INACTIVE);
      // The load itself is over: nothing to resume; what remains is idxbuild's.
      assertThat(Loader.unfinishedLoad(db, "t")).isEmpty();
      assertThat(db.table("t").rowCount()).isEqualTo(501);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  @Test
  void aBuildThatDoesNotNameTheRowsIsStillReported() throws IOException {
    Path csv = input();
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      IndexBuild plain =
          (d, names, l) -> {
            throw new DuplicateKeyException("t_pk", "(id=250)");
          };
      LoadReport r = new Loader(db, options(csv, IndexMode.DEFERRED), plain).run(LoadListener.NONE);
      assertThat(r.outcome()).isEqualTo(LoadOutcome.DUPLICATE_KEYS);
      assertThat(r.duplicate().firstRid()).isEqualTo(-1);
      assertThat(r.duplicate().describe())
          .isEqualTo(
              "unique index t_pk has the key (id=250) twice (the index build did not name"
                  + " the rows)");
    }
  }

  @Test
  void liveModeRejectsTheSecondRowWithItsLine() throws IOException {
    Path csv = input();
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      LoadReport r = new Loader(db, options(csv, IndexMode.LIVE), null).run(LoadListener.NONE);
      assertThat(r.outcome()).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(r.rejected()).isEqualTo(1);
      assertThat(LoadTesting.rejectLines(tmp.resolve("rejects.txt")))
          .containsExactly(csv + ":402: duplicate key (id=250) in unique index t_pk");
      assertThat(db.index("t_pk").get(250L)).hasSize(1);
      assertThat(db.index("t_pk").get(250L).get(0).values()).containsExactly(250L, "row250");
      assertThat(db.table("t").rowCount()).isEqualTo(500);
      assertThat(db.check().problems()).isEmpty();
    }
  }
}
