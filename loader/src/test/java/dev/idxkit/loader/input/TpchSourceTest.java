package dev.idxkit.loader.input;

import static dev.idxkit.loader.input.InputTesting.readAll;
import static dev.idxkit.loader.input.InputTesting.readParallel;
import static dev.idxkit.loader.input.InputTesting.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import dev.idxkit.core.schema.Values;
import io.trino.tpch.TpchEntity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * TPC-H rows: the spec's row counts, the same content however the table is split into parts, and
 * values that match the generator's own text form and fit the declared types.
 */
class TpchSourceTest {
  static final double SF = 0.01;

  @Test
  void rowCountsAtScaleFactorOneHundredthMatchTheSpec() {
    Map<TpchSchema, Long> expected =
        Map.of(
            TpchSchema.REGION, 5L,
            TpchSchema.NATION, 25L,
            TpchSchema.SUPPLIER, 100L,
            TpchSchema.CUSTOMER, 1_500L,
            TpchSchema.PART, 2_000L,
            TpchSchema.PARTSUPP, 8_000L,
            TpchSchema.ORDERS, 15_000L,
            TpchSchema.LINEITEM, 60_175L);
    for (TpchSchema t : TpchSchema.values()) {
      TpchOptions options = TpchOptions.scale(SF).withRowsPerChunk(2_000);
      List<InputRecord> rows = readParallel(TpchSource.open(t, options, null), 2);
      assertThat((long) rows.size()).as(t.tableName()).isEqualTo(expected.get(t));
      assertThat(t.rowCount(SF)).as(t.tableName()).isEqualTo(expected.get(t));
      assertThat(InputTesting.rejects(rows)).isEmpty();
      assertThat(rows.get(rows.size() - 1).line()).isEqualTo(expected.get(t));
    }
  }

  @Test
  void lineitemAtScaleFactorOneHasTheSpecsRowCount() {
    // Replays the line-count stream over 1.5 million orders; generating would take 20 s.
    assertThat(TpchSchema.LINEITEM.rowCount(1)).isEqualTo(6_001_215L);
    assertThat(TpchSchema.ORDERS.rowCount(1)).isEqualTo(1_500_000L);
    assertThat(TpchSchema.PARTSUPP.rowCount(1)).isEqualTo(800_000L);
  }

  @Test
  void replayedLineitemCountsMatchTheGeneratorForEveryPart() {
    for (int partCount : new int[] {1, 3, 7}) {
      for (int part = 1; part <= partCount; part++) {
        long generated = 0;
        for (TpchEntity ignored : TpchSchema.LINEITEM.generator(SF, part, partCount)) {
          generated++;
        }
        assertThat(TpchSchema.LINEITEM.rowsInPart(SF, part, partCount))
            .as("part %d of %d", part, partCount)
            .isEqualTo(generated);
      }
    }
  }

  @Test
  void contentDoesNotDependOnTheSplit() {
    for (TpchSchema t : List.of(TpchSchema.LINEITEM, TpchSchema.PARTSUPP, TpchSchema.NATION)) {
      List<String> onePart =
          texts(readAll(TpchSource.open(t, new TpchOptions(SF, Integer.MAX_VALUE), null)));
      for (int rowsPerChunk : new int[] {997, 7_777}) {
        TpchOptions options = new TpchOptions(SF, rowsPerChunk);
        assertThat(texts(readParallel(TpchSource.open(t, options, null), 3)))
            .as("%s in chunks of %d", t.tableName(), rowsPerChunk)
            .containsExactlyElementsOf(onePart);
      }
    }
  }

  @Test
  void valuesMatchTheGeneratorsTextAndFitTheDeclaredTypes() {
    for (TpchSchema t : TpchSchema.values()) {
      List<ColumnDef> columns = t.columns();
      int checked = 0;
      for (TpchEntity e : t.generator(SF, 1, 1)) {
        Object[] row = t.toRow(e);
        String[] text = e.toLine().split("\\|", -1); // dbgen form: a|b|c|
        assertThat(text).hasSize(columns.size() + 1);
        for (int c = 0; c < columns.size(); c++) {
          ColumnDef col = columns.get(c);
          assertThat(Values.coerce(col, row[c])).isSameAs(row[c]); // the right class, fits
          if (col.type().kind() == TypeKind.DECIMAL) {
            assertThat((BigDecimal) row[c]).isEqualByComparingTo(new BigDecimal(text[c]));
          } else {
            assertThat(Values.format(col.type(), row[c]))
                .as("%s.%s", t.tableName(), col.name())
                .isEqualTo(text[c]);
          }
        }
        if (++checked == 5_000) {
          break;
        }
      }
    }
  }

  @Test
  void producesRowsForTheTargetTablesColumnOrderAndTypes() {
    List<ColumnDef> columns = new ArrayList<>(TpchSchema.REGION.columns());
    java.util.Collections.reverse(columns); // r_comment, r_name, r_regionkey
    columns.set(2, new ColumnDef("R_REGIONKEY", ColumnType.of(TypeKind.INT), false));
    TableDef target = new TableDef(7, "region", columns, 0);
    List<InputRecord> rows =
        readAll(TpchSource.open(TpchSchema.REGION, TpchOptions.scale(1), target));
    assertThat(InputTesting.values(((InputRow) rows.get(1)).values()))
        .startsWith("[String:")
        .endsWith("String:AMERICA, Integer:1]");

    TableDef narrow = new TableDef(7, "region", List.of(TpchSchema.REGION.columns().get(0)), 0);
    assertThatThrownBy(() -> TpchSource.open(TpchSchema.REGION, TpchOptions.scale(1), narrow))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "table region does not match TPC-H region: it lacks r_name, r_comment; expected"
                + " exactly the columns r_regionkey, r_name, r_comment");
    assertThatThrownBy(() -> TpchSchema.of("lineitems"))
        .hasMessageStartingWith("TPC-H table (--tpch) : \"lineitems\" (expected: one of region");
    assertThatThrownBy(() -> TpchOptions.scale(0))
        .hasMessage("scaleFactor (--sf) : 0.0 (expected: > 0, <= 100000)");
  }

  @Test
  void resumePointsPastTheEndAreRefused() {
    assertThatThrownBy(
            () ->
                TpchSource.open(
                    TpchSchema.NATION, TpchOptions.scale(1), null, new ResumePoint(26, 27)))
        .hasMessage("tpch nation sf=1.0: resume point after row 26, but the table has 25 rows");
  }
}
