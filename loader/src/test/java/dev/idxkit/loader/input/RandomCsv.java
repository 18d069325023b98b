package dev.idxkit.loader.input;

import static dev.idxkit.loader.input.InputTesting.col;
import static dev.idxkit.loader.input.InputTesting.notNull;

import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import dev.idxkit.core.schema.Values;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Writes a CSV file of random rows with awkward fields - delimiters, quotes and every kind of line
 * break inside quoted fields, supplementary characters, empty strings next to NULLs, needless
 * quoting, CRLF and LF line ends, empty lines - and a few bad values, and remembers what a correct
 * reader must return for each record: the model the chunking tests compare against.
 */
final class RandomCsv {
  static final TableDef TABLE =
      InputTesting.table(
          "awkward",
          notNull("id", TypeKind.BIGINT),
          col("name", ColumnType.varchar(30)),
          col("note", TypeKind.TEXT),
          col("price", ColumnType.decimal(12, 3)),
          col("day", TypeKind.DATE),
          col("ratio", TypeKind.DOUBLE),
          col("flag", TypeKind.BOOLEAN),
          col("at", TypeKind.TIMESTAMP),
          col("raw", TypeKind.VARBINARY));

  /** What the reader must return for one record. */
  record Expected(long line, Object[] values, String badColumn) {}

  final List<Expected> expected = new ArrayList<>();
  final byte[] bytes;

  private final SplittableRandom random;
  private final StringBuilder out = new StringBuilder();
  private long line = 1;

  /** {@code rows} records (about 1 in 200 with a bad value), after a header line. */
  RandomCsv(long seed, int rows) {
    random = new SplittableRandom(seed);
    out.append("id,name,note,price,day,ratio,flag,at,raw");
    endRecord();
    for (int i = 0; i < rows; i++) {
      if (random.nextInt(50) == 0) {
        endRecord(); // an empty line: no record
      }
      record(i);
    }
    bytes = out.toString().getBytes(StandardCharsets.UTF_8);
  }

  Path writeTo(Path dir) {
    Path file = dir.resolve("random.csv");
    InputTesting.write(file, bytes);
    return file;
  }

  private void record(long id) {
    Object[] values = new Object[TABLE.columns().size()];
    values[0] = id;
    long start = line;
    String bad = null;
    out.append(id);
    for (int c = 1; c < values.length; c++) {
      out.append(',');
      ColumnDef col = TABLE.columns().get(c);
      if (random.nextInt(200) == 0
          && col.type().kind() != TypeKind.VARCHAR
          && col.type().kind() != TypeKind.TEXT
          && bad == null) {
        out.append("x1"); // no number, date, boolean or hex starts like that
        bad = col.name();
        continue;
      }
      if (random.nextInt(8) == 0) {
        continue; // empty unquoted field: NULL
      }
      Object v = value(col);
      values[c] = v;
      field(Values.format(col.type(), v));
    }
    expected.add(new Expected(start, values, bad));
    endRecord();
  }

  private Object value(ColumnDef col) {
    switch (col.type().kind()) {
      case VARCHAR:
        return text(random.nextInt(31), 30);
      case TEXT:
        return text(random.nextInt(24), Integer.MAX_VALUE);
      case DECIMAL:
        return BigDecimal.valueOf(random.nextLong(-999_999_999_999L, 1_000_000_000_000L), 3);
      case DATE:
        return LocalDate.ofEpochDay(random.nextInt(-800_000, 3_000_000));
      case DOUBLE:
        switch (random.nextInt(10)) {
          case 0:
            return Double.NaN;
          case 1:
            return -0.0;
          case 2:
            return Double.NEGATIVE_INFINITY;
          default:
            return Double.longBitsToDouble(random.nextLong());
        }
      case BOOLEAN:
        return random.nextBoolean();
      case TIMESTAMP:
        return LocalDateTime.ofEpochSecond(
            random.nextLong(-10_000_000_000L, 100_000_000_000L),
            random.nextInt(1_000_000) * 1000,
            ZoneOffset.UTC);
      case VARBINARY:
        byte[] b = new byte[random.nextInt(8)];
        random.nextBytes(b);
        return b;
      default:
        throw new AssertionError(col);
    }
  }

  private static final String[] PIECES = {
    ",", "\"", "\"\"", "\n", "\r\n", "\r", " ", "\t", "é", "日本", "😀", "𝄞", "a", "b", "c", "x y",
    "\\N",
  };

  /** Up to {@code max} code points, built from awkward pieces. */
  private String text(int pieces, int max) {
    StringBuilder sb = new StringBuilder();
    int codePoints = 0;
    for (int i = 0; i < pieces; i++) {
      String p = PIECES[random.nextInt(PIECES.length)];
      int n = p.codePointCount(0, p.length());
      if (codePoints + n > max) {
        break;
      }
      sb.append(p);
      codePoints += n;
    }
    return sb.toString();
  }

  /** Writes a field, quoted when it must be (and sometimes when it need not be). */
  private void field(String s) {
    boolean mustQuote =
        s.isEmpty()
            || s.indexOf(',') >= 0
            || s.indexOf('"') >= 0
            || s.indexOf('\n') >= 0
            || s.indexOf('\r') >= 0;
    if (mustQuote || random.nextInt(10) == 0) {
      out.append('"').append(s.replace("\"", "\"\"")).append('"');
      line += lineBreaks(s);
    } else {
      out.append(s);
    }
  }

  private void endRecord() {
    out.append(random.nextBoolean() ? "\n" : "\r\n");
    line++;
  }

  /** Physical lines a quoted value adds: LF, CRLF and a lone CR count one each. */
  static int lineBreaks(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n') {
        n++;
      } else if (c == '\r') {
        n++;
        if (i + 1 < s.length() && s.charAt(i + 1) == '\n') {
          i++;
        }
      }
    }
    return n;
  }
}
