package dev.idxkit.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idxkit.cli.CliHarness;
import dev.idxkit.cli.CliHarness.Result;
import dev.idxkit.core.Database;
import dev.idxkit.core.spi.Engine;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command run in-process on {@link ItemDb}: what it prints for good input, and the exit code
 * and single error line for bad input.
 */
class CommandsTest {
  @TempDir Path tmp;
  Path db;
  final CliHarness cli = new CliHarness();
  final ObjectMapper json = new ObjectMapper();

  @BeforeEach
  void createAndFill() throws IOException {
    Path ddl = tmp.resolve("item.sql");
    Files.writeString(ddl, ItemDb.DDL);
    db = tmp.resolve("item.db");
    Result r = cli.run("create", db.toString(), "--ddl", ddl.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("created database " + db + ": 1 table, 3 indexes");
    ItemDb.fill(db);
  }

  @Test
  void getPrintsTheRowsOfAKeyPrefixInEveryForm() {
    Result positional = cli.run("get", db.toString(), "--index", "item_code_name", "7", "item 17");
    Result named =
        cli.run("get", db.toString(), "--index", "item_code_name", "--key", "name=item 17,code=7");
    assertThat(positional.exit()).as(positional.toString()).isZero();
    assertThat(named.out()).isEqualTo(positional.out());
    assertThat(positional.outLines())
        .hasSize(4)
        .satisfies(l -> assertThat(l.get(0)).startsWith("id").contains("price"))
        .satisfies(l -> assertThat(l.get(2)).contains("17", "item 17", "21.25", "2000-01-18"))
        .satisfies(l -> assertThat(l.get(3)).isEqualTo("(1 row)"));

    Result prefix = cli.run("get", db.toString(), "--index", "item_code_name", "7", "--limit", "0");
    assertThat(prefix.outLines()).hasSize(2 + ItemDb.ROWS / 10 + 1).last().isEqualTo("(30 rows)");

    Result nulls = cli.run("get", db.toString(), "--index", "item_code_name", "--key", "1,NULL");
    assertThat(nulls.outLines()).hasSize(4);
    assertThat(nulls.outLines().get(2)).matches("\\s*1\\s+1\\s+NULL\\s.*");
  }

  @Test
  void scanHonoursBoundsOrderLimitAndColumns() {
    Result csv =
        cli.run(
            "scan",
            db.toString(),
            "--index",
            "item_pk",
            "--from",
            "10",
            "--to",
            "id=14",
            "--format",
            "csv",
            "--columns",
            "id,name");
    assertThat(csv.exit()).as(csv.toString()).isZero();
    assertThat(csv.out())
        .isEqualTo(
            "id,name\r\n10,item 10\r\n11,item 11\r\n12,item 12\r\n13,item 13\r\n14,item 14\r\n");
    assertThat(csv.err()).isEmpty();

    Result reverse =
        cli.run(
            "scan",
            db.toString(),
            "--index",
            "item_pk",
            "--reverse",
            "--limit",
            "2",
            "--format",
            "csv",
            "--columns",
            "id");
    assertThat(reverse.out()).isEqualTo("id\r\n300\r\n299\r\n");
    assertThat(reverse.errLines())
        .containsExactly("idxkit: stopped after 2 rows; more match, --limit 0 prints all");

    Result byDesc =
        cli.run(
            "scan",
            db.toString(),
            "--index",
            "item_born",
            "--to",
            "2000-01-03",
            "--format",
            "csv",
            "--columns",
            "id,born",
            "--limit",
            "0");
    // DESC index: dates from the latest down to 2000-01-03 (id 2).
    assertThat(byDesc.outLines()).hasSize(1 + ItemDb.ROWS - 1);
    assertThat(byDesc.outLines().get(1)).isEqualTo("300,2000-10-27");
    assertThat(byDesc.outLines()).last().isEqualTo("2,2000-01-03");

    Result table = cli.run("scan", db.toString(), "--index", "item_pk");
    assertThat(table.outLines()).hasSize(2 + 100 + 1); // the line break in row 3 is shown as \n
    assertThat(table.outLines().get(4)).contains("comma, \"quote\"\\nand a line");
    assertThat(table.outLines()).last().isEqualTo("(100 rows; more match, --limit 0 prints all)");
  }

  @Test
  void jsonLinesKeepTypes() throws IOException {
    Result r = cli.run("scan", db.toString(), "--index", "item_pk", "--to", "5", "--json");
    assertThat(r.exit()).as(r.toString()).isZero();
    List<JsonNode> rows = new ArrayList<>();
    for (String line : r.outLines()) {
      rows.add(json.readTree(line));
    }
    assertThat(rows).hasSize(5);
    JsonNode first = rows.get(0);
    assertThat(first.get("id").isIntegralNumber()).isTrue();
    assertThat(first.get("name").isNull()).isTrue();
    assertThat(first.get("price").isNumber()).isTrue();
    assertThat(first.get("price").decimalValue()).isEqualByComparingTo("1.25");
    assertThat(first.get("ok").isBoolean()).isTrue();
    assertThat(first.get("born").asText()).isEqualTo("2000-01-02");
    assertThat(first.get("seen").asText()).isEqualTo("2020-02-29 13:05:01");
    assertThat(first.get("bin").asText()).isEqualTo("\\x010a");
    assertThat(rows.get(1).get("name").asText()).isEmpty();
    assertThat(rows.get(2).get("name").asText()).isEqualTo(ItemDb.name(3));
    assertThat(rows.get(3).get("price").isNull()).isTrue();
    assertThat(rows.get(4).get("ratio").asText()).isEqualTo("NaN");
  }

  @Test
  void dumpWritesNullAsEmptyFieldAndEmptyStringQuoted() throws IOException {
    Path out = tmp.resolve("items.csv");
    Result r = cli.run("dump", db.toString(), "--table", "ITEM", "--csv", out.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).isEqualTo("dumped 300 rows of item to " + out + "\n");
    String text = Files.readString(out, StandardCharsets.UTF_8);
    String[] lines = text.split("\r\n", -1);
    assertThat(lines[0]).isEqualTo("id,code,name,price,ratio,born,seen,ok,bin");
    assertThat(lines[1]).isEqualTo("1,1,,1.25,0.25,2000-01-02,2020-02-29 13:05:01,false,\\x010a");
    assertThat(lines[2]).startsWith("2,2,\"\",2.50,");
    // The line break inside a quoted field stays a bare LF; records end with CRLF.
    assertThat(lines[3]).startsWith("3,3,\"comma, \"\"quote\"\"\nand a line\",");
    assertThat(lines[4]).startsWith("4,4,item 4,,1.0,");
    assertThat(lines[5]).contains(",NaN,");
    assertThat(lines).hasSize(1 + ItemDb.ROWS + 1); // header, rows, and "" after the last CRLF

    Result again = cli.run("dump", db.toString(), "--table", "item", "--csv", out.toString());
    assertThat(again.exit()).isEqualTo(2);
    assertThat(again.errLines()).singleElement().asString().contains("exists", "--force");
    Result forced =
        cli.run("dump", db.toString(), "--table", "item", "--csv", out.toString(), "--force");
    assertThat(forced.exit()).isZero();
    assertThat(Files.readString(out, StandardCharsets.UTF_8)).isEqualTo(text);
    assertThat(leftovers()).isEmpty();

    Result stdout = cli.run("dump", db.toString(), "--table", "item", "--csv", "-");
    assertThat(stdout.out()).isEqualTo(text);
    assertThat(stdout.errLines()).containsExactly("dumped 300 rows of item to standard output");
  }

  @Test
  void infoShowsTablesIndexesAndStates() throws IOException {
    Result text = cli.run("info", db.toString());
    assertThat(text.exit()).as(text.toString()).isZero();
    assertThat(text.out())
        .contains("page size   8192 bytes", "item_code_name", "code, name", "born DESC")
        .contains("CREATE TABLE item (");
    assertThat(text.outLines()).anyMatch(l -> l.matches("\\s+item\\s+300\\s+\\d+\\s+data"));
    String dir = db.toAbsolutePath().normalize().toString();
    assertThat(text.outLines())
        .startsWith("database    " + dir, "page size   8192 bytes")
        .anyMatch(l -> l.matches("checkpoint  generation \\d+ \\(LSN \\d+\\)"))
        .anyMatch(
            l -> l.matches("log         .+, \\d+ committed transactions? not yet checkpointed"));

    Result js = cli.run("info", db.toString(), "--json");
    JsonNode o = json.readTree(js.out());
    assertThat(o.get("pageSize").asInt()).isEqualTo(8192);
    assertThat(o.get("database").asText()).isEqualTo(dir);
    assertThat(text.out()).contains("checkpoint  generation " + o.get("generation").asLong() + " ");
    assertThat(o.get("wal").get("transactionsNotCheckpointed").isIntegralNumber()).isTrue();
    assertThat(o.get("bufferedChanges").isIntegralNumber()).isTrue();
    assertThat(o.get("ddl").asText()).startsWith("CREATE TABLE item (");
    assertThat(o.get("tables").get(0).get("rows").asLong()).isEqualTo(ItemDb.ROWS);
    assertThat(o.get("indexes")).hasSize(3).allMatch(i -> i.get("state").asText().equals("active"));
    assertThat(o.get("areas"))
        .extracting(a -> a.get("name").asText())
        .containsExactly("data", "index");
  }

  @Test
  void checkSaysOkThenListsDamageAndExitsOne() throws IOException {
    Result ok = cli.run("check", db.toString());
    assertThat(ok.exit()).as(ok.toString()).isZero();
    assertThat(ok.outLines()).hasSize(2);
    assertThat(ok.outLines().get(0))
        .matches(
            Pattern.quote("checked " + db + ": 1 table (300 rows), 3 indexes (900 entries), ")
                + "\\d+ pages verified");
    assertThat(ok.outLines().get(1)).isEqualTo("ok");
    Result some = cli.run("check", db.toString(), "--index", "item_born", "--json");
    JsonNode o = json.readTree(some.out());
    assertThat(o.get("ok").asBoolean()).isTrue();
    assertThat(o.get("indexes").fieldNames()).toIterable().containsExactly("item_born");

    flipByteOfFirstHeapPage();
    Result bad = cli.run("check", db.toString());
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.out()).contains("problem").doesNotContain("\nok\n");
    assertThat(bad.outLines().get(2)).contains("checksum");
    assertThat(bad.errLines()).singleElement().asString().startsWith("idxkit: check found ");
  }

  @Test
  void analyzeReportsEveryIndexAndTable() throws IOException {
    Result text = cli.run("analyze", db.toString());
    assertThat(text.exit()).as(text.toString()).isZero();
    assertThat(text.out()).contains("areas", "tables", "indexes", "item_code_name");
    Result js = cli.run("analyze", db.toString(), "--json", "--table", "item");
    JsonNode o = json.readTree(js.out());
    assertThat(o.get("tables").get(0).get("rows").asLong()).isEqualTo(ItemDb.ROWS);
    assertThat(o.get("indexes")).hasSize(3).allMatch(i -> i.get("entries").asLong() == ItemDb.ROWS);

    flipByteOfFirstHeapPage();
    Result damaged = cli.run("analyze", db.toString(), "--table", "item");
    assertThat(damaged.exit()).isEqualTo(1);
    assertThat(damaged.errLines())
        .singleElement()
        .asString()
        .contains("table item: 1 unreadable heap pages", "idxkit check");
  }

  @Test
  void badInputIsOneLineAndExitTwo() throws IOException {
    String d = db.toString();
    expectBadInput(cli.run("get", d, "--index", "item_pk", "x1"), "column id BIGINT");
    expectBadInput(cli.run("get", d, "--index", "nope", "1"), "no index nope", "item_pk");
    expectBadInput(cli.run("get", d, "--index", "item_pk"), "KEY : no values");
    expectBadInput(cli.run("get", d, "--index", "item_pk", "--key", "1", "2"), "one of them");
    expectBadInput(
        cli.run("scan", d, "--index", "item_code_name", "--from", "name=a"),
        "name given without code");
    expectBadInput(cli.run("scan", d, "--index", "item_pk", "--limit", "-1"), "--limit : -1");
    expectBadInput(
        cli.run("scan", d, "--index", "item_pk", "--colums", "id"),
        "Unknown option",
        "did you mean --columns?");
    expectBadInput(cli.run("dump", d, "--table", "nope", "--csv", "-"), "no table nope");
    if (Files.isDirectory(
        Path.of("/proc/self"))) { // a directory that takes no new file, even root's
      expectBadInput(
          cli.run("dump", d, "--table", "item", "--csv", "/proc/out.txt"),
          "--csv /proc/out.txt : cannot create files in /proc (");
      expectBadInput(
          cli.run("create", "/proc/newdb", "--tpch"),
          "DB /proc/newdb : cannot create files in /proc (");
    }
    expectBadInput(cli.run("check", d, "--table", "nope"), "no table nope");
    expectBadInput(cli.run("analyze", d, "--index", "nope"), "no index nope");
    expectBadInput(
        cli.run("idxbuild", d, "--table", "item,nope", "--plan"),
        "--table : no table nope in " + d + " (tables: item)");
    expectBadInput(
        cli.run("idxbuild", d, "--index", "nope", "--plan"),
        "--index : no index nope in " + d + " (indexes: ",
        "item_pk");
    expectBadInput(
        cli.run("idxbuild", d, "--area", "fast", "--plan"),
        "--area : no area fast in " + d + " (areas: data, index)");
    expectBadInput(cli.run("info", tmp.resolve("missing.db").toString()), "no database at");
    expectBadInput(cli.run("info"), "Missing required parameter: 'DB'");
    expectBadInput(cli.run("frobnicate"), "Unmatched argument");
    expectBadInput(cli.run(), "no command given");

    Path bad = tmp.resolve("bad.sql");
    Files.writeString(bad, "CREATE TABLE t (\n  id BIGINT NOT NULL,\n  x NUMBERZ);\n");
    Path fresh = tmp.resolve("fresh.db");
    expectBadInput(cli.run("create", fresh.toString(), "--ddl", bad.toString()), bad + ":3:");
    assertThat(fresh).doesNotExist();
    expectBadInput(
        cli.run("create", fresh.toString(), "--tpch", "--page-size", "5000"), "--page-size : 5000");
    expectBadInput(cli.run("create", d, "--tpch"), "not empty");
    expectBadInput(cli.run("create", fresh.toString(), "--ddl", "no-such.sql"), "no such file");
    expectBadInput(cli.run("create", fresh.toString()), "Missing required argument");
    expectBadInput(
        cli.run("create", fresh.toString(), "--tpch", "--ddl", bad.toString()),
        "mutually exclusive");
    assertThat(fresh).doesNotExist();
  }

  @Test
  void idxbuildSaysInHowManyKeyRangesOneBigIndexWasBuilt() throws IOException {
    // One index over 120,000 rows: above the rebuilder's threshold for merging a group that holds
    // most of the keys on several threads (100,000 entries).
    Path ddl = tmp.resolve("big.sql");
    Files.writeString(ddl, "CREATE TABLE big (id BIGINT NOT NULL, PRIMARY KEY (id));");
    Path big = tmp.resolve("big.db");
    assertThat(cli.run("create", big.toString(), "--ddl", ddl.toString()).exit()).isZero();
    StringBuilder csv = new StringBuilder("id\n");
    for (int i = 0; i < 120_000; i++) {
      csv.append(i * 7L).append('\n');
    }
    Path rows = tmp.resolve("big.csv");
    Files.writeString(rows, csv);
    Result load =
        cli.run(
            "load",
            big.toString(),
            "--table",
            "big",
            "--csv",
            rows.toString(),
            "-T",
            tmp.toString());
    assertThat(load.exit()).as(load.toString()).isZero();

    for (int threads : new int[] {2, 1}) {
      Result r =
          cli.run(
              "idxbuild",
              big.toString(),
              "--threads",
              "2",
              "--merge-threads",
              String.valueOf(threads),
              "-T",
              tmp.toString(),
              "--progress",
              "none");
      assertThat(r.exit()).as(r.toString()).isZero();
      String line =
          r.outLines().stream()
              .filter(l -> l.contains("120,000 entries"))
              .findFirst()
              .orElseThrow();
      if (threads == 2) {
        assertThat(line).as(r.toString()).endsWith("  built in 8 key ranges");
      } else {
        assertThat(line).as(r.toString()).doesNotContain("key ranges");
      }
    }
  }

  @Test
  void httpOptionStartsAProgressServerBesideLoadAndIdxbuildAndSaysWhere() throws IOException {
    Path rows = tmp.resolve("more.jsonl");
    Files.writeString(rows, "{\"id\": 1001, \"code\": 1}\n");
    String temp = tmp.toString();
    Result load =
        cli.run(
            "load",
            db.toString(),
            "--table",
            "item",
            "--jsonl",
            rows.toString(),
            "-T",
            temp,
            "--reject",
            tmp.resolve("rejects.txt").toString(),
            "--http",
            "127.0.0.1:0",
            "--progress",
            "none");
    Result build =
        cli.run(
            "idxbuild", db.toString(), "-T", temp, "--http", "127.0.0.1:0", "--progress", "none");
    for (Result r : List.of(load, build)) {
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.errLines())
          .as(r.toString())
          .anyMatch(l -> l.matches("idxkit: progress at http://127\\.0\\.0\\.1:[1-9][0-9]*/"));
    }
  }

  @Test
  void verboseAddsTheStackTrace() {
    Result quiet = cli.run("get", db.toString(), "--index", "item_pk", "x1");
    assertThat(quiet.err()).doesNotContain("\tat ");
    Result verbose = cli.run("get", db.toString(), "--index", "item_pk", "x1", "--verbose");
    assertThat(verbose.exit()).isEqualTo(2);
    assertThat(verbose.errLines().get(0)).isEqualTo(quiet.errLines().get(0));
    assertThat(verbose.err()).contains("\tat dev.idxkit.");
  }

  @Test
  void databaseOpenForWritingElsewhereIsAFailureNotBadInput() {
    try (Database writer = Database.open(db)) {
      Result r = cli.run("info", db.toString());
      assertThat(r.exit()).isEqualTo(1);
      assertThat(r.errLines()).singleElement().asString().contains("is locked by");
      assertThat(writer.table("item").rowCount()).isEqualTo(ItemDb.ROWS);
    }
  }

  @Test
  void interruptedDumpLeavesNoFileAndExits130() throws IOException {
    Path out = tmp.resolve("items.csv");
    // Ctrl-C while the command is between interruptible calls: the guard knows, the thread's
    // flag is already consumed, so the dump stops at its next safe point (row 256).
    cli.guard.interrupt();
    Thread.interrupted();
    Result r = cli.run("dump", db.toString(), "--table", "item", "--csv", out.toString());
    assertThat(r.exit()).isEqualTo(130);
    assertThat(r.errLines())
        .containsExactly(
            "idxkit: interrupted; database "
                + db
                + " unchanged (opened read-only); "
                + out
                + " not written");
    assertThat(r.out()).isEmpty();
    assertThat(out).doesNotExist();
    assertThat(leftovers()).isEmpty();
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void interruptBreakingAnOpenIsReportedAsInterruptNotAsAnError() {
    // The thread's flag set: opening the files fails (an interrupted channel closes itself).
    cli.guard.interrupt();
    Result r = cli.run("check", db.toString());
    assertThat(r.exit()).isEqualTo(130);
    assertThat(r.errLines())
        .containsExactly("idxkit: interrupted; database " + db + " unchanged (opened read-only)");
  }

  @Test
  void emptyDatabaseArgumentIsBadInput() {
    // Found by CliFuzzIT: idxbuild and load derived the .srt name from an empty DB and failed
    // with "unexpected IllegalArgumentException" (exit 1).
    for (String command : List.of("idxbuild", "load", "check")) {
      expectBadInput(cli.run(command, "", "--table", "item"), "(DB): '' (expected: a database");
    }
    expectBadInput(cli.run("info", " "), "(DB): ' ' (expected: a database");
    // create took "" for the working directory: "cannot create database : directory is not empty"
    expectBadInput(cli.run("create", "", "--tpch"), "(DB): '' (expected: a database");
  }

  private static void expectBadInput(Result r, String... fragments) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.errLines()).as(r.toString()).hasSize(1);
    assertThat(r.errLines().get(0)).as(r.toString()).startsWith("idxkit: ").contains(fragments);
    assertThat(r.out()).as(r.toString()).isEmpty();
  }

  /** Temp files a dump may have left beside its target. */
  private List<Path> leftovers() throws IOException {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.filter(p -> p.getFileName().toString().contains("idxkit-tmp")).toList();
    }
  }

  /** Damages the first heap page of item so that its checksum fails. */
  private void flipByteOfFirstHeapPage() throws IOException {
    long page;
    int pageSize;
    try (Database d = Database.open(db, Database.DatabaseOptions.defaults().readOnly())) {
      page = Engine.of(d).meta().table(d.catalog().table("item").id()).pages().next(-1);
      pageSize = Engine.of(d).pageSize();
    }
    try (FileChannel ch =
        FileChannel.open(
            db.resolve("data.area"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long at = page * pageSize + pageSize - 100;
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, at);
      b.put(0, (byte) (b.get(0) ^ 0x21)).rewind();
      ch.write(b, at);
    }
  }
}
