package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Database;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.Row;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.testing.Seeds;
import dev.idxkit.loader.input.CsvOptions;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CsvExport} writes what the CSV source reads back as the same rows: exact text for a small
 * table, and random tables of every type with hostile strings (delimiters, quotes, CR, LF, spaces,
 * U+FEFF, the NULL marker's text, supplementary characters), with and without a NULL marker.
 */
class CsvExportTest {
  static final String DDL =
      "CREATE TABLE v (id BIGINT NOT NULL, i INT, s SMALLINT, d DOUBLE, m DECIMAL(12,3),"
          + " name VARCHAR(20), note TEXT, day DATE, at TIMESTAMP, ok BOOLEAN, raw VARBINARY(8),"
          + " PRIMARY KEY (id));";

  @TempDir Path tmp;

  @Test
  void writesCanonicalTextNullsAndQuotes() {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute(DDL);
      Table v = db.table("v");
      v.insert(
          1L,
          7,
          (short) -2,
          1.5,
          new BigDecimal("12.300"),
          "a,b",
          "say \"hi\"",
          LocalDate.of(2024, 2, 29),
          LocalDateTime.of(2024, 2, 29, 13, 5, 0, 250_000_000),
          true,
          new byte[] {10, 11});
      v.insert(2L, null, null, null, null, "", null, null, null, null, null);
      v.insert(
          3L,
          0,
          (short) 0,
          -0.0,
          new BigDecimal("-0.001"),
          " padded ",
          "two\nlines",
          LocalDate.of(1, 1, 1),
          LocalDateTime.of(1970, 1, 1, 0, 0),
          false,
          new byte[0]);
      StringWriter out = new StringWriter();
      assertThat(CsvExport.write(db, "v", out, CsvOptions.defaults())).isEqualTo(3);
      assertThat(out.toString())
          .isEqualTo(
              "id,i,s,d,m,name,note,day,at,ok,raw\r\n"
                  + "1,7,-2,1.5,12.300,\"a,b\",\"say \"\"hi\"\"\",2024-02-29,2024-02-29 13:05:00.25,"
                  + "true,\\x0a0b\r\n"
                  + "2,,,,,\"\",,,,,\r\n"
                  + "3,0,0,-0.0,-0.001,\" padded \",\"two\nlines\",0001-01-01,1970-01-01 00:00:00,"
                  + "false,\\x\r\n");
      StringWriter marked = new StringWriter();
      CsvExport.write(
          db,
          "v",
          marked,
          CsvOptions.defaults().withHeader(false).withDelimiter('|').withNullMarker("\\N"));
      assertThat(marked.toString().split("\r\n")[1])
          .isEqualTo("2|\\N|\\N|\\N|\\N|\"\"|\\N|\\N|\\N|\\N|\\N");
    }
  }

  @Test
  void randomTablesRoundTripThroughTheLoader() throws Exception {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    String why = Seeds.reproduce(seed, getClass());
    List<CsvOptions> variants =
        List.of(
            CsvOptions.defaults(),
            CsvOptions.defaults().withNullMarker("\\N").withDelimiter('|').withHeader(false),
            CsvOptions.defaults().withDelimiter(';').withQuote('\'').withTrailingDelimiter(true));
    try (Database db = Database.create(tmp.resolve("src"))) {
      db.execute(DDL);
      Table v = db.table("v");
      try (Transaction t = db.begin()) {
        for (long id = 1; id <= 1500; id++) {
          t.insert(v, randomRow(r, id));
        }
        t.commit();
      }
      List<Row> expected = LoadTesting.rows(v);
      for (int k = 0; k < variants.size(); k++) {
        CsvOptions options = variants.get(k);
        Path csv = tmp.resolve("v" + k + ".csv");
        assertThat(CsvExport.write(db, "v", csv, options)).isEqualTo(1500);
        assertThat(Files.exists(tmp.resolve("v" + k + ".csv.partial"))).isFalse();
        try (Database back = Database.create(tmp.resolve("back" + k))) {
          back.execute(DDL);
          LoadReport report =
              new Loader(
                      back,
                      LoadOptions.of("v", LoadInput.csv(csv, options.withChunkBytes(1024)))
                          .withIndexMode(IndexMode.NONE),
                      null)
                  .run(LoadListener.NONE);
          assertThat(report.rejected())
              .as("%s; variant %d; %s", why, k, report.firstRejects())
              .isZero();
          LoadTesting.assertSameRows(
              LoadTesting.rows(back.table("v")), expected, false, "variant " + k + "; " + why);
        }
      }
    }
  }

  @Test
  void aOneColumnNullableTableNeedsANullMarker() throws Exception {
    try (Database db = Database.create(tmp.resolve("db"))) {
      db.execute("CREATE TABLE one (x VARCHAR(5))");
      db.table("one").insert((Object) null);
      db.table("one").insert("");
      assertThatThrownBy(
              () -> CsvExport.write(db, "one", new StringWriter(), CsvOptions.defaults()))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("NULL marker");
      Path csv = tmp.resolve("one.csv");
      CsvExport.write(db, "one", csv, CsvOptions.defaults().withNullMarker("\\N"));
      assertThat(Files.readString(csv, StandardCharsets.UTF_8)).isEqualTo("x\r\n\\N\r\n\"\"\r\n");
    }
  }

  private static final String[] PIECES = {
    "a", "Z", "0", " ", ",", ";", "|", "'", "\"", "\n", "\r", "\r\n", "\\", "\\N", "N", "é", "日",
    "😀", "\uFEFF", "\t", "x y"
  };

  static Object[] randomRow(SplittableRandom r, long id) {
    return new Object[] {
      id,
      r.nextInt(10) == 0 ? null : r.nextInt(),
      r.nextInt(10) == 0 ? null : (short) r.nextInt(Short.MIN_VALUE, Short.MAX_VALUE + 1),
      r.nextInt(10) == 0 ? null : randomDouble(r),
      r.nextInt(10) == 0
          ? null
          : BigDecimal.valueOf(r.nextLong(-999_999_999_999L, 999_999_999_999L), 3),
      r.nextInt(10) == 0 ? null : randomString(r, 20),
      r.nextInt(10) == 0 ? null : randomString(r, 200),
      r.nextInt(10) == 0 ? null : LocalDate.ofEpochDay(r.nextLong(-700_000, 2_900_000)),
      r.nextInt(10) == 0
          ? null
          : LocalDateTime.of(1970, 1, 1, 0, 0)
              .plus(r.nextLong(-(1L << 50), 1L << 50), java.time.temporal.ChronoUnit.MICROS),
      r.nextInt(10) == 0 ? null : r.nextBoolean(),
      r.nextInt(10) == 0 ? null : randomBytes(r)
    };
  }

  static double randomDouble(SplittableRandom r) {
    return switch (r.nextInt(8)) {
      case 0 -> Double.NaN;
      case 1 -> -0.0;
      case 2 -> r.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
      case 3 -> Double.longBitsToDouble(r.nextLong() & 0x7FEF_FFFF_FFFF_FFFFL);
      default -> (r.nextDouble() - 0.5) * 1e6;
    };
  }

  static String randomString(SplittableRandom r, int maxCodePoints) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(6) == 0 ? 0 : r.nextInt(maxCodePoints / 2 + 1);
    while (sb.codePointCount(0, sb.length()) < n) {
      String p = PIECES[r.nextInt(PIECES.length)];
      if (sb.codePointCount(0, sb.length()) + p.codePointCount(0, p.length()) > maxCodePoints) {
        break;
      }
      sb.append(p);
    }
    return sb.toString();
  }

  static byte[] randomBytes(SplittableRandom r) {
    byte[] b = new byte[r.nextInt(9)];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }
}
