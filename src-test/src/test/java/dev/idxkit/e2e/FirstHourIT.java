package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user hit in their first hour (issue 15), each as the packaged CLI runs it: bad paths
 * refused before any work, duplicate keys as rejected rows by input line, a stopped load that keeps
 * its indexes active, an exit code for rejected rows, and the text fixes. The tour itself is {@link
 * ReadmeTourIT}; the error-text sweep over random command lines is {@link CliFuzzIT}.
 */
class FirstHourIT {
  static final String DDL =
      "CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(20));\n"
          + "CREATE INDEX t_name ON t (name);\n";

  @TempDir Path cwd;

  @BeforeEach
  void database() throws Exception {
    Files.writeString(cwd.resolve("schema.sql"), DDL);
    Cli.Result r = Cli.run(cwd, "create", "t.db", "--ddl", "schema.sql");
    assertThat(r.exit()).as(r.toString()).isZero();
    Files.createDirectories(cwd.resolve("sort1"));
  }

  /** Point 2: a report path that is a directory is refused before the rebuild, not after it. */
  @Test
  void idxbuildRefusesABadJsonPathBeforeAnyWork() throws Exception {
    Files.writeString(cwd.resolve("t.csv"), "id,name\n1,a\n2,b\n");
    Cli.Result load =
        Cli.run(cwd, "load", "t.db", "--table", "t", "--csv", "t.csv", "--index-build", "none");
    assertThat(load.exit()).as(load.toString()).isZero();
    Cli.Result r = Cli.run(cwd, "idxbuild", "t.db", "--json", "sort1");
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly("idxkit: --json sort1 : is a directory (expected: a file name)");
    assertThat(r.out()).doesNotContain("rebuilt");
    // Nothing was rebuilt: the indexes the load left inactive are still inactive.
    Cli.Result info = Cli.run(cwd, "info", "t.db");
    assertThat(info.out())
        .containsPattern("t_pk .* inactive")
        .containsPattern("t_name .* inactive");
    Cli.Result missing = Cli.run(cwd, "idxbuild", "t.db", "--json", "nodir/r.json");
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("directory nodir does not exist");
  }

  /** Point 3: a directory as the CSV is bad input, in plain words. */
  @Test
  void loadRefusesADirectoryAsItsInput() throws Exception {
    Cli.Result r = Cli.run(cwd, "load", "t.db", "--table", "t", "--csv", "sort1");
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly("idxkit: --csv sort1 : is a directory (expected: a file)");
    Cli.Result reject =
        Cli.run(cwd, "load", "t.db", "--table", "t", "--csv", "schema.sql", "--reject", "sort1");
    assertThat(reject.exit()).isEqualTo(2);
    assertThat(reject.err()).contains("--reject sort1 : is a directory");
  }

  /** Points 4 and 6: a duplicate key is a rejected row by line; --strict exits 3. */
  @Test
  void aDuplicateKeyIsARejectedRowAndTheIndexesEndActive() throws Exception {
    StringBuilder csv = new StringBuilder("id,name\n");
    for (int i = 1; i <= 6; i++) {
      csv.append(i).append(",row").append(i).append('\n');
    }
    csv.append("1,again\n"); // line 8 repeats line 2's key
    Files.writeString(cwd.resolve("t.csv"), csv);
    Cli.Result r =
        Cli.run(
            cwd, "load", "t.db", "--table", "t", "--csv", "t.csv", "--reject", "t.rej", "--strict");
    assertThat(r.exit()).as(r.toString()).isEqualTo(3);
    assertThat(r.out()).contains("rows: 7 read, 6 loaded, 1 rejected");
    assertThat(Files.readAllLines(cwd.resolve("t.rej")))
        .contains(
            "t.csv:8: duplicate key (id=1) in unique index t_pk; the row kept is line 2"
                + " | 1,again");
    Cli.Result info = Cli.run(cwd, "info", "t.db");
    assertThat(info.out()).containsPattern("t_pk .* active").containsPattern("t_name .* active");
    Cli.Result get = Cli.run(cwd, "get", "t.db", "--index", "t_pk", "1", "--format", "csv");
    assertThat(get.exit()).as(get.toString()).isZero();
    assertThat(get.outLines()).containsExactly("id,name", "1,row1");
    Cli.Result help = Cli.run(cwd, "load", "--help");
    assertThat(help.out()).contains("--strict").contains("with --strict: the load completed");
  }

  /** Point 5: --max-errors stopping a load into a table with active indexes leaves them active. */
  @Test
  void aMaxErrorsStopKeepsTheIndexesActive() throws Exception {
    Files.writeString(cwd.resolve("first.csv"), "id,name\n1,one\n2,two\n");
    assertThat(Cli.run(cwd, "load", "t.db", "--table", "t", "--csv", "first.csv").exit()).isZero();
    Files.writeString(cwd.resolve("bad.csv"), "id,name\n3,three\nx,bad\n4,four\n");
    Cli.Result r =
        Cli.run(
            cwd,
            "load",
            "t.db",
            "--table",
            "t",
            "--csv",
            "bad.csv",
            "--max-errors",
            "0",
            "--checkpoint-rows",
            "1");
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.out()).contains("more than --max-errors 0").contains("are indexed");
    // The outcome on standard error as well: a report sent to a file must not hide the failure.
    assertThat(r.errLines())
        .as(r.toString())
        .anySatisfy(
            l ->
                assertThat(l)
                    .startsWith("idxkit: load bad.csv into t (index build: ")
                    .endsWith("): too many errors"));
    Cli.Result get = Cli.run(cwd, "get", "t.db", "--index", "t_pk", "2", "--format", "csv");
    assertThat(get.exit()).as(get.toString()).isZero();
    assertThat(get.outLines()).containsExactly("id,name", "2,two");
    Cli.Result info = Cli.run(cwd, "info", "t.db");
    assertThat(info.out()).containsPattern("t_pk .* active").doesNotContain("inactive");
    assertThat(Cli.run(cwd, "check", "t.db").exit()).isZero();
  }

  /** Point 7: the text fixes. */
  @Test
  void textIsRight() throws Exception {
    Cli.Result help = Cli.run(cwd, "analyze", "--help");
    assertThat(help.exit()).isZero();
    assertThat(help.out() + help.err()).doesNotContain("WARN").contains("leaf fill %,");
    Cli.Result tm = Cli.run(cwd, "idxbuild", "t.db", "-TM", "1");
    assertThat(tm.exit()).isEqualTo(2);
    assertThat(tm.errLines()).containsExactly("idxkit: -TM : 1 (expected: 2..1024)");
    Cli.Result check = Cli.run(cwd, "check", "t.db", "--progress", "plain");
    assertThat(check.err()).doesNotContain("0 pages in");
  }
}
