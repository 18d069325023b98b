package dev.idxkit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Streaming comparisons of databases (two cursors side by side, nothing held in memory): tables row
 * for row in heap order, and indexes entry for entry in index order, each entry compared by the
 * whole row it points at. RIDs are not compared: a merged database and a load put rows on different
 * pages; what must agree is which rows each index holds and in which order.
 */
final class SameContent {
  private SameContent() {}

  /** Every table and every active index of {@code expected} equals {@code actual}'s. */
  static void assertSameDatabase(Database actual, Database expected) {
    for (var t : expected.tables()) {
      assertSameRows(
          () -> cursor(actual.table(t.name()).scan()), () -> cursor(t.scan()), "table " + t.name());
    }
    for (var ix : expected.catalog().indexes()) {
      var e = expected.index(ix.name());
      var a = actual.index(ix.name());
      assertThat(a.isActive()).as("index %s active", ix.name()).isEqualTo(e.isActive());
      if (e.isActive()) {
        assertSameRows(() -> cursor(a.scan()), () -> cursor(e.scan()), "index " + ix.name());
      }
    }
  }

  /** The rows of two streams are equal, in order; returns how many there were. */
  static long assertSameRows(
      Supplier<Iterator<Row>> actual, Supplier<Iterator<Row>> expected, String what) {
    Iterator<Row> a = actual.get();
    Iterator<Row> e = expected.get();
    long n = 0;
    while (e.hasNext()) {
      assertThat(a.hasNext()).as("%s ends after %d rows, expected more", what, n).isTrue();
      Object[] av = a.next().values();
      Object[] ev = e.next().values();
      if (!Arrays.deepEquals(av, ev)) {
        assertThat(Arrays.deepToString(av))
            .as("row %d of %s", n, what)
            .isEqualTo(Arrays.deepToString(ev));
      }
      n++;
    }
    assertThat(a.hasNext()).as("%s has more than the expected %d rows", what, n).isFalse();
    return n;
  }

  /** A cursor's rows, closing it at the end. */
  static Iterator<Row> cursor(RowCursor c) {
    return new Iterator<>() {
      boolean open = true;

      @Override
      public boolean hasNext() {
        boolean h = open && c.hasNext();
        if (!h && open) {
          open = false;
          c.close();
        }
        return h;
      }

      @Override
      public Row next() {
        return c.next();
      }
    };
  }

  /** The rows of several cursors one after another. */
  static Iterator<Row> concat(List<Supplier<Iterator<Row>>> parts) {
    return new Iterator<>() {
      int i = -1;
      Iterator<Row> cur = java.util.Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!cur.hasNext()) {
          if (++i >= parts.size()) {
            return false;
          }
          cur = parts.get(i).get();
        }
        return true;
      }

      @Override
      public Row next() {
        hasNext();
        return cur.next();
      }
    };
  }
}
