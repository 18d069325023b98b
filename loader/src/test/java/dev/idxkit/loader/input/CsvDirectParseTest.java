package dev.idxkit.loader.input;

import static dev.idxkit.loader.input.InputTesting.col;
import static dev.idxkit.loader.input.InputTesting.notNull;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import dev.idxkit.core.spi.RecordLayout;
import dev.idxkit.core.testing.Seeds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The direct path ({@link Chunk#parseEncoded}: CSV bytes straight into records) against the
 * reference path (fastcsv, {@link dev.idxkit.core.schema.Values}, then {@link
 * RecordLayout#encode}): chunk by chunk, the same rows as the same record bytes, the same rejects
 * with the same column, raw text and reason, the same lines and resume points. The inputs mix the
 * plain forms the direct path converts itself with every form it must hand to the reference parser,
 * valid or not.
 */
class CsvDirectParseTest {
  @TempDir Path dir;

  static final TableDef TABLE =
      InputTesting.table(
          "plain",
          notNull("id", TypeKind.BIGINT),
          col("n", TypeKind.INT),
          col("s", TypeKind.SMALLINT),
          col("price", ColumnType.decimal(8, 2)),
          notNull("day", TypeKind.DATE),
          col("code", ColumnType.varchar(3)),
          col("note", TypeKind.TEXT),
          col("big", ColumnType.decimal(30, 4)),
          col("ratio", TypeKind.DOUBLE));

  private static final String[] LONGS = {
    "0",
    "-0",
    "7",
    "-12",
    "+5",
    "007",
    "",
    "x",
    "1e3",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "123456789012345678",
    "1234567890123456789",
    "-",
    " 1",
    "1 "
  };
  private static final String[] INTS = {
    "2147483647", "-2147483648", "2147483648", "32767", "-32768", "32768", "-32769", "42"
  };
  private static final String[] DECIMALS = {
    "0",
    "0.00",
    "-0.00",
    "1.5",
    "123456.78",
    "-123456.78",
    "1234567.8",
    "12.345",
    "12.340",
    ".5",
    "5.",
    ".",
    "-",
    "+1.25",
    "1e2",
    "1.2.3",
    "000001.10",
    "999999.99",
    "1000000",
    "abc",
    "0.000000000000000000001",
    "12345678901234567890"
  };
  private static final String[] DATES = {
    "1995-03-15",
    "2024-02-29",
    "2023-02-29",
    "2000-02-29",
    "1900-02-29",
    "0000-01-01",
    "9999-12-31",
    "1970-01-01",
    "1969-12-31",
    "2024-13-01",
    "2024-00-10",
    "2024-04-31",
    "2024-1-01",
    "+2024-01-01",
    "12024-01-01",
    "-0001-01-01",
    "2024/01/01",
    "2024-01-01x",
    ""
  };
  private static final String[] TEXTS = {
    "",
    "a",
    "abc",
    "abcd",
    "\u00e9\u00e9\u00e9",
    "\u00e9\u00e9\u00e9\u00e9",
    "\uD83D\uDE00ab",
    "a\"b",
    "a,b",
    "line\nbreak",
    "cr\rlf\r\n",
    "\"",
    "NULL"
  };
  private static final String[] DOUBLES = {"1.5", "-0.0", "NaN", "x", "1e300", ""};

  @Test
  void directRecordsEqualTheReferencePath() throws Exception {
    long seed = Seeds.seed();
    String reproduce = Seeds.reproduce(seed, getClass());
    SplittableRandom random = Seeds.random(seed);
    for (String nullMarker : new String[] {null, "NULL"}) {
      byte[] bytes = randomCsv(random, 20_000, nullMarker);
      Path file = dir.resolve("plain" + (nullMarker == null ? "" : "-marker") + ".csv");
      Files.write(file, bytes);
      CsvOptions options = CsvOptions.defaults().withChunkBytes(1000 + random.nextInt(20_000));
      if (nullMarker != null) {
        options = options.withNullMarker(nullMarker);
      }
      int direct = compareChunks(file, options, reproduce);
      assertThat(direct).as("chunks parsed directly; %s", reproduce).isGreaterThan(0);
    }
  }

  @Test
  void theAwkwardFileAgreesToo() {
    long seed = Seeds.seed();
    String reproduce = Seeds.reproduce(seed, getClass());
    RandomCsv csv = new RandomCsv(seed, 20_000);
    Path file = csv.writeTo(dir);
    CsvOptions options = CsvOptions.defaults().withChunkBytes(4096);
    try (CsvSource source = CsvSource.open(file, RandomCsv.TABLE, options)) {
      int direct = compareChunks(source, RecordLayout.of(RandomCsv.TABLE), reproduce);
      assertThat(direct).as("chunks parsed directly; %s", reproduce).isGreaterThan(0);
    }
  }

  @Test
  void epochDayIsLocalDates() {
    for (LocalDate d = LocalDate.of(0, 1, 1);
        d.getYear() <= 9999;
        d = d.plusDays(1 + (d.getDayOfYear() % 7))) {
      assertThat(CsvDirectParser.epochDay(d.getYear(), d.getMonthValue(), d.getDayOfMonth()))
          .as("%s", d)
          .isEqualTo(d.toEpochDay());
    }
  }

  private int compareChunks(Path file, CsvOptions options, String reproduce) {
    try (CsvSource source = CsvSource.open(file, TABLE, options)) {
      return compareChunks(source, RecordLayout.of(TABLE), reproduce);
    }
  }

  /** Compares every chunk both ways; returns how many took the direct path. */
  private static int compareChunks(CsvSource source, RecordLayout layout, String reproduce) {
    int direct = 0;
    for (Chunk chunk = source.nextChunk(); chunk != null; chunk = source.nextChunk()) {
      EncodedRows rows = chunk.parseEncoded(layout);
      if (rows == null) {
        continue;
      }
      direct++;
      List<String> expected = new ArrayList<>();
      for (InputRecord r : chunk.parse().records()) {
        if (r instanceof InputRow row) {
          String record;
          try {
            record = HexFormat.of().formatHex(layout.encode(row.values()));
          } catch (IdxkitException e) {
            record =
                new RejectedRow(
                        row.line(),
                        null,
                        null,
                        e.getMessage(),
                        row.resumeOffset(),
                        row.resumeLine())
                    .toString();
          }
          expected.add(
              row.line() + " " + row.resumeOffset() + " " + row.resumeLine() + " " + record);
        } else {
          expected.add(r.toString());
        }
      }
      List<String> actual = new ArrayList<>();
      for (int i = 0; i < rows.count(); i++) {
        RejectedRow reject = rows.reject(i);
        if (reject != null) {
          actual.add(reject.toString());
        } else {
          byte[] record = Arrays.copyOfRange(rows.data(), rows.start(i), rows.end(i));
          actual.add(
              rows.line(i)
                  + " "
                  + rows.resumeOffset(i)
                  + " "
                  + rows.resumeLine(i)
                  + " "
                  + HexFormat.of().formatHex(record));
        }
      }
      assertThat(actual).as("%s; %s", chunk, reproduce).isEqualTo(expected);
    }
    return direct;
  }

  /** Rows of {@link #TABLE}, mostly plain, with odd fields, quoting, empty lines, bad records. */
  private static byte[] randomCsv(SplittableRandom r, int rows, String nullMarker) {
    StringBuilder out = new StringBuilder("id,n,s,price,day,code,note,big,ratio\r\n");
    for (int i = 0; i < rows; i++) {
      if (r.nextInt(100) == 0) {
        out.append(r.nextBoolean() ? "\n" : "\r\n"); // an empty line
      }
      int fields = r.nextInt(200) == 0 ? 8 + r.nextInt(3) * (r.nextBoolean() ? 1 : -1) : 9;
      for (int f = 0; f < fields; f++) {
        if (f > 0) {
          out.append(',');
        }
        String v = value(r, f, i, nullMarker);
        boolean mustQuote =
            v.indexOf(',') >= 0
                || v.indexOf('"') >= 0
                || v.indexOf('\n') >= 0
                || v.indexOf('\r') >= 0;
        if (mustQuote || (r.nextInt(30) == 0 && r.nextInt(5) != 0)) {
          out.append('"').append(v.replace("\"", "\"\"")).append('"');
        } else {
          out.append(v);
        }
      }
      out.append(r.nextInt(4) == 0 ? "\n" : "\r\n");
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String value(SplittableRandom r, int field, int row, String nullMarker) {
    boolean odd = r.nextInt(20) == 0;
    if (r.nextInt(60) == 0) {
      return nullMarker == null ? "" : nullMarker;
    }
    switch (field) {
      case 0:
        return odd ? pick(r, LONGS) : Long.toString(r.nextLong(-1_000_000_000L, 1_000_000_000L));
      case 1:
      case 2:
        return odd
            ? pick(r, r.nextBoolean() ? INTS : LONGS)
            : Integer.toString(r.nextInt(-999, 999));
      case 3:
        return odd
            ? pick(r, DECIMALS)
            : String.format("%d.%02d", r.nextInt(-99999, 99999), r.nextInt(100));
      case 4:
        return odd
            ? pick(r, DATES)
            : LocalDate.ofEpochDay(r.nextLong(-800_000, 2_900_000)).toString();
      case 5:
        return odd ? pick(r, TEXTS) : Integer.toString(r.nextInt(1000));
      case 6:
        return odd ? pick(r, TEXTS) : "row " + row;
      case 7:
        return odd
            ? pick(r, DECIMALS)
            : r.nextLong(-1_000_000_000_000L, 1_000_000_000_000L) + "." + r.nextInt(10_000);
      default:
        return odd ? pick(r, DOUBLES) : Double.toString(r.nextDouble());
    }
  }

  private static String pick(SplittableRandom r, String[] values) {
    return values[r.nextInt(values.length)];
  }

  /**
   * The split finds the fields, their kinds and its give-ups exactly as a byte-by-byte reference
   * does, on random records of delimiters, quotes, doubled quotes, line breaks and text, placed
   * anywhere in an array - at its end too, where the split cannot read 8 bytes at a time.
   */
  @Test
  void splitMatchesAByteByByteReference() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    CsvLayout layout =
        new CsvLayout("t.csv", RandomCsv.TABLE, new int[] {0}, CsvOptions.defaults());
    CsvFieldSplitter p =
        CsvDirectParser.create(layout, RecordLayout.of(RandomCsv.TABLE)).splitter();
    String[] parts = {"a", "bcdefghij", ",", ",", ",", "\"", "\"\"", "\r", "\n", "\"x,y\"", "1.5"};
    for (int round = 0; round < 20_000; round++) {
      StringBuilder rec = new StringBuilder();
      int n = r.nextInt(30);
      for (int i = 0; i < n; i++) {
        rec.append(parts[r.nextInt(parts.length)]);
      }
      byte[] b = rec.toString().getBytes(StandardCharsets.UTF_8);
      int before = r.nextInt(10);
      int after = r.nextInt(3) == 0 ? 0 : r.nextInt(20); // 0: the record ends the array
      byte[] d = new byte[before + b.length + after];
      Arrays.fill(d, (byte) ',');
      System.arraycopy(b, 0, d, before, b.length);
      List<String> want = reference(d, before, before + b.length);
      List<String> got = new ArrayList<>();
      if (p.split(d, before, before + b.length)) {
        for (int f = 0; f < p.fields(); f++) {
          got.add(p.fieldStart(f) + ":" + p.fieldEnd(f) + ":" + p.fieldKind(f));
        }
      } else {
        got = null;
      }
      assertThat(got).as("record %s, %s", rec, Seeds.reproduce(seed, getClass())).isEqualTo(want);
    }
  }

  /** Fields as start:end:kind (0 plain, 1 quoted, 2 with doubled quotes), null to give up. */
  private static List<String> reference(byte[] d, int from, int to) {
    List<String> out = new ArrayList<>();
    int p = from;
    while (true) {
      if (p < to && d[p] == '"') {
        int q = p + 1;
        int kind = 1;
        while (true) {
          while (q < to && d[q] != '"') {
            q++;
          }
          if (q >= to) {
            return null;
          }
          if (q + 1 < to && d[q + 1] == '"') {
            kind = 2;
            q += 2;
            continue;
          }
          break;
        }
        out.add((p + 1) + ":" + q + ":" + kind);
        p = q + 1;
        if (p == to) {
          return out;
        }
        if (d[p] != ',') {
          return null;
        }
        p++;
      } else {
        int s = p;
        while (p < to && d[p] != ',') {
          if (d[p] == '"' || d[p] == '\n' || d[p] == '\r') {
            return null;
          }
          p++;
        }
        out.add(s + ":" + p + ":0");
        if (p == to) {
          return out;
        }
        p++;
      }
    }
  }
}
