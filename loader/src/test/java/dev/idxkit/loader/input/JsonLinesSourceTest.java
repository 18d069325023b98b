package dev.idxkit.loader.input;

import static dev.idxkit.loader.input.InputTesting.col;
import static dev.idxkit.loader.input.InputTesting.notNull;
import static dev.idxkit.loader.input.InputTesting.readAll;
import static dev.idxkit.loader.input.InputTesting.resource;
import static dev.idxkit.loader.input.InputTesting.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A good and a bad JSON Lines corpus: exact rows, and one reject per bad line with its reason. */
class JsonLinesSourceTest {
  static final TableDef T =
      table(
          "t",
          notNull("id", TypeKind.BIGINT),
          col("name", ColumnType.varchar(5)),
          col("price", ColumnType.decimal(6, 2)),
          col("day", TypeKind.DATE),
          col("flag", TypeKind.BOOLEAN),
          col("ratio", TypeKind.DOUBLE));

  @TempDir Path dir;

  static String describe(InputRecord r) {
    if (r instanceof InputRow row) {
      return row.line() + ": " + InputTesting.values(row.values());
    }
    RejectedRow j = (RejectedRow) r;
    return j.line() + ": " + j.column() + " | " + j.rawValue() + " | " + j.reason();
  }

  @Test
  void goodCorpusLoadsExactly() {
    for (int chunkBytes : new int[] {16, 50, 1 << 20}) {
      List<InputRecord> records =
          readAll(
              JsonLinesSource.open(
                  resource("good.jsonl"),
                  T,
                  JsonLinesOptions.defaults().withChunkBytes(chunkBytes)));
      assertThat(records.stream().map(JsonLinesSourceTest::describe).toList())
          .as("chunkBytes %d", chunkBytes)
          .containsExactly(
              "1: [Long:1, String:ok, BigDecimal:1.50, LocalDate:2024-01-01, Boolean:true,"
                  + " Double:0.25]",
              // Names ignore case; strings parse as the column's type.
              "2: [Long:2, String:café, BigDecimal:2.50, null, Boolean:true, Double:NaN]",
              // Blank lines 3 and 4 are skipped; absent fields are NULL.
              "5: [Long:3, null, null, null, null, null]",
              "6: [Long:4, String:😀, BigDecimal:100.00, null, Boolean:false, Double:-0.01]",
              "7: [Long:5, String:\u0000x, BigDecimal:1234.00, null, null, null]",
              "8: [Long:6, null, null, null, null, Double:1.0]");
      assertThat(records.get(records.size() - 1).resumePoint())
          .isEqualTo(new ResumePoint(resource("good.jsonl").toFile().length(), 9));
    }
  }

  @Test
  void badCorpusRejectsEachBadLineAlone() {
    List<String> described =
        readAll(JsonLinesSource.open(resource("broken.jsonl"), T, JsonLinesOptions.defaults()))
            .stream()
            .map(JsonLinesSourceTest::describe)
            .toList();
    assertThat(described).hasSize(18);
    assertThat(described.get(0)).isEqualTo("1: [Long:1, String:ok, null, null, null, null]");
    assertThat(described.get(1))
        .startsWith("2: null | {\"id\": 2, \"name\": \"ok\" | invalid JSON at column 23:")
        .contains("end-of-input");
    assertThat(described.subList(2, 18))
        .containsExactly(
            "3: name | toolong | \"toolong\" is 7 characters, longer than VARCHAR(5)",
            "4: price | 1.234 | \"1.234\" does not fit DECIMAL(6,2): more than 2 digits after the"
                + " point",
            "5: null | {\"id\": 5, \"nope\": 1} | unknown field \"nope\": table t has no such column",
            "6: id | id | field \"id\" appears twice",
            "7: id | null | missing field for NOT NULL column id",
            "8: null | [1, 2] | expected a JSON object, found array",
            "9: day | 20240101 | a JSON number cannot fill a DATE column; write it as a string",
            "10: null | {\"id\": 10, \"name\": \"caf\\xc3(\"} | not valid UTF-8: byte 0xc3 at file"
                + " offset 213",
            "11: flag | maybe | \"maybe\" is not a boolean (true/false, t/f, 1/0, yes/no)",
            "12: null | {\"id\": 12} {\"id\": 13} | more than one JSON value on the line",
            "13: name | {...} | nested JSON objects are not supported",
            "14: id | 15.5 | 15.5 has a fraction; BIGINT holds whole numbers",
            "15: name | \ud800 | \"\ud800\" has an unpaired surrogate U+D800 at index 0 (not"
                + " storable as UTF-8)",
            "16: [Long:17, null, null, null, null, Double:Infinity]",
            "17: flag | 1 | a JSON number cannot fill a BOOLEAN column; write it as a string",
            "18: [Long:19, String:fine, null, null, null, null]");
  }

  @Test
  void unknownFieldsCanBeIgnoredAndLongLinesAreSkipped() {
    Path file = dir.resolve("t.jsonl");
    String jsonl =
        "{\"id\": 1, \"extra\": {\"deep\": [1, {\"x\": 2}]}}\n"
            + "{\"id\": 2, \"name\": \""
            + "x".repeat(500)
            + "\"}\r\n"
            + "{\"id\": 3}";
    InputTesting.write(file, jsonl.getBytes(StandardCharsets.UTF_8));
    for (int chunkBytes : new int[] {16, 1 << 20}) {
      JsonLinesOptions options =
          JsonLinesOptions.defaults()
              .withIgnoreUnknownFields(true)
              .withChunkBytes(chunkBytes)
              .withMaxLineBytes(100);
      List<String> described =
          readAll(JsonLinesSource.open(file, T, options)).stream()
              .map(JsonLinesSourceTest::describe)
              .toList();
      assertThat(described).as("chunkBytes %d", chunkBytes).hasSize(3);
      assertThat(described.get(0)).isEqualTo("1: [Long:1, null, null, null, null, null]");
      assertThat(described.get(1))
          .isEqualTo(
              "2: null | {\"id\": 2, \"name\": \""
                  + "x".repeat(100 - 19)
                  + " | line longer than 100 bytes (maxLineBytes)");
      assertThat(described.get(2)).isEqualTo("3: [Long:3, null, null, null, null, null]");
    }
  }

  @Test
  void refusesUtf16() {
    Path file = dir.resolve("utf16.jsonl");
    InputTesting.write(file, "\uFEFF{}\n".getBytes(StandardCharsets.UTF_16BE));
    assertThatThrownBy(() -> JsonLinesSource.open(file, T, JsonLinesOptions.defaults()))
        .hasMessageContaining("UTF-16 or UTF-32 byte order mark");
  }
}
