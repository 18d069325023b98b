package dev.idxkit.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TypeKind;
import dev.idxkit.core.testing.Seeds;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordWriter} gives byte for byte the record {@link RecordLayout#encode} gives, on random
 * layouts of every type, columns set in random order through the typed setters where they apply and
 * through {@link RecordWriter#set} otherwise, NULLs left unset, long text forcing wide offsets, and
 * one writer reused row after row.
 */
class RecordWriterTest {
  @Test
  void writerRecordsEqualEncodedRecords() {
    long seed = Seeds.seed();
    String reproduce = Seeds.reproduce(seed, getClass());
    SplittableRandom rnd = Seeds.random(seed);
    RandomValues values = new RandomValues(rnd);
    GrowableBytes out = new GrowableBytes(0);
    for (int l = 0; l < 150; l++) {
      List<ColumnType> types = new ArrayList<>();
      int n = 1 + rnd.nextInt(12);
      for (int i = 0; i < n; i++) {
        types.add(values.type());
      }
      RecordLayout layout = new RecordLayout(types);
      RecordWriter writer = layout.writer();
      for (int r = 0; r < 40; r++) {
        Object[] row = new Object[n];
        for (int i = 0; i < n; i++) {
          row[i] =
              types.get(i).kind() == TypeKind.TEXT && rnd.nextInt(50) == 0
                  ? values.longString(rnd.nextInt(70_000))
                  : values.value(types.get(i), 0.2);
        }
        writer.begin();
        for (int i : order(n, rnd)) {
          if (row[i] != null || rnd.nextBoolean()) { // a NULL is either left unset or set
            set(writer, types.get(i), i, row[i], rnd);
          }
        }
        writer.finish(out);
        assertThat(HexFormat.of().formatHex(out.array(), 0, out.length()))
            .as("%s row %s; %s", types, Arrays.deepToString(row), reproduce)
            .isEqualTo(HexFormat.of().formatHex(layout.encode(row)));
      }
    }
  }

  private static void set(
      RecordWriter w, ColumnType t, int column, Object v, SplittableRandom rnd) {
    if (v == null || rnd.nextInt(4) == 0) {
      w.set(column, v);
      return;
    }
    switch (t.kind()) {
      case BIGINT -> w.setLong(column, (Long) v);
      case INT -> w.setInt(column, (Integer) v);
      case SMALLINT -> w.setShort(column, (Short) v);
      case DATE -> w.setEpochDay(column, (int) ((LocalDate) v).toEpochDay());
      case DECIMAL -> {
        if (t.precision() <= 18) {
          w.setDecimal(column, ((BigDecimal) v).setScale(t.scale()).unscaledValue().longValue());
        } else {
          w.set(column, v);
        }
      }
      case VARCHAR, TEXT -> {
        byte[] b = ((String) v).getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[b.length + 3];
        System.arraycopy(b, 0, padded, 2, b.length);
        w.setBytes(column, padded, 2, b.length);
      }
      case VARBINARY -> w.setBytes(column, (byte[]) v, 0, ((byte[]) v).length);
      default -> w.set(column, v);
    }
  }

  private static int[] order(int n, SplittableRandom rnd) {
    int[] o = new int[n];
    for (int i = 0; i < n; i++) {
      o[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = o[i];
      o[i] = o[j];
      o[j] = t;
    }
    return o;
  }
}
