package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.TpchDdl;
import dev.idxkit.core.schema.Values;
import dev.idxkit.e2e.Cli.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The happy path of every subcommand, run from the packaged jar in a fresh directory the way a new
 * user would: {@code create --tpch}, then (rows inserted through the library) {@code info}, {@code
 * get}, {@code scan}, {@code check}, {@code analyze}, {@code dump}, help, version and the
 * completion script. Expected values come from {@link TpchFixture}, which computes every row from
 * its key.
 */
class CliCommandsIT {
  static final int ORDERS = 2000;

  @TempDir static Path work;
  static final ObjectMapper JSON = new ObjectMapper();
  static final List<ColumnDef> LINEITEM = TpchDdl.schema().requireTable("lineitem").columns();
  static final List<ColumnDef> ORDERS_COLS = TpchDdl.schema().requireTable("orders").columns();

  @BeforeAll
  static void createAndFill() throws Exception {
    Result r = Cli.run(work, "create", "shop.db", "--tpch");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines())
        .containsExactly(
            "created database shop.db: 8 tables, 15 indexes, areas data, index, page size 8192",
            "next: idxkit info shop.db");
    assertThat(r.err()).isEmpty();
    TpchFixture.fill(work.resolve("shop.db"), ORDERS);
  }

  /** The CSV line of a row as the CLI writes it (no field here needs quotes). */
  static String csv(List<ColumnDef> cols, Object[] row) {
    List<String> f = new ArrayList<>();
    for (int i = 0; i < row.length; i++) {
      f.add(Values.format(cols.get(i).type(), row[i]));
    }
    return String.join(",", f);
  }

  @Test
  void infoShowsRowCountsAndIndexStates() throws Exception {
    Result r = Cli.run(work, "info", "shop.db");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines())
        .anyMatch(
            l -> l.matches("\\s+lineitem\\s+" + TpchFixture.lineitems(ORDERS) + "\\s+\\d+\\s+data"))
        .anyMatch(l -> l.matches("\\s+orders\\s+" + ORDERS + "\\s+\\d+\\s+data"))
        .anyMatch(
            l ->
                l.matches(
                    "\\s+lineitem_pk\\s+lineitem\\s+l_orderkey, l_linenumber\\s+yes.*active"));
    assertThat(r.out()).contains("page size   8192 bytes", "CREATE TABLE lineitem (");

    Result js = Cli.run(work, "info", "shop.db", "--json");
    JsonNode o = JSON.readTree(js.out());
    assertThat(o.get("indexes"))
        .hasSize(15)
        .allMatch(i -> i.get("state").asText().equals("active"));
    long lineitemRows = 0;
    for (JsonNode t : o.get("tables")) {
      if (t.get("name").asText().equals("lineitem")) {
        lineitemRows = t.get("rows").asLong();
      }
    }
    assertThat(lineitemRows).isEqualTo(TpchFixture.lineitems(ORDERS));
  }

  @Test
  void getFindsOneRowByFullKeyInBothForms() throws Exception {
    Result positional =
        Cli.run(work, "get", "shop.db", "--index", "lineitem_pk", "5", "2", "--format", "csv");
    assertThat(positional.exit()).as(positional.toString()).isZero();
    assertThat(positional.outLines())
        .containsExactly(
            String.join(",", LINEITEM.stream().map(ColumnDef::name).toList()),
            csv(LINEITEM, TpchFixture.lineitem(5, 2)));
    Result named =
        Cli.run(
            work,
            "get",
            "shop.db",
            "--index",
            "lineitem_pk",
            "--key",
            "l_linenumber=2,l_orderkey=5",
            "--format",
            "csv");
    assertThat(named.out()).isEqualTo(positional.out());

    Result prefix = Cli.run(work, "get", "shop.db", "--index", "lineitem_pk", "5");
    assertThat(prefix.outLines()).last().isEqualTo("(" + TpchFixture.lines(5) + " rows)");
  }

  @Test
  void getThroughASecondaryIndexFindsEveryMatch() throws Exception {
    LocalDate day = TpchFixture.orderDate(17);
    long expected = 0;
    for (long k = 1; k <= ORDERS; k++) {
      expected += TpchFixture.orderDate(k).equals(day) ? 1 : 0;
    }
    Result r =
        Cli.run(
            work,
            "get",
            "shop.db",
            "--index",
            "orders_orderdate_ix",
            day.toString(),
            "--json",
            "--columns",
            "o_orderkey,o_orderdate");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines()).hasSize((int) expected);
    for (String line : r.outLines()) {
      assertThat(JSON.readTree(line).get("o_orderdate").asText()).isEqualTo(day.toString());
    }
  }

  @Test
  void scanReturnsTheRangeInKeyOrderAndHonoursReverseAndLimit() throws Exception {
    Result r =
        Cli.run(
            work,
            "scan",
            "shop.db",
            "--index",
            "lineitem_pk",
            "--from",
            "5",
            "--to",
            "l_orderkey=7",
            "--limit",
            "0",
            "--format",
            "csv");
    assertThat(r.exit()).as(r.toString()).isZero();
    List<String> expected = new ArrayList<>();
    for (long k = 5; k <= 7; k++) {
      for (int l = 1; l <= TpchFixture.lines(k); l++) {
        expected.add(csv(LINEITEM, TpchFixture.lineitem(k, l)));
      }
    }
    assertThat(r.outLines().subList(1, r.outLines().size())).isEqualTo(expected);

    Result rev =
        Cli.run(
            work,
            "scan",
            "shop.db",
            "--index",
            "lineitem_pk",
            "--reverse",
            "--limit",
            "3",
            "--json");
    assertThat(rev.outLines()).hasSize(3);
    JsonNode first = JSON.readTree(rev.outLines().get(0));
    assertThat(first.get("l_orderkey").asLong()).isEqualTo(ORDERS);
    assertThat(first.get("l_linenumber").asInt()).isEqualTo(TpchFixture.lines(ORDERS));
    assertThat(first.get("l_quantity").isNumber()).isTrue();
    assertThat(rev.errLines())
        .containsExactly("idxkit: stopped after 3 rows; more match, --limit 0 prints all");
  }

  @Test
  void checkSaysOk() throws Exception {
    Result r = Cli.run(work, "check", "shop.db");
    assertThat(r.exit()).as(r.toString()).isZero();
    long rows = 5 + 25 + TpchFixture.customers(ORDERS) + ORDERS + TpchFixture.lineitems(ORDERS);
    assertThat(r.outLines()).hasSize(2);
    assertThat(r.outLines().get(0)).startsWith("checked shop.db: 8 tables (" + rows + " rows)");
    assertThat(r.outLines().get(1)).isEqualTo("ok");
    assertThat(r.err()).isEmpty(); // stdout is not a terminal: plain progress, quiet when short
  }

  @Test
  void analyzeMeasuresTablesAndIndexes() throws Exception {
    Result text = Cli.run(work, "analyze", "shop.db", "--table", "lineitem");
    assertThat(text.exit()).as(text.toString()).isZero();
    assertThat(text.out())
        .contains("lineitem_pk", "lineitem_part_supp_ix")
        .doesNotContain("orders_pk");

    Result js = Cli.run(work, "analyze", "shop.db", "--json");
    JsonNode o = JSON.readTree(js.out());
    for (JsonNode i : o.get("indexes")) {
      String table = i.get("table").asText();
      long expected =
          switch (table) {
            case "lineitem" -> TpchFixture.lineitems(ORDERS);
            case "orders" -> ORDERS;
            case "customer" -> TpchFixture.customers(ORDERS);
            case "nation" -> 25;
            case "region" -> 5;
            default -> 0;
          };
      assertThat(i.get("entries").asLong()).as(i.get("name").asText()).isEqualTo(expected);
      assertThat(i.get("problems").asInt()).isZero();
    }
    long indexPages = 0;
    for (JsonNode i : o.get("indexes")) {
      indexPages += i.get("pages").asLong();
    }
    for (JsonNode a : o.get("areas")) {
      if (a.get("name").asText().equals("index")) {
        assertThat(a.get("usedPages").asLong()).isEqualTo(indexPages);
      }
    }
  }

  @Test
  void dumpWritesAFileTheCsvReaderReadsBack() throws Exception {
    Result r = Cli.run(work, "dump", "shop.db", "--table", "orders", "--csv", "orders.csv");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines()).containsExactly("dumped " + ORDERS + " rows of orders to orders.csv");
    List<CsvRecord> records = new ArrayList<>();
    try (CsvReader<CsvRecord> reader =
        CsvReader.builder().ofCsvRecord(work.resolve("orders.csv"))) {
      reader.forEach(records::add);
    }
    assertThat(records).hasSize(ORDERS + 1);
    assertThat(records.get(0).getFields())
        .isEqualTo(ORDERS_COLS.stream().map(ColumnDef::name).toList());
    // Heap order is insertion order here; every field reads back to the value inserted.
    for (int k : new int[] {1, 2, ORDERS}) {
      Object[] expected = TpchFixture.order(k, ORDERS);
      List<String> fields = records.get(k).getFields();
      for (int c = 0; c < expected.length; c++) {
        assertThat(Values.parse(ORDERS_COLS.get(c), fields.get(c))).isEqualTo(expected[c]);
      }
    }
    try (Stream<Path> s = Files.list(work)) {
      assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("idxkit-tmp"));
    }

    Result regions = Cli.run(work, "dump", "shop.db", "--table", "region", "--csv", "-");
    assertThat(regions.out())
        .isEqualTo(
            "r_regionkey,r_name,r_comment\r\n"
                + "0,REGION 0,\r\n"
                + "1,REGION 1,\"\"\r\n"
                + "2,REGION 2,\"region 2, \"\"quoted\"\"\"\r\n"
                + "3,REGION 3,\"region 3, \"\"quoted\"\"\"\r\n"
                + "4,REGION 4,\"region 4, \"\"quoted\"\"\"\r\n");
    assertThat(regions.errLines()).containsExactly("dumped 5 rows of region to standard output");
  }

  @ParameterizedTest
  @ValueSource(strings = {"create", "info", "get", "scan", "check", "analyze", "dump"})
  void helpTeachesTheCommand(String command) throws Exception {
    Result r = Cli.run(work, command, "--help");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("Usage: idxkit " + command, "idxkit " + command + " ", "Exit codes:");
  }

  @Test
  void versionAndCompletion() throws IOException, InterruptedException {
    Result v = Cli.run(work, "--version");
    assertThat(v.exit()).isZero();
    assertThat(v.outLines().get(0)).matches("idxkit \\d+\\.\\d+\\.\\d+.*");
    Result c = Cli.run(work, "generate-completion");
    assertThat(c.exit()).isZero();
    assertThat(c.out()).contains("complete -F", "create", "analyze", "--index");
  }
}
