package dev.idxkit.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TypeKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowWritersTest {
  static final List<ColumnDef> COLS =
      List.of(
          new ColumnDef("id", ColumnType.of(TypeKind.BIGINT), false),
          new ColumnDef("name", ColumnType.varchar(0), true),
          new ColumnDef("amount", ColumnType.decimal(9, 2), true));

  private static String write(RowFormat f, int[] sel, Object[]... rows) {
    StringWriter s = new StringWriter();
    PrintWriter out = new PrintWriter(s);
    RowWriter w = RowWriters.create(f, COLS, sel, out);
    for (Object[] r : rows) {
      w.row(r);
    }
    w.finish();
    return s.toString();
  }

  @Test
  void tableAlignsNumbersRightAndShowsNull() {
    String t =
        write(
            RowFormat.TABLE,
            new int[] {0, 1, 2},
            new Object[] {1L, "a", new BigDecimal("1.50")},
            new Object[] {1234L, null, new BigDecimal("-20.00")});
    assertThat(t)
        .isEqualTo(
            String.join(
                System.lineSeparator(),
                "  id  name  amount",
                "----  ----  ------",
                "   1  a       1.50",
                "1234  NULL  -20.00",
                ""));
  }

  @Test
  void tableWidthsComeFromTheFirstRowsThenStream() {
    Object[][] rows = new Object[RowWriters.TABLE_SAMPLE_ROWS + 1][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = new Object[] {(long) i, "n", null};
    }
    rows[rows.length - 1] = new Object[] {1L, "a much longer name", null};
    String[] lines = write(RowFormat.TABLE, new int[] {1, 0}, rows).split("\\R");
    assertThat(lines[0]).isEqualTo("name   id");
    assertThat(lines[lines.length - 1]).isEqualTo("a much longer name    1");
  }

  @Test
  void tableShowsControlCharactersEscaped() {
    assertThat(RowWriters.visible("plain")).isSameAs("plain");
    assertThat(RowWriters.visible("a\nb\tc\r\u001b[2J")).isEqualTo("a\\nb\\tc\\r\\x1b[2J");
  }

  @Test
  void csvQuotesWhatNeedsItAndKeepsNullApartFromEmpty() {
    String csv =
        write(
            RowFormat.CSV,
            new int[] {0, 1, 2},
            new Object[] {1L, null, null},
            new Object[] {2L, "", new BigDecimal("3.00")},
            new Object[] {3L, "a,\"b\"\r\nc", null});
    assertThat(csv)
        .isEqualTo("id,name,amount\r\n1,,\r\n2,\"\",3.00\r\n3,\"a,\"\"b\"\"\r\nc\",\r\n");
  }

  @Test
  void jsonLinesUseNativeTypes() {
    String js =
        write(
            RowFormat.JSON,
            new int[] {2, 1, 0},
            new Object[] {1L, null, new BigDecimal("10.10")},
            new Object[] {2L, "x\"y", null});
    assertThat(js)
        .isEqualTo(
            "{\"amount\":10.10,\"name\":null,\"id\":1}"
                + System.lineSeparator()
                + "{\"amount\":null,\"name\":\"x\\\"y\",\"id\":2}"
                + System.lineSeparator());
  }
}
