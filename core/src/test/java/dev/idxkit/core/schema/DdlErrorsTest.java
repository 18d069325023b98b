package dev.idxkit.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.idxkit.core.DdlException;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad DDL, one case per row: the exact source:line:column of the offending token and a fragment of
 * the message. Columns are counted by hand from the DDL text (1-based, a tab is one column).
 */
class DdlErrorsTest {
  private static final String T = "CREATE TABLE t (a INT, b INT);\n";

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void pointsAtTheOffendingToken(
      String name, Schema base, String ddl, int line, int column, String fragment) {
    DdlException e =
        catchThrowableOfType(DdlException.class, () -> DdlParser.apply(base, ddl, "bad.sql"));
    assertThat(e).as("DDL was accepted: %s", ddl).isNotNull();
    assertThat(e.getMessage())
        .startsWith("bad.sql:" + line + ":" + column + ": ")
        .contains(fragment);
    assertThat(e.source()).isEqualTo("bad.sql");
    assertThat(e.line()).isEqualTo(line);
    assertThat(e.column()).isEqualTo(column);
  }

  static Stream<Arguments> cases() {
    Schema empty = Schema.empty();
    Schema tpch = TpchDdl.schema();
    return Stream.of(
        row(
            "unknown type",
            empty,
            "CREATE TABLE t (a INT,\n  b FOO(3))",
            2,
            5,
            "unsupported type FOO; supported: BIGINT, INT, SMALLINT, DOUBLE, DECIMAL(p,s)"),
        row(
            "unknown multi-word type",
            empty,
            "CREATE TABLE t (a TIMESTAMP WITH TIME ZONE)",
            1,
            19,
            "unsupported type TIMESTAMP WITH TIME ZONE"),
        row(
            "decimal precision",
            empty,
            "CREATE TABLE t (\n  a DECIMAL(39, 2)\n)",
            2,
            13,
            "DECIMAL precision 39 is out of range (expected: 1..38)"),
        row(
            "decimal scale",
            empty,
            "CREATE TABLE t (a NUMERIC(10, 11))",
            1,
            31,
            "NUMERIC scale 11 is out of range (expected: 0..10)"),
        row(
            "varchar zero",
            empty,
            "CREATE TABLE t (a VARCHAR(0))",
            1,
            27,
            "VARCHAR length 0 is out of range (expected: 1..10485760)"),
        row(
            "varchar max",
            empty,
            "CREATE TABLE t (a VARCHAR(MAX))",
            1,
            27,
            "VARCHAR length 'MAX' is not a number"),
        row(
            "int display width",
            empty,
            "CREATE TABLE t (a INT(11))",
            1,
            23,
            "INT takes no arguments"),
        row(
            "number too large",
            empty,
            "CREATE TABLE t (a VARCHAR(99999999999))",
            1,
            27,
            "number 99999999999 is too large"),
        row(
            "array type",
            empty,
            "CREATE TABLE t (a INT[])",
            1,
            19,
            "array types are not supported"),
        row(
            "duplicate column",
            empty,
            "CREATE TABLE t (a INT, A BIGINT)",
            1,
            24,
            "duplicate column a in table t"),
        row(
            "duplicate table in script",
            empty,
            "CREATE TABLE t (a INT);\nCREATE TABLE T (b INT);",
            2,
            14,
            "table t is already created at line 1:14"),
        row(
            "duplicate table in schema",
            tpch,
            "CREATE TABLE orders (x INT)",
            1,
            14,
            "table orders already exists"),
        row(
            "duplicate index in schema",
            tpch,
            "CREATE INDEX lineitem_partkey_ix ON lineitem (l_tax)",
            1,
            14,
            "index lineitem_partkey_ix already exists"),
        row(
            "duplicate index in script",
            empty,
            T + "CREATE INDEX ix ON t (a);\nCREATE INDEX IX ON t (b)",
            3,
            14,
            "index ix is already created at line 2:14"),
        row(
            "duplicate constraint index",
            empty,
            "CREATE TABLE t (a INT, UNIQUE (a), UNIQUE (a))",
            1,
            36,
            "index t_a_key is already created at line 1:24"),
        row(
            "generated pk name taken",
            empty,
            T + "CREATE INDEX u_pk ON t (a);\nCREATE TABLE u (a INT PRIMARY KEY)",
            3,
            23,
            "index u_pk is already created at line 2:14 (the index of this constraint is named u_pk)"),
        row(
            "unknown table in index",
            empty,
            "CREATE INDEX ix ON nosuch (a)",
            1,
            20,
            "unknown table nosuch (there are no tables)"),
        row(
            "unknown table lists tables",
            tpch,
            "CREATE INDEX ix ON lineitems (a)",
            1,
            20,
            "unknown table lineitems (tables: region, nation, part, supplier, partsupp, customer, orders, lineitem)"),
        row(
            "unknown column in index",
            empty,
            T + "CREATE INDEX ix ON t (a, zz DESC)",
            2,
            26,
            "unknown column zz in table t (columns: a, b)"),
        row(
            "unknown column in primary key",
            empty,
            "CREATE TABLE t (a INT, PRIMARY KEY (b))",
            1,
            37,
            "unknown column b in table t (columns: a)"),
        row(
            "unknown column in named unique",
            empty,
            "CREATE TABLE t (a INT, CONSTRAINT u1 UNIQUE (a, q))",
            1,
            49,
            "unknown column q in table t"),
        row(
            "column twice in key",
            empty,
            T + "CREATE UNIQUE INDEX ix ON t (b, a, B)",
            2,
            36,
            "column b appears twice in the key"),
        row(
            "too many key columns",
            empty,
            seventeenColumns(),
            2,
            seventeenColumns().split("\n")[1].indexOf("c17") + 1,
            "too many key columns: 17 (expected: 1..16)"),
        row(
            "too many columns",
            empty,
            columns(1001),
            1,
            columns(1001).indexOf("c1001") + 1,
            "table t has more than 1000 columns"),
        row(
            "area limit",
            fullOfAreas(),
            "CREATE TABLE t (a INT) TABLESPACE extra",
            1,
            35,
            "cannot add area extra: the database has 255 areas, the limit"),
        row(
            "area name",
            empty,
            "CREATE TABLE t (a INT) /* ; */ TABLESPACE \"x;y\"",
            1,
            43,
            "area name 'x;y' is not a plain name"),
        row("empty column list", empty, "CREATE TABLE t ()", 1, 17, "table t has no columns"),
        row(
            "syntax: missing comma",
            empty,
            "CREATE TABLE t (a INT b INT)",
            1,
            25,
            "syntax error at \"INT\": expected \",\" or \")\""),
        row(
            "syntax: double comma",
            empty,
            "-- header\nCREATE TABLE t (\n  a INT,\n  b INT,,\n)",
            4,
            9,
            "syntax error at \",\""),
        row(
            "syntax: trailing comma",
            empty,
            "CREATE TABLE t (a INT,)",
            1,
            23,
            "syntax error at \")\": expected a name"),
        row(
            "syntax: unexpected end",
            empty,
            "CREATE TABLE t (a INT",
            1,
            22,
            "syntax error at end of statement: expected \",\" or \")\""),
        row(
            "syntax: tablespace without name",
            empty,
            "CREATE TABLE t (a INT) TABLESPACE;",
            1,
            34,
            "expected an area name"),
        row(
            "syntax: reserved word as column",
            empty,
            "CREATE TABLE t (unique INT)",
            1,
            17,
            "a column name that is an SQL keyword must be quoted"),
        row(
            "unterminated quote",
            empty,
            "CREATE TABLE t (\"a INT)",
            1,
            17,
            "unterminated quoted name starting with \""),
        row(
            "stray character",
            empty,
            "CREATE TABLE t (a INT \uD83D\uDE00)",
            1,
            23,
            "unexpected character U+1F600"),
        row(
            "other statement",
            empty,
            T + "DROP TABLE t;",
            2,
            1,
            "unsupported statement starting with \"DROP\"; expected CREATE TABLE or CREATE [UNIQUE] INDEX"),
        row(
            "create view",
            empty,
            "CREATE VIEW v AS SELECT 1",
            1,
            8,
            "unsupported statement CREATE ... \"VIEW\""),
        row(
            "create temporary table",
            empty,
            "CREATE TEMPORARY TABLE t (a INT)",
            1,
            8,
            "unsupported statement CREATE ... \"TEMPORARY\""),
        row(
            "create table as",
            empty,
            T + "CREATE TABLE u AS SELECT * FROM t",
            2,
            16,
            "CREATE TABLE ... AS / LIKE is not supported"),
        row(
            "schema-qualified",
            empty,
            "CREATE TABLE s.t (a INT)",
            1,
            14,
            "schema-qualified table names are not supported"),
        row(
            "table options",
            empty,
            "CREATE TABLE t (a INT) ENGINE=InnoDB",
            1,
            24,
            "unexpected \"ENGINE\" after the column list; expected TABLESPACE <area>"),
        row(
            "column default",
            empty,
            "CREATE TABLE t (a INT DEFAULT 0)",
            1,
            23,
            "unsupported column option \"DEFAULT\"; supported: NOT NULL, NULL, PRIMARY KEY, UNIQUE"),
        row(
            "null and not null",
            empty,
            "CREATE TABLE t (a INT NOT NULL NULL)",
            1,
            32,
            "column a is declared NULL but also NOT NULL"),
        row(
            "two primary keys",
            empty,
            "CREATE TABLE t (a INT PRIMARY KEY, b INT, PRIMARY KEY (b))",
            1,
            43,
            "table t already has a PRIMARY KEY (at line 1:23)"),
        row(
            "check constraint",
            empty,
            "CREATE TABLE t (a INT, CHECK (a > 0))",
            1,
            24,
            "CHECK constraints are not supported"),
        row(
            "foreign key",
            empty,
            T + "CREATE TABLE u (a INT, FOREIGN KEY (a) REFERENCES t (a))",
            2,
            24,
            "FOREIGN KEY constraints are not supported"),
        row(
            "nulls last",
            empty,
            T + "CREATE INDEX ix ON t (a NULLS LAST)",
            2,
            25,
            "NULLS FIRST/LAST is not supported"),
        row(
            "expression key",
            empty,
            T + "CREATE INDEX ix ON t (LOWER(a))",
            2,
            28,
            "expressions and prefix lengths are not supported"),
        row(
            "partial index",
            empty,
            T + "CREATE INDEX ix ON t (a) WHERE a > 0",
            2,
            26,
            "partial indexes (WHERE) are not supported"),
        row(
            "index method",
            empty,
            T + "CREATE INDEX ix ON t USING hash (a)",
            2,
            22,
            "USING is not supported"),
        row(
            "index trailing words",
            empty,
            T + "CREATE INDEX ix ON t (a) TABLESPACE x y",
            2,
            39,
            "unexpected \"y\" after the key columns"),
        row(
            "crlf and tabs",
            empty,
            "CREATE TABLE t (\r\n\ta INT,\r\n\tb BOGUS\r\n)",
            3,
            4,
            "unsupported type BOGUS"),
        row(
            "nesting",
            empty,
            "CREATE TABLE t (a INT CHECK ((((((((((a)))))))))))",
            1,
            36,
            "parentheses nested more than 8 deep"));
  }

  private static Arguments row(
      String name, Schema base, String ddl, int line, int column, String fragment) {
    return Arguments.of(name, base, ddl, line, column, fragment);
  }

  private static String columns(int n) {
    StringJoiner j = new StringJoiner(", ", "CREATE TABLE t (", ")");
    for (int i = 1; i <= n; i++) {
      j.add("c" + i + " INT");
    }
    return j.toString();
  }

  private static String seventeenColumns() {
    StringJoiner key = new StringJoiner(", ", "CREATE INDEX ix ON t (", ")");
    for (int i = 1; i <= 17; i++) {
      key.add("c" + i);
    }
    return columns(17) + ";\n" + key;
  }

  private static Schema fullOfAreas() {
    Schema s = Schema.empty();
    for (int i = s.areas().size(); i < AreaDef.MAX_AREAS; i++) {
      s = s.withArea("a" + i);
    }
    return s;
  }
}
