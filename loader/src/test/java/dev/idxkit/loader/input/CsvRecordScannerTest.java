package dev.idxkit.loader.input;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
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

  /**
   * The fast path ({@link CsvRecordScanner#fastRecord}) changes nothing: on random bytes from an
   * alphabet of everything the scanner treats specially, and on {@link RandomCsv} files, scanned
   * through windows cut at random places, the scanner with it finds the same records, lines,
   * problems, stops and resume offsets as the byte-by-byte state machine alone.
   */
  @Test
  void theFastPathFindsWhatTheStateMachineFinds() {
    long seed = Seeds.seed();
    java.util.SplittableRandom r = Seeds.random(seed);
    String[] alphabet = {
      "a",
      "bc",
      "0123456789",
      ",",
      ",",
      "\"",
      "\"\"",
      "\n",
      "\r",
      "\r\n",
      "é",
      "😀",
      "\u00ff",
      "x,\"y\"\n"
    };
    for (int round = 0; round < 300; round++) {
      byte[] b;
      if (round % 10 == 0) {
        b = new RandomCsv(r.nextLong(), 50 + r.nextInt(200)).bytes;
      } else {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int parts = r.nextInt(400);
        for (int i = 0; i < parts; i++) {
          if (r.nextInt(40) == 0) {
            out.write(0x80 + r.nextInt(0x80)); // a stray byte that may start no sequence
          } else {
            out.writeBytes(alphabet[r.nextInt(alphabet.length)].getBytes(StandardCharsets.UTF_8));
          }
        }
        b = out.toByteArray();
      }
      int maxRecord = r.nextBoolean() ? 1 << 20 : 16 + r.nextInt(64);
      int step = 1 + r.nextInt(Math.max(1, b.length / 3 + 1));
      assertThat(scanWith(b, true, maxRecord, step))
          .as("round %d, %s", round, Seeds.reproduce(seed, getClass()))
          .isEqualTo(scanWith(b, false, maxRecord, step));
    }
  }

  /**
   * Every record, problem and stop of a scan of {@code b} through windows growing by {@code step}.
   */
  private static List<String> scanWith(byte[] b, boolean fast, int maxRecord, int step) {
    CsvRecordScanner scanner = new CsvRecordScanner(',', '"', maxRecord, fast);
    List<String> out = new ArrayList<>();
    int from = 0;
    int limit = Math.min(b.length, step);
    while (from < b.length) {
      boolean eof = limit >= b.length;
      CsvRecordIndex index = new CsvRecordIndex();
      byte[] window = java.util.Arrays.copyOfRange(b, from, limit);
      int end = scanner.scan(window, 0, window.length, eof, index);
      for (int i = 0; i < index.count(); i++) {
        out.add((from + index.end(i)) + "/" + index.line(i) + "/" + index.lineAfter(i));
      }
      for (CsvRecordIndex.Problem p : index.problems()) {
        out.add(p.toString());
      }
      out.add("stop " + scanner.stop() + " at " + (from + end));
      if (end == 0) {
        if (eof || scanner.stop() == Stop.TOO_LONG) {
          break;
        }
        limit = Math.min(b.length, limit + step);
        continue;
      }
      from += end;
      limit = Math.min(b.length, Math.max(limit, from + 1) + step);
    }
    return out;
  }
}
