package dev.idxkit.loader.input;

import static dev.idxkit.loader.input.InputTesting.col;
import static dev.idxkit.loader.input.InputTesting.notNull;
import static dev.idxkit.loader.input.InputTesting.readAll;
import static dev.idxkit.loader.input.InputTesting.resource;
import static dev.idxkit.loader.input.InputTesting.table;
import static dev.idxkit.loader.input.InputTesting.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Awkward but valid CSV loads exactly: BOM, CRLF and lone CR, quoted line breaks (with the line
 * numbers they shift), empty field vs {@code ""} vs NULL marker, doubled quotes, supplementary
 * characters, delimiters {@code ,} {@code |} {@code ;}; and the header and option errors name the
 * file and what was expected.
 */
class CsvSourceTest {
  static final TableDef AWKWARD =
      table(
          "awkward",
          notNull("id", TypeKind.BIGINT),
          col("name", ColumnType.varchar(20)),
          col("note", TypeKind.TEXT),
          col("price", ColumnType.decimal(10, 2)),
          col("day", TypeKind.DATE),
          col("flag", TypeKind.BOOLEAN),
          col("ratio", TypeKind.DOUBLE),
          col("at", TypeKind.TIMESTAMP),
          col("small", TypeKind.SMALLINT),
          col("raw", ColumnType.varbinary(4)),
          col("qty", TypeKind.INT));

  @TempDir Path dir;

  static Object[] row(Object... values) {
    return values;
  }

  static BigDecimal dec(String s) {
    return new BigDecimal(s);
  }

  static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  /** Rows only (the corpora have no rejects), as (line, values) text. */
  static void assertRows(List<InputRecord> records, long[] lines, Object[]... expected) {
    assertThat(InputTesting.rejects(records)).isEmpty();
    List<InputRow> rows = InputTesting.rows(records);
    assertThat(rows).hasSize(expected.length);
    for (int i = 0; i < expected.length; i++) {
      assertThat(rows.get(i).line()).as("line of row %d", i).isEqualTo(lines[i]);
      assertThat(values(rows.get(i).values()))
          .as("row at line %d", lines[i])
          .isEqualTo(values(expected[i]));
    }
  }

  @Test
  void readsTheCommaCorpusWithBomCrlfAndQuotedLineBreaks() throws Exception {
    Path file = resource("awkward-comma.csv");
    List<InputRecord> records = readAll(CsvSource.open(file, AWKWARD, CsvOptions.defaults()));
    assertRows(
        records,
        new long[] {2, 3, 5, 6, 8, 9},
        row(
            1L,
            "plain",
            "simple",
            dec("1.50"),
            LocalDate.of(2024, 1, 31),
            true,
            0.5,
            LocalDateTime.of(2024, 1, 31, 12, 0),
            (short) 1,
            bytes(1),
            10),
        row(
            2L,
            "quoted, comma",
            "line one\r\nline two",
            dec("-0.05"),
            LocalDate.of(1999, 12, 31),
            false,
            -0.0,
            LocalDateTime.of(2000, 1, 1, 0, 0, 0, 1000),
            (short) -32768,
            bytes(0xff),
            -1),
        row(3L, null, "", null, null, null, null, null, null, null, null),
        row(
            4L,
            "",
            "he said \"hi\"",
            dec("0.00"),
            LocalDate.of(2024, 2, 29),
            true,
            Double.NaN,
            LocalDateTime.of(2024, 2, 29, 23, 59, 59, 500_000_000),
            (short) 32767,
            bytes(),
            Integer.MAX_VALUE),
        row(
            5L,
            "日本語",
            "emoji 😀 and 𝄞",
            dec("99999999.99"),
            LocalDate.of(1, 1, 1),
            false,
            Double.POSITIVE_INFINITY,
            LocalDateTime.of(1970, 1, 1, 0, 0),
            (short) 0,
            bytes(0xde, 0xad, 0xbe, 0xef),
            0),
        row(
            6L,
            "multi\n\nline",
            ",",
            dec("1.00"),
            LocalDate.of(2024, 1, 1),
            true,
            1e10,
            LocalDateTime.of(2024, 1, 1, 0, 0),
            (short) 5,
            bytes(0),
            7));
    // Resume points: after row 1 comes byte 3 (BOM) + header + CRLF + row 1 + CRLF.
    String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).substring(1);
    String beforeRow2 = text.substring(0, text.indexOf("2,\"quoted")); // all ASCII
    int afterRow1 = 3 + beforeRow2.length();
    assertThat(records.get(0).resumePoint()).isEqualTo(new ResumePoint(afterRow1, 3));
    // The last row has no line break: it ends the file, 2 lines below its start.
    assertThat(records.get(records.size() - 1).resumePoint())
        .isEqualTo(new ResumePoint(Files.size(file), 11));
  }

  @Test
  void readsThePipeCorpusByPositionWithALoneCrLineEnd() {
    CsvOptions options = CsvOptions.defaults().withHeader(false).withDelimiter('|');
    List<InputRecord> records =
        readAll(CsvSource.open(resource("awkward-pipe.csv"), AWKWARD, options));
    assertRows(
        records,
        new long[] {1, 2, 3},
        row(
            10L,
            "a b",
            " x | y ",
            dec("2.00"),
            LocalDate.of(2020, 2, 2),
            false,
            -1.5,
            LocalDateTime.of(2020, 2, 2, 2, 2, 2),
            (short) -1,
            bytes(10, 11),
            -7),
        row(
            11L,
            "\"q\"",
            "tab\there",
            dec("0.50"),
            LocalDate.of(2020, 12, 31),
            false,
            0.001,
            LocalDateTime.of(2020, 12, 31, 23, 59, 59, 999_999_000),
            (short) 2,
            bytes(),
            3),
        row(12L, null, "", null, null, null, null, null, null, null, null));
  }

  @Test
  void readsTheSemicolonCorpusWithANullMarkerAndAReorderedHeader() {
    CsvOptions options = CsvOptions.defaults().withDelimiter(';').withNullMarker("\\N");
    List<InputRecord> records =
        readAll(CsvSource.open(resource("awkward-semicolon.csv"), AWKWARD, options));
    assertRows(
        records,
        new long[] {2, 3, 4},
        // \N unquoted is NULL, "\N" quoted is the text.
        row(20L, null, "\\N", null, null, null, null, null, null, null, 1),
        // With a marker, an empty field (quoted or not) is the empty string.
        row(
            21L,
            "",
            "",
            dec("1.00"),
            LocalDate.of(2021, 1, 1),
            true,
            0.0,
            LocalDateTime.of(2021, 1, 1, 0, 0),
            (short) 0,
            bytes(),
            null),
        row(
            22L,
            "semi;colon",
            "a\r\nb",
            dec("3.00"),
            LocalDate.of(2021, 1, 2),
            false,
            2.0,
            LocalDateTime.of(2021, 1, 2, 0, 0),
            (short) 1,
            bytes(0x10),
            2));
    assertThat(records.get(2).resumePoint().line()).isEqualTo(6);
  }

  @Test
  void emptyNotNullFieldIsRejectedNotDefaulted() {
    Path file = dir.resolve("nulls.csv");
    InputTesting.write(file, "id,name\n,x\n\"\",y\n3,\n".getBytes(StandardCharsets.UTF_8));
    TableDef t = table("t", notNull("id", TypeKind.BIGINT), col("name", TypeKind.TEXT));
    List<InputRecord> records = readAll(CsvSource.open(file, t, CsvOptions.defaults()));
    assertThat(InputTesting.texts(records))
        .containsExactly(
            "RejectedRow[line=2, column=id, rawValue=, reason=NULL in a NOT NULL column,"
                + " resumeOffset=11, resumeLine=3]",
            "RejectedRow[line=3, column=id, rawValue=, reason=\"\" is not a number,"
                + " resumeOffset=16, resumeLine=4]",
            "row line 4 [Long:3, null] resume 19/5");
  }

  @Test
  void readsDbgenTblFilesWithTheirTrailingDelimiter() {
    Path file = dir.resolve("lineitem.tbl");
    StringBuilder tbl = new StringBuilder();
    int n = 0;
    for (io.trino.tpch.LineItem li : new io.trino.tpch.LineItemGenerator(0.001, 1, 1)) {
      tbl.append(li.toLine()).append('\n'); // 1|1552|93|1|17|24710.35|...|egular courts above the|
      if (++n == 500) {
        break;
      }
    }
    InputTesting.write(file, tbl.toString().getBytes(StandardCharsets.UTF_8));
    TableDef lineitem = TpchSchema.LINEITEM.tableDef(1, 0);
    CsvOptions options =
        CsvOptions.defaults().withHeader(false).withDelimiter('|').withTrailingDelimiter(true);
    List<InputRecord> fromCsv = readAll(CsvSource.open(file, lineitem, options));
    List<InputRecord> generated =
        readAll(TpchSource.open(TpchSchema.LINEITEM, TpchOptions.scale(0.001), lineitem));
    assertThat(InputTesting.rejects(fromCsv)).isEmpty();
    assertThat(fromCsv).hasSize(500);
    for (int i = 0; i < 500; i++) {
      assertThat(values(((InputRow) fromCsv.get(i)).values()))
          .isEqualTo(values(((InputRow) generated.get(i)).values()));
    }
  }

  @Test
  void headerMustNameEveryColumnOnce() {
    TableDef t =
        table(
            "orders",
            col("id", TypeKind.BIGINT),
            col("name", TypeKind.TEXT),
            col("qty", TypeKind.INT));
    assertHeaderError(
        t,
        "id,nam,qty,extra\n",
        "line 1: header does not match table orders:"
            + " unknown column(s) \"nam\", \"extra\"; missing column(s) name; expected: id, name, qty");
    assertHeaderError(t, "id,name\n", "missing column(s) qty;");
    assertHeaderError(
        t, "id,NAME,qty,Id\n", "line 1: header names column id twice (fields 1 and 4)");
    assertHeaderError(t, "id,,qty\n", "line 1: header field 2 is empty (expected: a column name)");
    assertHeaderError(t, "", "empty file (expected: a header line)");
    assertHeaderError(t, "\n1,a,2\n", "line 1: the header line is empty");
    assertHeaderError(t, "id,\"name,qty\n", "line 1: the header is not valid CSV");
    // Blanks and case do not matter.
    Path ok = dir.resolve("ok.csv");
    InputTesting.write(ok, " QTY ,Name,id\r\n1,a,2\r\n".getBytes(StandardCharsets.UTF_8));
    assertThat(InputTesting.texts(readAll(CsvSource.open(ok, t, CsvOptions.defaults()))))
        .containsExactly("row line 2 [Long:2, String:a, Integer:1] resume 22/3");
  }

  private void assertHeaderError(TableDef t, String content, String message) {
    Path file = dir.resolve("header.csv");
    InputTesting.write(file, content.getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> CsvSource.open(file, t, CsvOptions.defaults()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(file.toString())
        .hasMessageContaining(message);
  }

  @Test
  void refusesUtf16AndResumePointsOutsideTheData() {
    TableDef t = table("t", col("a", TypeKind.TEXT));
    Path utf16 = dir.resolve("utf16.csv");
    InputTesting.write(utf16, "\uFEFFa\n".getBytes(StandardCharsets.UTF_16LE));
    assertThatThrownBy(() -> CsvSource.open(utf16, t, CsvOptions.defaults()))
        .hasMessage(
            utf16 + ": starts with a UTF-16 or UTF-32 byte order mark (expected: UTF-8 text)");
    Path file = dir.resolve("t.csv");
    InputTesting.write(file, "a\nx\n".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> CsvSource.open(file, t, CsvOptions.defaults(), new ResumePoint(1, 1)))
        .hasMessage(file + ": resume point at byte offset 1 (expected: 2..4, the file's data)");
    assertThat(readAll(CsvSource.open(file, t, CsvOptions.defaults(), new ResumePoint(4, 3))))
        .isEmpty();
  }

  @Test
  void optionsAreCheckedWhereTheyEnter() {
    CsvOptions d = CsvOptions.defaults();
    assertThatThrownBy(() -> d.withDelimiter('"'))
        .hasMessage("delimiter and quote : both '\"' (expected: different characters)");
    assertThatThrownBy(() -> d.withDelimiter('§'))
        .hasMessage("delimiter : U+00A7 (expected: one ASCII character other than NUL, CR and LF)");
    assertThatThrownBy(() -> d.withNullMarker("a,b"))
        .hasMessageContaining("nullMarker : \"a,b\" (expected: no delimiter, quote or line break");
    assertThatThrownBy(() -> d.withChunkBytes(1)).hasMessage("chunkBytes : 1 (expected: 16..2^30)");
  }
}
