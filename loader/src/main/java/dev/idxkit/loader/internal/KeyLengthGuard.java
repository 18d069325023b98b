package dev.idxkit.loader.internal;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Rid;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.KeyEncoder;
import java.util.ArrayList;
import java.util.List;

/**
 * Rejects, at load time, a row whose key would be too long for one of the table's indexes.
 *
 * <p>Why here: a bulk load does not touch the indexes; the deferred build meets the keys only after
 * the last row, and one over-long key would then fail the whole build. Checked while loading, the
 * row is one more reject with its line number. Only indexes whose longest possible key could exceed
 * {@link BTree#maxEntryLength} are checked (key columns of unbounded or long text or binary); for
 * the rest - every TPC-H index - the guard costs nothing.
 *
 * <p>Bound per key column (see {@link KeyEncoder}'s format): 1 marker byte plus the fixed width, or
 * for VARCHAR(n) 4n bytes of UTF-8 (a 0x00 byte, escaped to two, is one of the cheapest characters)
 * plus a 2-byte terminator, for VARBINARY(n) 2n + 2; TEXT and unbounded VARBINARY have no bound.
 */
public final class KeyLengthGuard {
  private final List<IndexInfo> risky;
  private final int maxEntry;

  public KeyLengthGuard(TableInfo table, int pageSize) {
    this.maxEntry = Engine.maxEntryLength(pageSize);
    List<IndexInfo> list = new ArrayList<>();
    for (IndexInfo ix : table.indexes()) {
      if (maxKeyLength(ix) + Rid.BYTES > maxEntry) {
        list.add(ix);
      }
    }
    this.risky = List.copyOf(list);
  }

  /** True if no index can get a key too long: {@link #checker()} need not be called. */
  public boolean nothingToCheck() {
    return risky.isEmpty();
  }

  /** A checker for one thread (key encoders keep scratch space). */
  public Checker checker() {
    return new Checker();
  }

  /** Checks rows against the indexes at risk; not thread-safe. */
  public final class Checker {
    private final KeyEncoder[] encoders = new KeyEncoder[risky.size()];

    Checker() {
      for (int i = 0; i < encoders.length; i++) {
        encoders[i] = risky.get(i).encoder();
      }
    }

    /** Null if every key fits, else the reason to reject the row. */
    public String check(Object[] row) {
      for (int i = 0; i < encoders.length; i++) {
        IndexInfo ix = risky.get(i);
        int len = encoders[i].encode(ix.keyOf(row)).length + Rid.BYTES;
        if (len > maxEntry) {
          // Worded as KeyTooLongException, which live mode's insert throws for the same row.
          return "key too long for index "
              + ix.name()
              + ": "
              + len
              + " bytes with its row id (expected: <= "
              + maxEntry
              + " at this page size)";
        }
      }
      return null;
    }
  }

  static long maxKeyLength(IndexInfo ix) {
    long total = 0;
    for (int c : ix.columns()) {
      ColumnType t = ix.table().columns().get(c).type();
      total += 1;
      switch (t.kind()) {
        case VARCHAR -> total += t.length() > 0 ? 4L * t.length() + 2 : Integer.MAX_VALUE;
        case VARBINARY -> total += t.length() > 0 ? 2L * t.length() + 2 : Integer.MAX_VALUE;
        case TEXT -> total += Integer.MAX_VALUE;
        default -> total += t.fixedWidth();
      }
    }
    return total;
  }
}
