package dev.idxkit.cli.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonRowReaderTest {
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

  private static JsonRowReader reader(String body) {
    return new JsonRowReader(T, body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void convertsEachJsonTypeToItsColumnsTypeAndSkipsBlankLines() {
    JsonRowReader r =
        reader(
            "{\"id\": 1, \"price\": 12.50, \"ratio\": 0.5, \"born\": \"2024-02-29\", \"ok\": true,"
                + " \"name\": \"x\"}\r\n\n  \n{\"ID\": \"2\", \"price\": \"3\", \"ratio\": \"NaN\"}\n"
                + "{\"id\": 3.0}");
    assertThat(r.next())
        .containsExactly(1L, new BigDecimal("12.50"), 0.5, LocalDate.of(2024, 2, 29), true, "x");
    assertThat(r.line()).isEqualTo(1);
    assertThat(r.next()).containsExactly(2L, new BigDecimal("3.00"), Double.NaN, null, null, null);
    assertThat(r.line()).isEqualTo(4);
    assertThat(r.next()).containsExactly(3L, null, null, null, null, null);
    assertThat(r.next()).isNull();
  }

  @Test
  void everyMistakeNamesItsLine() {
    assertBad(
        "{\"id\":1}\n{\"id\":2,\"nope\":1}",
        "line 2: unknown field \"nope\": table item has no such column");
    assertBad("{\"price\":1}", "line 1: missing field for NOT NULL column id");
    assertBad("{\"id\":1,\"id\":2}", "line 1: field \"id\" appears twice");
    assertBad("[1,2]", "line 1: expected a JSON object, found array");
    assertBad("{\"id\":1} {\"id\":2}", "line 1: more than one JSON value on the line");
    assertBad("{\"id\":1.5}", "line 1: column id BIGINT");
    assertBad("{\"id\":1,\"price\":1.234}", "line 1: column price DECIMAL(10,2)");
    assertBad("{\"id\":1,\"born\":5}", "line 1: column born DATE: a JSON number cannot fill it");
    assertBad("{\"id\":1,\"ok\":\"maybe\"}", "line 1: column ok BOOLEAN");
    assertBad(
        "{\"id\":1,\"name\":true}",
        "line 1: column Name VARCHAR(10): a JSON boolean cannot fill it");
    assertBad(
        "{\"id\":1,\"name\":{\"a\":1}}", "line 1: column Name VARCHAR(10): nested JSON objects");
    assertBad("{\"id\":1,\"name\":\"01234567890\"}", "line 1: column Name VARCHAR(10)");
    assertBad("{\"id\":null}", "line 1: column id BIGINT: NULL in a NOT NULL column");
    assertBad("{\"id\":1", "line 1: invalid JSON");
    assertBad("{\"id\":1}\n\u00ff\u00fe", "line 2: invalid JSON");
  }

  private static void assertBad(String body, String message) {
    JsonRowReader r = reader(body);
    assertThatThrownBy(
            () -> {
              while (r.next() != null) {
                // read until the bad line
              }
            })
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(message);
  }
}
