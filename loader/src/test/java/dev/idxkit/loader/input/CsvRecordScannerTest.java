package dev.idxkit.loader.input;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.loader.input.CsvRecordScanner.Stop;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Record boundaries and line counts from the byte scanner, and its contract with the chunker: a
 * window that ends anywhere - inside a quote, between CR and LF, inside a UTF-8 sequence - yields
 * only the records complete before that point, and scanning on from there gives the same records as
 * one scan of everything.
 */
class CsvRecordScannerTest {
  /** Strings as UTF-8, int arrays as raw bytes. */
  static byte[] bytes(Object... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (Object p : parts) {
      if (p instanceof String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
      } else {
        for (int b : (int[]) p) {
          out.write(b);
        }
      }
    }
    return out.toByteArray();
  }

  static final byte[] TRICKY =
      bytes(
          "a,b\r\n",
          "\"x\r\ny\",\"\"\"\"\n",
          "\n",
          "plain\"quote,é😀\r",
          "\"a\"\"b\",\"\"\r\n",
          "\"bad\"x,1\n",
          "c,",
          new int[] {0xff},
          "\n",
          "last,\"no newline\"");

  /** (end offset, start line, problem kind or "-") per record. */
  static List<String> scanAll(byte[] b, int windowEnd) {
    CsvRecordScanner scanner = new CsvRecordScanner(',', '"', 1 << 20);
    List<String> out = new ArrayList<>();
    int from = 0;
    int line = 1;
    int limit = windowEnd;
    while (from < b.length) {
      CsvRecordIndex index = new CsvRecordIndex();
      byte[] window = java.util.Arrays.copyOfRange(b, from, Math.min(b.length, limit));
      boolean eof = limit >= b.length;
      int end = scanner.scan(window, 0, window.length, eof, index);
      for (int i = 0; i < index.count(); i++) {
        String problem = "-";
        for (CsvRecordIndex.Problem p : index.problems()) {
          if (p.record() == i) {
            problem = p.kind() + "@" + p.field();
          }
        }
        out.add((from + index.end(i)) + "/" + (line + index.line(i)) + "/" + problem);
      }
      if (index.count() > 0) {
        line += index.lineCount();
      }
      if (end == 0 && !eof) {
        assertThat(scanner.stop()).isEqualTo(Stop.NEED_MORE);
      }
      from += end;
      limit = eof ? limit : limit + 7; // grow the window in small steps
      if (end == 0 && eof) {
        break;
      }
    }
    return out;
  }

  @Test
  void findsRecordsLinesAndProblems() {
    List<String> records = scanAll(TRICKY, TRICKY.length);
    assertThat(records)
        .containsExactly(
            "5/1/-", // a,b CRLF
            "17/2/-", // "x CRLF y","""" LF: two lines
            "18/4/-", // the empty line is a record too (the parser skips it)
            "37/5/-", // a quote inside an unquoted field is data; a lone CR ends the record
            "48/6/-", // "a""b","" CRLF
            "57/7/CHAR_AFTER_QUOTE@0",
            "61/8/INVALID_UTF8@1",
            "78/9/-"); // no final line break
    // Any window size, growing by 7 bytes at a time, gives the same records.
    for (int window = 1; window <= TRICKY.length; window++) {
      assertThat(scanAll(TRICKY, window)).as("window %d", window).isEqualTo(records);
    }
  }

  @Test
  void aQuoteLeftOpenAtTheEndIsCutAtItsFirstLine() {
    byte[] b = "1,\"open\n2,ok\n3,ok".getBytes(StandardCharsets.UTF_8);
    List<String> records = scanAll(b, b.length);
    assertThat(records).containsExactly("8/1/UNCLOSED_QUOTE@1", "13/2/-", "17/3/-");
    for (int window = 1; window <= b.length; window++) {
      assertThat(scanAll(b, window)).as("window %d", window).isEqualTo(records);
    }
  }
}
