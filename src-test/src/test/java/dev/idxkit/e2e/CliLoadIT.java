package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code idxkit load} and {@code idxkit demo} as a new user runs them: the demo from a clean
 * directory, a CSV load with rejects, a dump-and-reload round trip, resume rules, and bad input.
 */
class CliLoadIT {
  @Test
  void demoRunsFromACleanDirectoryAndAgain(@TempDir Path cwd) throws Exception {
    Cli.Result r = Cli.run(cwd, "demo", "--sf", "0.01", "--progress", "none");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("1. create the TPC-H schema")
        .contains("load tpch lineitem sf=0.01 into lineitem (index build: deferred): completed")
        .contains("rebuilt 15 indexes")
        .contains("pages verified: ok")
        .contains("lineitem_pk point lookup")
        .contains("done in");
    assertThat(cwd.resolve("idxkit-demo/db/meta")).exists();
    // A second run replaces the demo's own directory.
    Cli.Result again = Cli.run(cwd, "demo", "--sf", "0.01", "--progress", "none");
    assertThat(again.exit()).as(again.toString()).isZero();
    // Anything else is refused.
    Files.createDirectories(cwd.resolve("precious"));
    Cli.Result refused = Cli.run(cwd, "demo", "--dir", "precious");
    assertThat(refused.exit()).as(refused.toString()).isEqualTo(2);
    assertThat(refused.err()).contains("precious").contains("not a demo directory");
  }

  @Test
  void csvLoadWithRejectsThenDumpAndReload(@TempDir Path cwd) throws Exception {
    Path ddl =
        Files.writeString(
            cwd.resolve("schema.sql"),
            "CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(20), price DECIMAL(8,2));\n"
                + "CREATE INDEX t_name ON t (name);\n");
    assertThat(Cli.run(cwd, "create", "a.db", "--ddl", ddl.toString()).exit()).isZero();
    assertThat(Cli.run(cwd, "create", "b.db", "--ddl", ddl.toString()).exit()).isZero();
    Path csv =
        Files.writeString(
            cwd.resolve("t.csv"),
            "id,name,price\n"
                + "1,anvil,99.95\n"
                + "2,\"rope, 10 m\",4.20\n"
                + "3,,1.00\n"
                + "x,bad id,1.00\n"
                + "4,\"\",2.50\n"
                + "5,too expensive,1234567.89\n"
                + "6,\"multi\nline\",0.01\n");
    Path rejects = cwd.resolve("rejects.txt");
    Cli.Result load =
        Cli.run(
            cwd,
            "load",
            "a.db",
            "--table",
            "t",
            "--csv",
            csv.toString(),
            "--reject",
            rejects.toString(),
            "--progress",
            "none");
    assertThat(load.exit()).as(load.toString()).isZero();
    assertThat(load.out()).contains("5 loaded").contains("2 rejected");
    String rejected = Files.readString(rejects);
    assertThat(rejected).contains(":5:").contains(":7:");

    Path dump = cwd.resolve("dump.csv");
    Cli.Result d = Cli.run(cwd, "dump", "a.db", "--table", "t", "--csv", dump.toString());
    assertThat(d.exit()).as(d.toString()).isZero();
    Cli.Result reload =
        Cli.run(
            cwd, "load", "b.db", "--table", "t", "--csv", dump.toString(), "--progress", "none");
    assertThat(reload.exit()).as(reload.toString()).isZero();
    Cli.Result a = Cli.run(cwd, "scan", "a.db", "--index", "t_pk", "--format", "csv");
    Cli.Result b = Cli.run(cwd, "scan", "b.db", "--index", "t_pk", "--format", "csv");
    assertThat(b.out()).isEqualTo(a.out()).contains("\"rope, 10 m\"").contains("\"\"");
    assertThat(Cli.run(cwd, "check", "b.db").exit()).isZero();
  }

  @Test
  void resumeRulesAndBadInputExitTwo(@TempDir Path cwd) throws Exception {
    assertThat(Cli.run(cwd, "create", "s.db", "--tpch").exit()).isZero();
    // The input exists, so the refusal is for the table (a missing input is refused first).
    Files.writeString(cwd.resolve("x.csv"), "o_orderkey\n1\n");
    String[][] cases = {
      {"load", "s.db", "--table", "orders", "--resume", "--tpch", "orders", "--sf", "0.01"},
      {"load", "s.db", "--table", "nope", "--csv", "x.csv"},
      {"load", "s.db", "--table", "orders", "--csv", "missing.csv"},
      {"load", "s.db", "--tpch", "lineitem", "--sf", "-1"},
      {"load", "s.db", "--tpch", "lineitems"},
      {"load", "s.db", "--table", "orders", "--tpch", "orders", "--index-build", "sometimes"},
      {"load", "s.db", "--table", "orders"},
    };
    String[] expected = {
      "resume", "nope", "missing.csv", "scaleFactor", "lineitems", "sometimes", "--csv"
    };
    for (int i = 0; i < cases.length; i++) {
      Cli.Result r = Cli.run(cwd, cases[i]);
      assertThat(r.exit()).as(r.toString()).isEqualTo(2);
      assertThat(r.errLines()).as(r.toString()).hasSize(1);
      assertThat(r.err()).as(r.toString()).contains(expected[i]).doesNotContain("at dev.");
    }
  }
}
