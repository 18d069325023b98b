package dev.idxkit.loader;

import static dev.idxkit.loader.LoadTesting.assertClean;
import static dev.idxkit.loader.LoadTesting.rows;
import static dev.idxkit.loader.LoadTesting.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.Row;
import dev.idxkit.core.Table;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.CsvSource;
import dev.idxkit.loader.input.InputRecord;
import dev.idxkit.loader.input.InputRow;
import dev.idxkit.loader.input.JsonLinesOptions;
import dev.idxkit.loader.input.JsonLinesSource;
import dev.idxkit.loader.input.RejectedRow;
import dev.idxkit.loader.input.RowReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CSV corpora of the input tests, loaded into tables: the awkward but valid files load exactly
 * (every row equal to what the source parses, in order, in all three index modes), and the broken
 * file is rejected row by row, each reject in the reject file with its line number and reason,
 * while its good rows load; the JSON Lines corpora likewise.
 */
class CorpusLoadTest {
  static final String AWKWARD_DDL =
      "CREATE TABLE awkward (id BIGINT NOT NULL, name VARCHAR(20), note TEXT, price DECIMAL(10,2),"
          + " day DATE, flag BOOLEAN, ratio DOUBLE, \"at\" TIMESTAMP, small SMALLINT,"
          + " raw VARBINARY(4), qty INT, PRIMARY KEY (id));"
          + "CREATE INDEX awkward_name ON awkward (name, day);";

  static final String BROKEN_DDL =
      "CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(5), price DECIMAL(6,2), day DATE,"
          + " PRIMARY KEY (id));";

  @TempDir Path tmp;

  static Path resource(String name) {
    try {
      return Path.of(CorpusLoadTest.class.getResource("/input/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void awkwardCorporaLoadExactlyInEveryMode() {
    load("awkward-comma.csv", CsvOptions.defaults(), IndexMode.DEFERRED, 6);
    load(
        "awkward-pipe.csv",
        CsvOptions.defaults().withHeader(false).withDelimiter('|'),
        IndexMode.LIVE,
        3);
    load(
        "awkward-semicolon.csv",
        CsvOptions.defaults().withDelimiter(';').withNullMarker("\\N"),
        IndexMode.NONE,
        -1);
  }

  private void load(String file, CsvOptions csv, IndexMode mode, int expectedRows) {
    Path dir = tmp.resolve(file);
    try (Database db = Database.create(dir)) {
      db.execute(AWKWARD_DDL);
      TableDef def = db.table("awkward").def();
      List<Object[]> expected = new ArrayList<>();
      try (CsvSource source = CsvSource.open(resource(file), def, csv)) {
        new RowReader(source).forEachRemaining(r -> expected.add(((InputRow) r).values()));
      }
      if (expectedRows >= 0) {
        assertThat(expected).hasSize(expectedRows);
      }
      TestIndexBuild build = new TestIndexBuild();
      LoadReport report =
          new Loader(
                  db,
                  LoadOptions.of("awkward", LoadInput.csv(resource(file), csv))
                      .withIndexMode(mode)
                      .withCheckpointRows(2)
                      .withParseThreads(2),
                  build)
              .run(LoadListener.NONE);
      assertThat(report.outcome()).as(file).isEqualTo(LoadOutcome.COMPLETED);
      assertThat(report.rejected()).as(file).isZero();
      assertThat(report.rowsLoaded()).isEqualTo(expected.size());
      List<Row> loaded = rows(db.table("awkward"));
      assertThat(loaded.stream().map(r -> text(r.values())).toList())
          .as(file)
          .containsExactlyElementsOf(expected.stream().map(LoadTesting::text).toList());
      IndexStatus status = mode == IndexMode.NONE ? IndexStatus.INACTIVE : IndexStatus.ACTIVE;
      assertThat(report.indexes()).containsEntry("awkward_name", status);
      assertThat(build.calls).isEqualTo(mode == IndexMode.DEFERRED ? 1 : 0);
      if (mode == IndexMode.NONE) {
        assertThat(String.join("\n", report.summaryLines()))
            .contains("inactive indexes", "idxkit idxbuild " + dir, "--inactive");
      } else {
        // The index finds every row by its key, NULL names included.
        assertThat(LoadTesting.rows(db.index("awkward_name"))).hasSize(expected.size());
      }
      assertThat(Loader.unfinishedLoad(db, "awkward")).isEmpty();
      assertClean(db, file);
    }
  }

  @Test
  void commaCorpusKeepsNullEmptyAndMultiLineValuesApart() {
    Path dir = tmp.resolve("db");
    try (Database db = Database.create(dir)) {
      db.execute(AWKWARD_DDL);
      new Loader(
              db,
              LoadOptions.of(
                  "awkward", LoadInput.csv(resource("awkward-comma.csv"), CsvOptions.defaults())),
              new TestIndexBuild())
          .run(LoadListener.NONE);
      Table t = db.table("awkward");
      Row three = db.index("awkward_pk").get(3L).get(0);
      assertThat(three.values()[1]).isNull(); // empty unquoted: NULL
      assertThat(three.values()[2]).isEqualTo(""); // "": the empty string
      Row two = db.index("awkward_pk").get(2L).get(0);
      assertThat(two.values()[2]).isEqualTo("line one\r\nline two");
      Row five = db.index("awkward_pk").get(5L).get(0);
      assertThat(five.values()[1]).isEqualTo("日本語");
      assertThat(five.values()[2]).isEqualTo("emoji 😀 and 𝄞");
      assertThat(t.rowCount()).isEqualTo(6);
    }
  }

  /** The broken corpus: line, column or whole-record problem, as the reject file must say. */
  static final List<String> BROKEN_REJECT_LINES =
      List.of(
          ":3: column name: \"toolongname\" is 11 characters, longer than VARCHAR(5) | toolongname",
          ":4: column price:",
          ":5: column price:",
          ":6: column day:",
          ":7: expected 4 fields, found 3 | 6,ok,1.00",
          ":8: expected 4 fields, found 5 | 7,ok,1.00,2024-01-01,extra",
          ":9: column name:",
          ":11: column name:",
          ":13: column name: not valid UTF-8: byte 0xc3 at file offset 276 | caf\\xc3(",
          ":14: column id: NULL in a NOT NULL column",
          ":16: column name:",
          ":17: column name:",
          ":18: column name:",
          ":20: column day:",
          ":22: column name:");

  @Test
  void brokenCorpusGoesRowByRowToTheRejectFile() throws Exception {
    Path file = resource("broken.csv");
    Path rejects = tmp.resolve("rejects.txt");
    for (IndexMode mode : IndexMode.values()) {
      try (Database db = Database.create(tmp.resolve("db-" + mode))) {
        db.execute(BROKEN_DDL);
        LoadReport report =
            new Loader(
                    db,
                    LoadOptions.of(
                            "t", LoadInput.csv(file, CsvOptions.defaults().withChunkBytes(64)))
                        .withIndexMode(mode)
                        .withRejectFile(rejects)
                        .withCheckpointRows(4),
                    new TestIndexBuild())
                .run(LoadListener.NONE);
        assertThat(report.outcome()).isEqualTo(LoadOutcome.COMPLETED);
        assertThat(report.rejected()).isEqualTo(BROKEN_REJECT_LINES.size());
        assertThat(report.recordsRead()).isEqualTo(BROKEN_REJECT_LINES.size() + 6);
        assertThat(rows(db.table("t")).stream().map(r -> r.values()[0]).toList())
            .containsExactly(1L, 9L, 11L, 13L, 17L, 19L);
        List<String> lines = Files.readAllLines(rejects, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).startsWith("# idxkit load: rejected rows of " + file);
        List<String> body = lines.subList(1, lines.size());
        assertThat(body).hasSize(BROKEN_REJECT_LINES.size());
        for (int i = 0; i < body.size(); i++) {
          assertThat(body.get(i)).startsWith(file + BROKEN_REJECT_LINES.get(i));
        }
        // One reject, one line: the unclosed quote's raw record shows its line break escaped.
        assertThat(body).noneMatch(l -> l.isEmpty());
        assertThat(report.firstRejects()).hasSize(LoadReport.MAX_SHOWN_REJECTS);
        assertThat(report.firstRejects().get(0).line()).isEqualTo(3);
        assertClean(db, "broken corpus, " + mode);
      }
    }
  }

  @Test
  void jsonLinesCorporaLoadTheirRowsAndRejectTheRest() throws Exception {
    for (String name : List.of("good.jsonl", "broken.jsonl")) {
      Path file = resource(name);
      Path rejects = tmp.resolve(name + ".rejects");
      try (Database db = Database.create(tmp.resolve("db-" + name))) {
        db.execute(
            "CREATE TABLE j (id BIGINT NOT NULL, name VARCHAR(5), price DECIMAL(6,2), day DATE,"
                + " flag BOOLEAN, ratio DOUBLE);"
                + "CREATE INDEX j_id ON j (id);");
        List<String> expectedRows = new ArrayList<>();
        List<Long> expectedRejectLines = new ArrayList<>();
        try (JsonLinesSource source =
            JsonLinesSource.open(file, db.table("j").def(), JsonLinesOptions.defaults())) {
          for (RowReader rr = new RowReader(source); rr.hasNext(); ) {
            InputRecord x = rr.next();
            if (x instanceof InputRow row) {
              expectedRows.add(text(row.values()));
            } else {
              expectedRejectLines.add(((RejectedRow) x).line());
            }
          }
        }
        LoadReport report =
            new Loader(
                    db,
                    LoadOptions.of("j", LoadInput.jsonLines(file, JsonLinesOptions.defaults()))
                        .withRejectFile(rejects)
                        .withCheckpointRows(3),
                    new TestIndexBuild())
                .run(LoadListener.NONE);
        assertThat(report.outcome()).as(name).isEqualTo(LoadOutcome.COMPLETED);
        assertThat(rows(db.table("j")).stream().map(r -> text(r.values())).toList())
            .as(name)
            .containsExactlyElementsOf(expectedRows);
        if (name.startsWith("broken")) {
          assertThat(expectedRejectLines).hasSizeGreaterThan(3);
        }
        assertThat(LoadTesting.rejectLineNumbers(rejects, file))
            .as(name)
            .containsExactlyElementsOf(expectedRejectLines);
        assertThat(report.rejected()).isEqualTo(expectedRejectLines.size());
        assertClean(db, name);
      }
    }
  }
}
