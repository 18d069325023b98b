package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.Index;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Helpers for the loader tests: reading tables and indexes whole, rows as comparable text. */
final class LoadTesting {
  private LoadTesting() {}

  /** Every row of the table in heap order. */
  static List<Row> rows(Table t) {
    List<Row> out = new ArrayList<>();
    try (RowCursor c = t.scan()) {
      c.forEachRemaining(out::add);
    }
    return out;
  }

  /** Every row in index order, through the index. */
  static List<Row> rows(Index ix) {
    List<Row> out = new ArrayList<>();
    try (RowCursor c = ix.scan()) {
      c.forEachRemaining(out::add);
    }
    return out;
  }

  /** Values with their classes, byte arrays in hex, so that 1 and 1L differ. */
  static String text(Object[] values) {
    StringBuilder sb = new StringBuilder("[");
    for (Object v : values) {
      if (sb.length() > 1) {
        sb.append(", ");
      }
      if (v == null) {
        sb.append("null");
      } else if (v instanceof byte[] b) {
        sb.append("byte[]:").append(HexFormat.of().formatHex(b));
      } else {
        sb.append(v.getClass().getSimpleName()).append(':').append(v);
      }
    }
    return sb.append(']').toString();
  }

  static List<String> texts(List<Row> rows) {
    return rows.stream().map(r -> text(r.values())).toList();
  }

  /** Asserts the same rows (values, in order) and, if {@code sameRids}, the same RIDs. */
  static void assertSameRows(List<Row> actual, List<Row> expected, boolean sameRids, String what) {
    assertThat(actual.size()).as("rows of %s", what).isEqualTo(expected.size());
    for (int i = 0; i < actual.size(); i++) {
      Row a = actual.get(i);
      Row e = expected.get(i);
      if (!java.util.Arrays.deepEquals(a.values(), e.values())) {
        assertThat(text(a.values())).as("row %d of %s", i, what).isEqualTo(text(e.values()));
      }
      if (sameRids) {
        assertThat(a.rid()).as("RID of row %d of %s", i, what).isEqualTo(e.rid());
      }
    }
  }

  /** A database's whole content: every table's rows and every active index's rows in order. */
  static void assertSameDatabase(Database actual, Database expected, boolean sameRids) {
    for (Table t : expected.tables()) {
      assertSameRows(rows(actual.table(t.name())), rows(t), sameRids, "table " + t.name());
    }
    for (var ix : expected.catalog().indexes()) {
      Index e = expected.index(ix.name());
      Index a = actual.index(ix.name());
      assertThat(a.isActive()).as("index %s active", ix.name()).isEqualTo(e.isActive());
      if (e.isActive()) {
        assertSameRows(rows(a), rows(e), sameRids, "index " + ix.name());
      }
    }
  }

  /** Asserts {@code db.check()} finds nothing. */
  static void assertClean(Database db, String what) {
    assertThat(db.check().problems()).as("check of %s", what).isEmpty();
  }

  /** The reject file's lines without its comments. */
  static List<String> rejectLines(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
          .filter(l -> !l.startsWith("#"))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The input line number of each reject in the reject file of a load of {@code input}. */
  static List<Long> rejectLineNumbers(Path rejects, Path input) {
    String prefix = input + ":";
    return rejectLines(rejects).stream()
        .peek(l -> assertThat(l).startsWith(prefix))
        .map(l -> Long.parseLong(l.substring(prefix.length(), l.indexOf(": ", prefix.length()))))
        .toList();
  }
}
