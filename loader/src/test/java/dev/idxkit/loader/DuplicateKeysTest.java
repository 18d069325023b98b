package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.JsonLinesOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A unique key twice in the input is a rejected row in both modes: the reject file names its line,
 * the key and the line of the row kept; the row is not in the table and every index ends active.
 * Only a build that does not name the rows leaves the indexes inactive.
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

  static final String REJECT_LINE =
      ":402: duplicate key (id=250) in unique index t_pk; the row kept is line 251";

  @Test
  void deferredBuildRejectsTheLaterRowByLineAndEndsActive() throws IOException {
    Path csv = input();
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      LoadReport r =
          new Loader(db, options(csv, IndexMode.DEFERRED), new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(r.outcome()).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(r.rejected()).isEqualTo(1);
      assertThat(r.rowsLoaded()).isEqualTo(500);
      assertThat(r.duplicate()).isNull();
      assertThat(LoadTesting.rejectLines(tmp.resolve("rejects.txt")))
          .containsExactly(csv + REJECT_LINE + " | 250,second");
      assertThat(r.indexes())
          .containsEntry("t_pk", IndexStatus.ACTIVE)
          .containsEntry("t_name", IndexStatus.ACTIVE);
      assertThat(db.index("t_pk").get(250L)).hasSize(1);
      assertThat(db.index("t_pk").get(250L).get(0).values()).containsExactly(250L, "row250");
      assertThat(db.index("t_name").get("second")).isEmpty();
      assertThat(Loader.unfinishedLoad(db, "t")).isEmpty();
      assertThat(db.table("t").rowCount()).isEqualTo(500);
      assertThat(db.check().problems()).isEmpty();
    }
  }

  /**
   * The reject file's raw text of a row the deferred build dropped is a record of the load's own
   * CSV: loaded again, with the same options, into an empty table, it gives the same row; a value
   * with the delimiter and quotes, a NULL and an empty string included.
   */
  @Test
  void aDroppedRowIsWrittenAsCsvThatLoadsBackToTheSameRow() throws IOException {
    String ddl =
        "CREATE TABLE t (id BIGINT NOT NULL, a VARCHAR(20), b VARCHAR(20), c VARCHAR(20),"
            + " PRIMARY KEY (id));";
    Path csv = tmp.resolve("awkward.csv");
    Files.writeString(
        csv, "id,a,b,c\n1,x,y,z\n2,x,y,z\n1,\"a, \"\"b\"\"\",,\"\"\n", StandardCharsets.UTF_8);
    Object[] dropped = {1L, "a, \"b\"", null, ""};
    Path again = tmp.resolve("again.csv");
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(ddl);
      LoadReport r =
          new Loader(db, options(csv, IndexMode.DEFERRED), new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(r.rejected()).isEqualTo(1);
      String reject = LoadTesting.rejectLines(tmp.resolve("rejects.txt")).get(0);
      assertThat(reject)
          .startsWith(
              csv + ":4: duplicate key (id=1) in unique index t_pk; the row kept is line 2");
      String raw = reject.substring(reject.indexOf(" | ") + 3);
      Files.writeString(again, "id,a,b,c\n" + raw + "\n", StandardCharsets.UTF_8);
    }
    try (Database db = Database.create(tmp.resolve("empty"))) {
      db.execute(ddl);
      LoadReport r =
          new Loader(
                  db,
                  LoadOptions.of("t", LoadInput.csv(again, CsvOptions.defaults()))
                      .withRejectFile(tmp.resolve("rejects-again.txt")),
                  new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(r.rejected()).as("rejects of the reload").isZero();
      assertThat(LoadTesting.rows(db.table("t")))
          .singleElement()
          .satisfies(row -> assertThat(row.values()).containsExactly(dropped));
    }
  }

  /** The same for a JSON Lines load: the dropped row is written as one object that loads back. */
  @Test
  void aDroppedRowOfJsonLinesIsWrittenAsAnObjectThatLoadsBack() throws IOException {
    String ddl =
        "CREATE TABLE t (id BIGINT NOT NULL, a VARCHAR(20), b DECIMAL(6,2), c VARCHAR(20),"
            + " PRIMARY KEY (id));";
    Path jsonl = tmp.resolve("awkward.jsonl");
    Files.writeString(
        jsonl,
        "{\"id\":1,\"a\":\"x\",\"b\":1.50,\"c\":\"z\"}\n"
            + "{\"id\":1,\"a\":\"a, \\\"b\\\"\",\"b\":null,\"c\":\"\"}\n",
        StandardCharsets.UTF_8);
    Object[] dropped = {1L, "a, \"b\"", null, ""};
    Path again = tmp.resolve("again.jsonl");
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(ddl);
      LoadOptions o =
          LoadOptions.of("t", LoadInput.jsonLines(jsonl, JsonLinesOptions.defaults()))
              .withRejectFile(tmp.resolve("rejects.txt"));
      LoadReport r = new Loader(db, o, new TestIndexBuild()).run(LoadListener.NONE);
      assertThat(r.rejected()).isEqualTo(1);
      String reject = LoadTesting.rejectLines(tmp.resolve("rejects.txt")).get(0);
      assertThat(reject).startsWith(jsonl + ":2: duplicate key (id=1)");
      Files.writeString(
          again, reject.substring(reject.indexOf(" | ") + 3) + "\n", StandardCharsets.UTF_8);
    }
    try (Database db = Database.create(tmp.resolve("empty"))) {
      db.execute(ddl);
      LoadOptions o =
          LoadOptions.of("t", LoadInput.jsonLines(again, JsonLinesOptions.defaults()))
              .withRejectFile(tmp.resolve("rejects-again.txt"));
      LoadReport r = new Loader(db, o, new TestIndexBuild()).run(LoadListener.NONE);
      assertThat(r.rejected()).as("rejects of the reload").isZero();
      assertThat(LoadTesting.rows(db.table("t")))
          .singleElement()
          .satisfies(row -> assertThat(row.values()).containsExactly(dropped));
    }
  }

  @Test
  void duplicatesCountAgainstMaxErrors() throws IOException {
    Path csv = input();
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      LoadReport r =
          new Loader(db, options(csv, IndexMode.DEFERRED).withMaxErrors(0), new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(r.outcome()).isEqualTo(LoadOutcome.TOO_MANY_ERRORS);
      assertThat(r.rejected()).isEqualTo(1);
      assertThat(r.indexes()).containsOnlyKeys("t_pk", "t_name");
      assertThat(r.indexes().values()).containsOnly(IndexStatus.ACTIVE);
      assertThat(String.join("\n", r.summaryLines())).contains("more than --max-errors 0");
      assertThat(db.table("t").rowCount()).isEqualTo(500);
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
          .containsExactly(csv + REJECT_LINE);
      assertThat(db.index("t_pk").get(250L)).hasSize(1);
      assertThat(db.index("t_pk").get(250L).get(0).values()).containsExactly(250L, "row250");
      assertThat(db.table("t").rowCount()).isEqualTo(500);
      assertThat(db.check().problems()).isEmpty();
    }
  }
}
