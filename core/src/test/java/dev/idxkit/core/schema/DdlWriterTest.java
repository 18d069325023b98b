package dev.idxkit.core.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DdlWriterTest {
  private static Schema replay(Schema s) {
    return DdlParser.apply(Schema.empty(), s.toDdl(), "written.sql");
  }

  @Test
  void tpchRoundTrips() {
    Schema tpch = TpchDdl.schema();
    assertThat(replay(tpch)).isEqualTo(tpch);
    assertThat(tpch.toDdl())
        .startsWith("CREATE TABLE region (\n  r_regionkey INT NOT NULL,\n")
        .contains(
            "  l_comment VARCHAR(44) NOT NULL,\n  PRIMARY KEY (l_orderkey, l_linenumber)\n);\n")
        .contains("CREATE INDEX lineitem_part_supp_ix ON lineitem (l_partkey, l_suppkey);\n")
        .doesNotContain("--");
  }

  @Test
  void writesKeywordsAndOddNamesQuotedAndAreasWhereNotDefault() {
    Schema s =
        DdlParser.apply(
            Schema.empty(),
            "CREATE TABLE \"order\" (\"key\" INT NOT NULL, \"My Col\" TEXT, \"a\"\"b\" VARBINARY,"
                + " price DECIMAL, PRIMARY KEY (\"key\" DESC)) TABLESPACE hot;\n"
                + "CREATE UNIQUE INDEX u ON \"order\" (price, \"a\"\"b\") TABLESPACE data;\n"
                + "CREATE TABLE t (x INT UNIQUE) TABLESPACE index",
            "odd.sql");
    assertThat(s.toDdl())
        .isEqualTo(
            "CREATE TABLE \"order\" (\n"
                + "  \"key\" INT NOT NULL,\n"
                + "  \"my col\" TEXT,\n"
                + "  \"a\"\"b\" VARBINARY,\n"
                + "  price DECIMAL(18,0),\n"
                + "  PRIMARY KEY (\"key\" DESC)\n"
                + ") TABLESPACE hot;\n"
                + "CREATE UNIQUE INDEX u ON \"order\" (price, \"a\"\"b\") TABLESPACE \"data\";\n"
                + "\n"
                + "CREATE TABLE t (\n"
                + "  x INT\n"
                + ") TABLESPACE \"index\";\n"
                + "CREATE UNIQUE INDEX t_x_key ON t (x);\n");
    assertThat(replay(s)).isEqualTo(s);
  }

  @Test
  void areasAreNamedInIdOrderEvenWhenTablesAndIndexesInterleave() {
    // Area ids follow first use: hot (table u) before cold (index on t), though t comes first.
    Schema s =
        DdlParser.apply(
            Schema.empty(),
            "CREATE TABLE t (a INT);\n"
                + "CREATE TABLE u (a INT PRIMARY KEY) TABLESPACE hot;\n"
                + "CREATE INDEX t_a ON t (a) TABLESPACE cold;\n"
                + "CREATE INDEX u_a ON u (a) TABLESPACE cold",
            "order.sql");
    assertThat(s.areas()).extracting(AreaDef::name).containsExactly("data", "index", "hot", "cold");
    assertThat(replay(s)).isEqualTo(s);
  }

  @Test
  void aUniqueIndexNamedLikeAPrimaryKeyOnNullableColumnsStaysAnIndex() {
    Schema s =
        Schema.empty()
            .withTable("t", List.of(new ColumnDef("a", ColumnType.of(TypeKind.INT), true)), 0)
            .withIndex("t_pk", 1, List.of(new IndexColumn(0, false)), true, Schema.INDEX_AREA);
    assertThat(s.toDdl()).contains("CREATE UNIQUE INDEX t_pk ON t (a);");
    assertThat(replay(s)).isEqualTo(s);
  }

  @Test
  void unusedAreasAreNotedAndLeftOut() {
    Schema s = TpchDdl.schema().withArea("spare");
    assertThat(s.toDdl()).startsWith("-- note: areas unused");
    assertThat(replay(s)).isEqualTo(TpchDdl.schema());
  }

  @Test
  void randomSchemasRoundTrip() {
    long seed = Seeds.seed();
    SplittableRandom random = Seeds.random(seed);
    Schema s = null;
    try {
      for (int i = 0; i < 150; i++) {
        s = RandomSchemas.generate(random);
        assertThat(replay(s)).isEqualTo(s);
      }
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          Seeds.reproduce(seed, getClass()) + "\n" + (s == null ? "" : s.toDdl()), e);
    }
  }
}
