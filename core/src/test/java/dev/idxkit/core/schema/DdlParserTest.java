package dev.idxkit.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.DdlException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DdlParserTest {
  private static Schema apply(String ddl) {
    return DdlParser.apply(Schema.empty(), ddl, "test.sql");
  }

  private static ColumnType typeOf(String sqlType) {
    return apply("CREATE TABLE t (c " + sqlType + ")").table(1).columns().get(0).type();
  }

  private static List<String> keyOf(Schema s, IndexDef i) {
    TableDef t = s.table(i.tableId());
    return i.columns().stream()
        .map(c -> t.columns().get(c.column()).name() + (c.descending() ? " desc" : ""))
        .toList();
  }

  @Test
  void tpchParsesWithPrimaryKeysAndSecondaryIndexes() {
    Schema s = TpchDdl.schema();
    assertThat(s.tables())
        .extracting(TableDef::name)
        .containsExactly(
            "region", "nation", "part", "supplier", "partsupp", "customer", "orders", "lineitem");
    assertThat(s.tables()).allMatch(t -> t.areaId() == Schema.DATA_AREA);
    for (TableDef t : s.tables()) {
      IndexDef pk = s.requireIndex(t.name() + "_pk");
      assertThat(pk.unique()).isTrue();
      assertThat(pk.tableId()).isEqualTo(t.id());
      assertThat(pk.areaId()).isEqualTo(Schema.INDEX_AREA);
      assertThat(s.indexesOf(t.id())).first().isEqualTo(pk);
    }
    assertThat(keyOf(s, s.requireIndex("partsupp_pk"))).containsExactly("ps_partkey", "ps_suppkey");
    assertThat(keyOf(s, s.requireIndex("lineitem_pk")))
        .containsExactly("l_orderkey", "l_linenumber");

    TableDef lineitem = s.requireTable("lineitem");
    assertThat(s.indexesOf(lineitem.id()))
        .filteredOn(i -> !i.unique())
        .extracting(i -> keyOf(s, i))
        .containsExactly(
            List.of("l_partkey"),
            List.of("l_suppkey"),
            List.of("l_shipdate"),
            List.of("l_receiptdate"),
            List.of("l_partkey", "l_suppkey"));
    TableDef orders = s.requireTable("orders");
    assertThat(s.indexesOf(orders.id()))
        .filteredOn(i -> !i.unique())
        .extracting(i -> keyOf(s, i))
        .containsExactly(List.of("o_custkey"), List.of("o_orderdate"));
    assertThat(s.indexes()).hasSize(8 + 7);

    assertThat(lineitem.columns()).hasSize(16);
    assertThat(lineitem.columns().get(lineitem.requireColumn("l_orderkey")))
        .isEqualTo(new ColumnDef("l_orderkey", ColumnType.of(TypeKind.BIGINT), false));
    assertThat(lineitem.columns().get(lineitem.requireColumn("l_extendedprice")).type())
        .isEqualTo(ColumnType.decimal(15, 2));
    assertThat(lineitem.columns().get(lineitem.requireColumn("l_shipdate")).type())
        .isEqualTo(ColumnType.of(TypeKind.DATE));
    assertThat(lineitem.columns().get(lineitem.requireColumn("l_returnflag")).type())
        .isEqualTo(ColumnType.varchar(1));
    assertThat(s.requireTable("region").columns().get(2))
        .isEqualTo(new ColumnDef("r_comment", ColumnType.varchar(152), true));
  }

  @Test
  void typesAndTheirSynonyms() {
    assertThat(typeOf("BIGINT"))
        .isEqualTo(typeOf("int8"))
        .isEqualTo(ColumnType.of(TypeKind.BIGINT));
    assertThat(typeOf("INT"))
        .isEqualTo(typeOf("integer"))
        .isEqualTo(typeOf("INT4"))
        .isEqualTo(ColumnType.of(TypeKind.INT));
    assertThat(typeOf("SMALLINT"))
        .isEqualTo(typeOf("int2"))
        .isEqualTo(ColumnType.of(TypeKind.SMALLINT));
    for (String d :
        List.of("DOUBLE", "DOUBLE PRECISION", "float8", "FLOAT", "FLOAT(24)", "REAL", "float4")) {
      assertThat(typeOf(d)).as(d).isEqualTo(ColumnType.of(TypeKind.DOUBLE));
    }
    assertThat(typeOf("DECIMAL(15,2)"))
        .isEqualTo(typeOf("numeric(15, 2)"))
        .isEqualTo(ColumnType.decimal(15, 2));
    assertThat(typeOf("DECIMAL(7)")).isEqualTo(ColumnType.decimal(7, 0));
    assertThat(typeOf("DECIMAL")).isEqualTo(typeOf("NUMERIC")).isEqualTo(ColumnType.decimal(18, 0));
    assertThat(typeOf("DECIMAL(38,38)")).isEqualTo(ColumnType.decimal(38, 38));
    assertThat(typeOf("VARCHAR(44)"))
        .isEqualTo(typeOf("character varying(44)"))
        .isEqualTo(typeOf("CHAR(44)"))
        .isEqualTo(typeOf("character(44)"))
        .isEqualTo(ColumnType.varchar(44));
    assertThat(typeOf("CHAR")).isEqualTo(ColumnType.varchar(1));
    assertThat(typeOf("VARCHAR")).isEqualTo(ColumnType.varchar(0));
    assertThat(typeOf("TEXT")).isEqualTo(ColumnType.of(TypeKind.TEXT));
    assertThat(typeOf("DATE")).isEqualTo(ColumnType.of(TypeKind.DATE));
    assertThat(typeOf("TIMESTAMP"))
        .isEqualTo(typeOf("timestamp without time zone"))
        .isEqualTo(ColumnType.of(TypeKind.TIMESTAMP));
    assertThat(typeOf("BOOLEAN"))
        .isEqualTo(typeOf("bool"))
        .isEqualTo(ColumnType.of(TypeKind.BOOLEAN));
    assertThat(typeOf("VARBINARY(16)")).isEqualTo(ColumnType.varbinary(16));
    assertThat(typeOf("VARBINARY"))
        .isEqualTo(typeOf("BYTEA"))
        .isEqualTo(typeOf("blob"))
        .isEqualTo(ColumnType.varbinary(0));
  }

  @Test
  void constraintsBecomeUniqueIndexesInTheIndexArea() {
    Schema s =
        apply(
            "CREATE TABLE t (\n"
                + "  a INT PRIMARY KEY,\n"
                + "  b VARCHAR(10) NULL UNIQUE,\n"
                + "  c INT NOT NULL,\n"
                + "  d INT,\n"
                + "  UNIQUE (c, d DESC),\n"
                + "  CONSTRAINT named_u UNIQUE (d)\n"
                + ")");
    TableDef t = s.requireTable("t");
    assertThat(t.columns())
        .extracting(ColumnDef::name, ColumnDef::nullable)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a", false),
            org.assertj.core.groups.Tuple.tuple("b", true),
            org.assertj.core.groups.Tuple.tuple("c", false),
            org.assertj.core.groups.Tuple.tuple("d", true));
    assertThat(s.indexes())
        .extracting(IndexDef::name)
        .containsExactly("t_pk", "t_b_key", "t_c_d_key", "named_u");
    assertThat(s.indexes()).allMatch(i -> i.unique() && i.areaId() == Schema.INDEX_AREA);
    assertThat(keyOf(s, s.requireIndex("t_c_d_key"))).containsExactly("c", "d desc");
  }

  @Test
  void tableLevelPrimaryKeyMakesItsColumnsNotNullAndMayBeNamed() {
    Schema s = apply("CREATE TABLE t (a INT, b INT, c INT, CONSTRAINT t_key PRIMARY KEY (b, a))");
    assertThat(s.table(1).columns())
        .extracting(ColumnDef::nullable)
        .containsExactly(false, false, true);
    assertThat(s.index(1).name()).isEqualTo("t_key");
    assertThat(keyOf(s, s.index(1))).containsExactly("b", "a");
  }

  @Test
  void tablespacesNameAreasAndCreateThemOnFirstUse() {
    Schema s =
        apply(
            "CREATE TABLE t (a INT) TABLESPACE Hot;\n"
                + "CREATE TABLE u (a INT) TABLESPACE hot;\n"
                + "CREATE INDEX t_a ON t (a) TABLESPACE \"COLD\";\n"
                + "CREATE UNIQUE INDEX u_a ON u (a DESC);\n"
                + "CREATE TABLE v (a INT) TABLESPACE index;\n"
                + "CREATE INDEX v_a ON v (a ASC) TABLESPACE data");
    assertThat(s.areas()).extracting(AreaDef::name).containsExactly("data", "index", "hot", "cold");
    assertThat(s.requireTable("t").areaId()).isEqualTo(2);
    assertThat(s.requireTable("u").areaId()).isEqualTo(2);
    assertThat(s.requireTable("v").areaId()).isEqualTo(Schema.INDEX_AREA);
    assertThat(s.requireIndex("t_a"))
        .isEqualTo(new IndexDef(1, "t_a", 1, List.of(new IndexColumn(0, false)), false, 3));
    assertThat(s.requireIndex("u_a"))
        .isEqualTo(new IndexDef(2, "u_a", 2, List.of(new IndexColumn(0, true)), true, 1));
    assertThat(s.requireIndex("v_a").areaId()).isEqualTo(Schema.DATA_AREA);
  }

  @Test
  void namesAreCaseInsensitiveQuotedOrNot() {
    Schema s =
        apply(
            "create table \"LineItem\" (\"Order\" int, \"My Col\" text, \"a\"\"b\" date);\n"
                + "CREATE INDEX \"IX\" ON LINEITEM (\"ORDER\", \"my col\")");
    TableDef t = s.requireTable("lineitem");
    assertThat(t.columns()).extracting(ColumnDef::name).containsExactly("order", "my col", "a\"b");
    assertThat(s.requireIndex("ix").columns())
        .extracting(IndexColumn::column)
        .containsExactly(0, 1);
  }

  @Test
  void ifNotExistsSkipsExistingTablesAndIndexes() {
    Schema tpch = TpchDdl.schema();
    Schema same =
        DdlParser.apply(
            tpch,
            "CREATE TABLE IF NOT EXISTS orders (x BOGUS);\n"
                + "CREATE INDEX IF NOT EXISTS lineitem_partkey_ix ON nowhere (x)",
            "again.sql");
    assertThat(same).isEqualTo(tpch);
    Schema more =
        DdlParser.apply(
            tpch,
            "CREATE TABLE IF NOT EXISTS extra (x INT);\n"
                + "CREATE UNIQUE INDEX IF NOT EXISTS extra_x ON extra (x)",
            "more.sql");
    assertThat(more.tables()).hasSize(9);
    assertThat(more.requireIndex("extra_x").id()).isEqualTo(16);
  }

  @Test
  void commentsAndSemicolonsInsideQuotesOrCommentsDoNotSplitStatements() {
    Schema s =
        apply(
            "-- leading comment; not a statement\n"
                + "/* block; */ CREATE TABLE \"a;b\" (x INT -- trailing ; comment\n"
                + ");;\n"
                + "CREATE INDEX ix ON \"a;b\" (x); -- done\n");
    assertThat(s.tables()).extracting(TableDef::name).containsExactly("a;b");
    assertThat(s.indexes()).hasSize(1);
  }

  @Test
  void emptyScriptChangesNothing() {
    Schema tpch = TpchDdl.schema();
    assertThat(DdlParser.apply(tpch, "", "e.sql")).isEqualTo(tpch);
    assertThat(DdlParser.apply(tpch, "  -- nothing\n ; ;", "e.sql")).isEqualTo(tpch);
  }

  @Test
  void aFailingScriptAppliesNothingAndLeavesTheInputUsable() {
    Schema tpch = TpchDdl.schema();
    assertThatThrownBy(
            () ->
                DdlParser.apply(
                    tpch,
                    "CREATE TABLE fine (a INT) TABLESPACE fresh;\nCREATE TABLE broken (a INT,,)",
                    "s.sql"))
        .isInstanceOf(DdlException.class)
        .hasMessageStartingWith("s.sql:2:28: ");
    assertThat(tpch.findTable("fine")).isEmpty();
    assertThat(tpch.findArea("fresh")).isEmpty();
    assertThat(tpch).isEqualTo(TpchDdl.schema());
    assertThat(
            DdlParser.apply(tpch, "CREATE TABLE fine (a INT)", "s.sql").requireTable("fine").id())
        .isEqualTo(9);
  }

  @Test
  void parsingLeavesNoThreadBehind() {
    Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
    int countBefore = java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount();
    for (int i = 0; i < 10; i++) {
      TpchDdl.schema();
      try {
        apply("CREATE TABLE t (a INT,, b INT)");
      } catch (DdlException expected) {
        // the failing path must not leave an executor behind either
      }
      try {
        apply("CREATE TABLE t (a INT) ENGINE=x; CREATE VIEW v AS SELECT 1");
      } catch (DdlException expected) {
        // as above
      }
    }
    Set<Thread> added = new HashSet<>(Thread.getAllStackTraces().keySet());
    added.removeAll(before);
    assertThat(added).as("threads started while parsing").isEmpty();
    assertThat(java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount())
        .isLessThanOrEqualTo(countBefore);
  }
}
