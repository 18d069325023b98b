package dev.idxkit.loader.input;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonLinesReader} over a body in memory, as the server reads {@code POST .../rows}: each
 * JSON type converted to its column's type, blank lines skipped, and every mistake a reject that
 * names its line and, where it has one, its column.
 */
class JsonLinesReaderTest {
  static final TableDef T =
      new TableDef(
          1,
          "item",
          List.of(
              new ColumnDef("id", ColumnType.of(TypeKind.BIGINT), false),
              new ColumnDef("price", ColumnType.decimal(10, 2), true),
              new ColumnDef("ratio", ColumnType.of(TypeKind.DOUBLE), true),
              new ColumnDef("born", ColumnType.of(TypeKind.DATE), true),
              new ColumnDef("ok", ColumnType.of(TypeKind.BOOLEAN), true),
              new ColumnDef("Name", ColumnType.varchar(10), true)),
          0);

  private static List<InputRecord> read(String body) {
    JsonLinesReader r =
        new JsonLinesReader(T, JsonLinesOptions.defaults(), body.getBytes(StandardCharsets.UTF_8));
    List<InputRecord> out = new ArrayList<>();
    r.forEachRemaining(out::add);
    return out;
  }

  @Test
  void convertsEachJsonTypeToItsColumnsTypeAndSkipsBlankLines() {
    String body =
        "{\"id\": 1, \"price\": 12.50, \"ratio\": 0.5, \"born\": \"2024-02-29\", \"ok\": true,"
            + " \"name\": \"x\"}\r\n\n  \n{\"ID\": \"2\", \"price\": \"3\", \"ratio\": \"NaN\"}\n"
            + "{\"id\": 3.0}";
    List<InputRecord> records = read(body);
    assertThat(records).hasSize(3).allMatch(r -> r instanceof InputRow);
    InputRow first = (InputRow) records.get(0);
    assertThat(first.values())
        .containsExactly(1L, new BigDecimal("12.50"), 0.5, LocalDate.of(2024, 2, 29), true, "x");
    assertThat(first.line()).isEqualTo(1);
    InputRow second = (InputRow) records.get(1);
    assertThat(second.values())
        .containsExactly(2L, new BigDecimal("3.00"), Double.NaN, null, null, null);
    assertThat(second.line()).isEqualTo(4);
    InputRow third = (InputRow) records.get(2);
    assertThat(third.values()).containsExactly(3L, null, null, null, null, null);
    assertThat(third.line()).isEqualTo(5);
    // No LF after the last line: it ends the body, on the same line.
    assertThat(third.resumePoint())
        .isEqualTo(new ResumePoint(body.getBytes(StandardCharsets.UTF_8).length, 5));
  }

  @Test
  void everyMistakeNamesItsLineAndColumn() {
    assertBad(
        "{\"id\":1}\n{\"id\":2,\"nope\":1}",
        "line 2: unknown field \"nope\": table item has no such column");
    assertBad("{\"price\":1}", "line 1, column id: missing field for NOT NULL column id");
    assertBad("{\"id\":1,\"id\":2}", "line 1, column id: field \"id\" appears twice");
    assertBad("[1,2]", "line 1: expected a JSON object, found array");
    assertBad("{\"id\":1} {\"id\":2}", "line 1: more than one JSON value on the line");
    assertBad("{\"id\":1.5}", "line 1, column id: ");
    assertBad("{\"id\":1,\"price\":1.234}", "line 1, column price: ");
    assertBad(
        "{\"id\":1,\"born\":5}",
        "line 1, column born: a JSON number cannot fill a DATE column; write it as a string");
    assertBad("{\"id\":1,\"ok\":\"maybe\"}", "line 1, column ok: ");
    assertBad(
        "{\"id\":1,\"name\":true}",
        "line 1, column Name: a JSON boolean cannot fill a VARCHAR(10) column");
    assertBad("{\"id\":1,\"name\":{\"a\":1}}", "line 1, column Name: nested JSON objects");
    assertBad("{\"id\":1,\"name\":\"01234567890\"}", "line 1, column Name: ");
    assertBad("{\"id\":null}", "line 1, column id: NULL in a NOT NULL column");
    // Syntax errors name the character column on the line.
    assertBad("{\"id\":1", "line 1: invalid JSON at column 8: ");
    assertBad("{\"id\":1}\n\u00ff\u00fe", "line 2: invalid JSON at column ");
    assertBad("{\"id\":1}\n{\"id\":\"\u00ff", "line 2: invalid JSON at column ");
  }

  @Test
  void bytesThatAreNotUtf8AreRejectedBeforeJsonSeesThem() {
    byte[] body = {'{', '"', 'i', 'd', '"', ':', '1', '}', '\n', '{', (byte) 0xC3, '}'};
    List<InputRecord> records = new ArrayList<>();
    new JsonLinesReader(T, JsonLinesOptions.defaults(), body).forEachRemaining(records::add);
    assertThat(records).hasSize(2);
    assertThat(((RejectedRow) records.get(1)).describe())
        .isEqualTo("line 2: not valid UTF-8: byte 0xc3 at file offset 10");
  }

  @Test
  void aLineOverTheLimitIsRejectedUnparsed() {
    JsonLinesOptions options = JsonLinesOptions.defaults().withMaxLineBytes(16);
    byte[] body =
        "{\"id\":1}\n{\"id\":2, \"name\":\"long\"}\n{\"id\":3}\n".getBytes(StandardCharsets.UTF_8);
    List<InputRecord> records = new ArrayList<>();
    new JsonLinesReader(T, options, body).forEachRemaining(records::add);
    assertThat(records).extracting(InputRecord::line).containsExactly(1L, 2L, 3L);
    assertThat(((RejectedRow) records.get(1)).describe())
        .isEqualTo("line 2: line longer than 16 bytes (maxLineBytes)");
    assertThat(records.get(2)).isInstanceOf(InputRow.class);
  }

  private static void assertBad(String body, String message) {
    List<InputRecord> records = read(body);
    InputRecord last = records.get(records.size() - 1);
    assertThat(last).as(body).isInstanceOf(RejectedRow.class);
    assertThat(((RejectedRow) last).describe()).as(body).startsWith(message);
  }
}
