package dev.idxkit.loader.input;

import static dev.idxkit.loader.input.InputTesting.col;
import static dev.idxkit.loader.input.InputTesting.notNull;
import static dev.idxkit.loader.input.InputTesting.readAll;
import static dev.idxkit.loader.input.InputTesting.resource;
import static dev.idxkit.loader.input.InputTesting.table;
import static dev.idxkit.loader.input.InputTesting.texts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broken corpus gives one reject per bad record, with its exact line, column, raw text and
 * reason, and the good rows around it; whatever the chunk size (down to 16 bytes, which splits
 * every record, quote and UTF-8 sequence across windows).
 */
class CsvRejectsTest {
  static final TableDef T =
      table(
          "t",
          notNull("id", TypeKind.BIGINT),
          col("name", ColumnType.varchar(5)),
          col("price", ColumnType.decimal(6, 2)),
          col("day", TypeKind.DATE));

  @TempDir Path dir;

  /** line: column | raw | reason, or line: row id. */
  static final List<String> BROKEN_CSV =
      List.of(
          "2: row 1",
          "3: name | toolongname | \"toolongname\" is 11 characters, longer than VARCHAR(5)",
          "4: price | 1.234 | \"1.234\" does not fit DECIMAL(6,2): more than 2 digits after the point",
          "5: price | abc | \"abc\" is not a number: unexpected 'a' at position 1",
          "6: day | 2024-02-30 | \"2024-02-30\" is not a date: day 30 (expected 01..29 for that month)",
          "7: null | 6,ok,1.00 | expected 4 fields, found 3",
          "8: null | 7,ok,1.00,2024-01-01,extra | expected 4 fields, found 5",
          "9: name | 8,\"bad\"x,1.00,2024-01-01 | 'x' at file offset 176 follows the closing quote"
              + " (expected ',' or a line break after a closing quote; a quote inside a quoted"
              + " field is written twice)",
          "10: row 9",
          "11: name | 10,\"unterminated,1.00,2024-01-01 | the quote opened in this field closes"
              + " only on a later line, at file offset 318, and text follows it (expected ',' or a"
              + " line break after a closing quote; a quote inside a quoted field is written"
              + " twice)",
          "12: row 11",
          "13: name | caf\\xc3( | not valid UTF-8: byte 0xc3 at file offset 276",
          "14: id |  | NULL in a NOT NULL column",
          "15: row 13",
          "16: name | \\xff\\xfe | not valid UTF-8: byte 0xff at file offset 342",
          "17: name | \\xed\\xa0\\x80 | not valid UTF-8: byte 0xed at file offset 364",
          "18: name | \\xc0\\xaf | not valid UTF-8: byte 0xc0 at file offset 387",
          "19: row 17",
          "20: day | 1.0 | \"1.0\" is not a date (yyyy-MM-dd): unexpected '.' at position 2",
          "21: row 19",
          "22: name | 20,\"never closed,1.00,2024-01-01 | the quote opened at file offset 469 is"
              + " never closed (the file ends first)");

  static String describe(InputRecord r) {
    if (r instanceof InputRow row) {
      return row.line() + ": row " + row.values()[0];
    }
    RejectedRow j = (RejectedRow) r;
    return j.line() + ": " + j.column() + " | " + j.rawValue() + " | " + j.reason();
  }

  @Test
  void brokenCorpusRejectsEachBadRecordAlone() {
    for (int chunkBytes : new int[] {16, 17, 23, 64, 100, 1 << 20}) {
      List<InputRecord> records =
          readAll(
              CsvSource.open(
                  resource("broken.csv"), T, CsvOptions.defaults().withChunkBytes(chunkBytes)));
      assertThat(records.stream().map(CsvRejectsTest::describe).toList())
          .as("chunkBytes %d", chunkBytes)
          .containsExactlyElementsOf(BROKEN_CSV);
    }
  }

  @Test
  void anUnclosedQuoteMidFileCostsOneLine() {
    Path file = dir.resolve("open.csv");
    String csv =
        "id,name,price,day\n"
            + "1,ok,1.00,2024-01-01\n"
            + "2,\"open,1.00,2024-01-01\r\n"
            + "3,ok,1.00,2024-01-01\r\n"
            + "4,ok,1.00,2024-01-01\n";
    InputTesting.write(file, csv.getBytes(StandardCharsets.UTF_8));
    for (int chunkBytes : new int[] {16, 1 << 20}) {
      List<InputRecord> records =
          readAll(CsvSource.open(file, T, CsvOptions.defaults().withChunkBytes(chunkBytes)));
      assertThat(records.stream().map(CsvRejectsTest::describe).toList())
          .containsExactly(
              "2: row 1",
              "3: name | 2,\"open,1.00,2024-01-01 | the quote opened at file offset 41 is never"
                  + " closed (the file ends first)",
              "4: row 3",
              "5: row 4");
      assertThat(records.get(1).resumePoint()).isEqualTo(new ResumePoint(64, 4));
    }
  }

  @Test
  void overlongRecordsAreRejectedAndSkipped() {
    Path file = dir.resolve("long.csv");
    String csv =
        "id,name,price,day\n"
            + "1,ok,1.00,2024-01-01\n"
            + "2,"
            + "x".repeat(300)
            + ",1.00,2024-01-01\r\n" // no quote: the window must skip
            + "3,ok,1.00,2024-01-01\n"
            + "4,\""
            + "y\n".repeat(100)
            + "\",1.00,2024-01-01\n" // quoted, many lines
            + "5,ok,1.00,2024-01-01\n";
    InputTesting.write(file, csv.getBytes(StandardCharsets.UTF_8));
    for (int chunkBytes : new int[] {16, 64, 1 << 20}) {
      CsvOptions options = CsvOptions.defaults().withChunkBytes(chunkBytes).withMaxRecordBytes(128);
      List<InputRecord> records = readAll(CsvSource.open(file, T, options));
      List<String> described = records.stream().map(CsvRejectsTest::describe).toList();
      assertThat(described).as("chunkBytes %d", chunkBytes).hasSize(105);
      assertThat(described.get(0)).isEqualTo("2: row 1");
      // Shown: its first 128 bytes, however the record was found to be too long.
      assertThat(described.get(1))
          .isEqualTo(
              "3: null | 2,"
                  + "x".repeat(126)
                  + " | record longer than 128 bytes (maxRecordBytes)");
      assertThat(described.get(2)).isEqualTo("4: row 3");
      // The quoted record is cut at its first line; its other lines are records of their own
      // ("y": wrong field count), the last one opens a quote that never closes, and line 106
      // reads normally again.
      assertThat(described.get(3))
          .isEqualTo("5: null | 4,\"y | record longer than 128 bytes (maxRecordBytes)");
      assertThat(described.get(4)).isEqualTo("6: null | y | expected 4 fields, found 1");
      assertThat(described.get(102)).isEqualTo("104: null | y | expected 4 fields, found 1");
      assertThat(described.get(103))
          .isEqualTo(
              "105: id | \",1.00,2024-01-01 | the quote opened at file offset "
                  + csv.indexOf("\",1.00")
                  + " is never closed (the file ends first)");
      assertThat(described.get(104)).isEqualTo("106: row 5");
    }
  }

  @Test
  void rejectsCarryTheirResumePoint() {
    List<InputRecord> records =
        readAll(CsvSource.open(resource("broken.csv"), T, CsvOptions.defaults()));
    List<String> tail = texts(records.subList(5, records.size()));
    List<String> resumed =
        texts(
            readAll(
                CsvSource.open(
                    resource("broken.csv"),
                    T,
                    CsvOptions.defaults(),
                    records.get(4).resumePoint())));
    assertThat(resumed).containsExactlyElementsOf(tail);
  }
}
