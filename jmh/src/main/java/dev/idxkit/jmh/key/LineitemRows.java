package dev.idxkit.jmh.key;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.DdlParser;
import dev.idxkit.core.schema.Schema;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TpchDdl;
import dev.idxkit.core.schema.Values;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Lineitem-shaped rows for the key kernels: the TPC-H {@code lineitem} table of {@link TpchDdl},
 * with values in the ranges of the TPC-H specification at scale factor 1 (order keys up to 6
 * million, 200,000 parts, 10,000 suppliers, dates 1992..1998, the spec's ship modes and
 * instructions, comments of 10..43 letters and spaces), drawn from a fixed seed so every run
 * encodes the same keys. Every value goes through {@link Values#coerce}, so a generator mistake
 * fails at set-up instead of skewing a figure.
 *
 * <p>The catalog adds one index to the TPC-H ones, {@value #WIDE_INDEX}: a composite key with a
 * fixed-width string, a DESC date and a variable-width string, the expensive shape for encoding.
 */
public final class LineitemRows {
  public static final String WIDE_INDEX = "lineitem_mode_date_comment_ix";
  static final String WIDE_INDEX_DDL =
      "CREATE INDEX " + WIDE_INDEX + " ON lineitem (l_shipmode, l_shipdate DESC, l_comment)";

  private static final String[] MODES = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
  private static final String[] INSTRUCT = {
    "DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"
  };
  private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz      ";
  private static final LocalDate START = LocalDate.of(1992, 1, 2);
  private static final int DAYS = 2526; // to 1998-12-01

  private LineitemRows() {}

  /** The TPC-H catalog plus {@value #WIDE_INDEX}. */
  public static Catalog catalog() {
    Schema s = DdlParser.apply(TpchDdl.schema(), WIDE_INDEX_DDL, "LineitemRows");
    return new Catalog(s);
  }

  /** {@code n} rows of {@code lineitem} from {@code seed}. */
  public static Object[][] rows(TableDef lineitem, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<ColumnDef> cols = lineitem.columns();
    Object[][] rows = new Object[n][];
    for (int i = 0; i < n; i++) {
      LocalDate ship = START.plusDays(r.nextInt(DAYS - 151));
      Object[] v = {
        1 + r.nextLong(6_000_000L),
        1 + r.nextLong(200_000L),
        1 + r.nextLong(10_000L),
        1 + r.nextInt(7),
        BigDecimal.valueOf(1 + r.nextInt(50)),
        BigDecimal.valueOf(90_000 + r.nextLong(10_500_000L), 2),
        BigDecimal.valueOf(r.nextInt(11), 2),
        BigDecimal.valueOf(r.nextInt(9), 2),
        r.nextBoolean() ? "N" : r.nextBoolean() ? "R" : "A",
        r.nextBoolean() ? "O" : "F",
        ship,
        ship.plusDays(r.nextInt(-60, 61)),
        ship.plusDays(1 + r.nextInt(30)),
        INSTRUCT[r.nextInt(INSTRUCT.length)],
        MODES[r.nextInt(MODES.length)],
        comment(r, 10 + r.nextInt(34))
      };
      if (v.length != cols.size()) {
        throw new IllegalStateException(
            "lineitem has " + cols.size() + " columns (expected: " + v.length + ")");
      }
      for (int c = 0; c < v.length; c++) {
        v[c] = Values.coerce(cols.get(c), v[c]);
      }
      rows[i] = v;
    }
    return rows;
  }

  private static String comment(SplittableRandom r, int len) {
    char[] c = new char[len];
    for (int i = 0; i < len; i++) {
      c[i] = LETTERS.charAt(r.nextInt(LETTERS.length()));
    }
    c[0] = 'x';
    return new String(c);
  }
}
