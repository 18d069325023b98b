package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.e2e.Cli.Result;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every subcommand with bad arguments exits 2 with one line on stderr that names the problem and
 * carries no stack trace; a locked or damaged database exits 1, again with one line.
 */
class CliErrorsIT {
  @TempDir static Path work;

  @BeforeAll
  static void createAndFill() throws Exception {
    Result r = Cli.run(work, "create", "shop.db", "--tpch");
    assertThat(r.exit()).as(r.toString()).isZero();
    TpchFixture.fill(work.resolve("shop.db"), 50);
    Files.writeString(
        work.resolve("bad.sql"), "CREATE TABLE t (\n  id BIGINT NOT NULL,\n  x FOO(3)\n);\n");
    Files.createDirectories(work.resolve("occupied.db"));
    Files.writeString(work.resolve("occupied.db/notes.txt"), "not a database");
  }

  static Stream<Arguments> badInput() {
    return Stream.of(
        // unknown option, for every subcommand
        bad("'--bogus'", "create", "new.db", "--tpch", "--bogus"),
        bad("'--bogus'", "info", "shop.db", "--bogus"),
        bad("'--bogus'", "get", "shop.db", "--index", "lineitem_pk", "1", "--bogus"),
        bad("'--bogus'", "scan", "shop.db", "--index", "lineitem_pk", "--bogus"),
        bad("'--bogus'", "check", "shop.db", "--bogus"),
        bad("'--bogus'", "analyze", "shop.db", "--bogus"),
        bad("'--bogus'", "dump", "shop.db", "--table", "orders", "--csv", "-", "--bogus"),
        bad("did you mean --from?", "scan", "shop.db", "--index", "orders_pk", "--fro", "1"),
        bad("no command given"),
        bad("Unmatched argument at index 0: 'frobnicate'", "frobnicate"),
        // missing database, for every subcommand that opens one
        bad("no database at missing.db", "info", "missing.db"),
        bad("no database at missing.db", "get", "missing.db", "--index", "orders_pk", "1"),
        bad("no database at missing.db", "scan", "missing.db", "--index", "orders_pk"),
        bad("no database at missing.db", "check", "missing.db"),
        bad("no database at missing.db", "analyze", "missing.db"),
        bad("no database at missing.db", "dump", "missing.db", "--table", "orders", "--csv", "-"),
        // wrong key type or shape
        bad("column l_orderkey BIGINT", "get", "shop.db", "--index", "lineitem_pk", "five"),
        bad(
            "column o_orderdate DATE",
            "scan",
            "shop.db",
            "--index",
            "orders_orderdate_ix",
            "--from",
            "1995-02-30"),
        bad(
            "--key : l_linenumber given without l_orderkey",
            "get",
            "shop.db",
            "--index",
            "lineitem_pk",
            "--key",
            "l_linenumber=2"),
        bad(
            "3 values for index lineitem_pk",
            "get",
            "shop.db",
            "--index",
            "lineitem_pk",
            "1",
            "2",
            "3"),
        // bad DDL and bad create targets
        bad("bad.sql:3:", "create", "new.db", "--ddl", "bad.sql"),
        bad("--ddl : nope.sql (no such file)", "create", "new.db", "--ddl", "nope.sql"),
        bad("directory is not empty", "create", "occupied.db", "--tpch"),
        bad("--page-size : 1000", "create", "new.db", "--tpch", "--page-size", "1000"),
        // unknown index or table
        bad("no index nope", "get", "shop.db", "--index", "nope", "1"),
        bad("no index nope", "scan", "shop.db", "--index", "nope"),
        bad("no index nope", "check", "shop.db", "--index", "nope"),
        bad("no index nope", "analyze", "shop.db", "--index", "nope"),
        bad("no table nope", "dump", "shop.db", "--table", "nope", "--csv", "-"),
        bad("no table nope", "check", "shop.db", "--table", "nope"),
        // bad option values
        bad("--limit : -5", "scan", "shop.db", "--index", "orders_pk", "--limit", "-5"),
        bad(
            "Invalid value for option '--format'",
            "scan",
            "shop.db",
            "--index",
            "orders_pk",
            "--format",
            "xml"),
        bad("exists", "dump", "shop.db", "--table", "orders", "--csv", "bad.sql"));
  }

  private static Arguments bad(String fragment, String... args) {
    return Arguments.of(fragment, args);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badInput")
  void badInputExitsTwoWithOneLine(String fragment, String[] args) throws Exception {
    Result r = Cli.run(work, args);
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.errLines()).as(r.toString()).hasSize(1);
    assertThat(r.errLines().get(0)).as(r.toString()).startsWith("idxkit: ").contains(fragment);
    assertThat(r.err()).as(r.toString()).doesNotContain("at dev.").doesNotContain("\tat ");
    assertThat(r.out()).as(r.toString()).isEmpty();
    assertThat(work.resolve("new.db")).as("nothing created on bad input").doesNotExist();
  }

  @Test
  void databaseHeldByAWriterIsAFailure() throws Exception {
    try (Database writer = Database.open(work.resolve("shop.db"))) {
      Result r = Cli.run(work, "info", "shop.db");
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      assertThat(r.errLines())
          .singleElement()
          .asString()
          .isEqualTo(
              "idxkit: database shop.db is locked by process " + ProcessHandle.current().pid());
      assertThat(writer.table("orders").rowCount()).isEqualTo(50);
    }
  }

  @Test
  void damagedPageIsReportedByCheckWithExitOne() throws Exception {
    Path copy = work.resolve("damaged.db");
    Files.createDirectories(copy);
    try (Stream<Path> files = Files.list(work.resolve("shop.db"))) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.copy(f, copy.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    long page;
    int pageSize;
    try (Database db = Database.open(copy, Database.DatabaseOptions.defaults().readOnly())) {
      page = Engine.of(db).meta().table(db.catalog().table("orders").id()).pages().next(-1);
      pageSize = Engine.of(db).pageSize();
    }
    try (FileChannel ch =
        FileChannel.open(
            copy.resolve("data.area"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      long at = page * pageSize + pageSize - 64;
      ch.read(b, at);
      b.put(0, (byte) (b.get(0) ^ 0x10)).rewind();
      ch.write(b, at);
    }
    Result r = Cli.run(work, "check", "damaged.db");
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.out()).contains("checksum mismatch", "page " + page);
    assertThat(r.errLines()).singleElement().asString().startsWith("idxkit: check found ");
    assertThat(r.err()).doesNotContain("at dev.");

    Result get = Cli.run(work, "scan", "damaged.db", "--index", "orders_pk", "--limit", "0");
    assertThat(get.exit()).as(get.toString()).isEqualTo(1);
    assertThat(get.errLines())
        .singleElement()
        .asString()
        .contains("corrupt page " + page, "run 'idxkit check DB' for a full report");
  }
}
