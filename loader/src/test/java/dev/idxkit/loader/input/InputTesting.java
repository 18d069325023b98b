package dev.idxkit.loader.input;

import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/** Helpers for the input tests: tables, reading a source whole, records as comparable text. */
final class InputTesting {
  private InputTesting() {}

  static ColumnDef col(String name, ColumnType type) {
    return new ColumnDef(name, type, true);
  }

  static ColumnDef col(String name, TypeKind kind) {
    return col(name, ColumnType.of(kind));
  }

  static ColumnDef notNull(String name, TypeKind kind) {
    return new ColumnDef(name, ColumnType.of(kind), false);
  }

  static TableDef table(String name, ColumnDef... columns) {
    return new TableDef(1, name, List.of(columns), 0);
  }

  /** A file under src/test/resources/input. */
  static Path resource(String name) {
    try {
      return Path.of(InputTesting.class.getResource("/input/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every record of the source, on this thread; closes it. */
  static List<InputRecord> readAll(RowSource source) {
    try (source) {
      List<InputRecord> out = new ArrayList<>();
      new RowReader(source).forEachRemaining(out::add);
      return out;
    }
  }

  /** Every record, parsed on {@code threads} threads through {@link ParallelRowReader}. */
  static List<InputRecord> readParallel(RowSource source, int threads) {
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "input-test-parse-" + n.getAndIncrement());
              t.setDaemon(true);
              return t;
            });
    try (source;
        ParallelRowReader reader = new ParallelRowReader(source, pool, threads * 2)) {
      List<InputRecord> out = new ArrayList<>();
      Batch b;
      while ((b = reader.nextBatch()) != null) {
        out.addAll(b.records());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      pool.shutdownNow();
    }
  }

  /** A record as one line of text that says everything about it; arrays by content. */
  static String text(InputRecord r) {
    if (r instanceof InputRow row) {
      return "row line "
          + row.line()
          + " "
          + values(row.values())
          + " resume "
          + row.resumeOffset()
          + "/"
          + row.resumeLine();
    }
    return r.toString();
  }

  static List<String> texts(List<InputRecord> records) {
    return records.stream().map(InputTesting::text).collect(Collectors.toList());
  }

  /**
   * Asserts that two record lists are the same records - rows by line, resume point and values
   * (Arrays.deepEquals: byte arrays by content, 1 and 1L differ, -0.0 and 0.0 differ, NaN equals
   * NaN), rejects by every field - showing the first difference as text. Cheaper than comparing
   * {@link #texts} for big inputs.
   */
  static void assertSameRecords(List<InputRecord> actual, List<InputRecord> expected, String what) {
    for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
      InputRecord a = actual.get(i);
      InputRecord e = expected.get(i);
      boolean same;
      if (a instanceof InputRow ra && e instanceof InputRow re) {
        same =
            ra.line() == re.line()
                && ra.resumeOffset() == re.resumeOffset()
                && ra.resumeLine() == re.resumeLine()
                && java.util.Arrays.deepEquals(ra.values(), re.values());
      } else {
        same = a.equals(e);
      }
      if (!same) {
        org.assertj.core.api.Assertions.assertThat(text(a))
            .as("record %d; %s", i, what)
            .isEqualTo(text(e));
      }
    }
    org.assertj.core.api.Assertions.assertThat(actual.size())
        .as("records; %s", what)
        .isEqualTo(expected.size());
  }

  /** Values with their classes, byte arrays in hex, so that 1 and 1L differ. */
  static String values(Object[] values) {
    List<String> out = new ArrayList<>();
    for (Object v : values) {
      if (v == null) {
        out.add("null");
      } else if (v instanceof byte[] b) {
        out.add("byte[]:" + HexFormat.of().formatHex(b));
      } else {
        out.add(v.getClass().getSimpleName() + ":" + v);
      }
    }
    return out.toString();
  }

  static List<InputRow> rows(List<InputRecord> records) {
    return records.stream().filter(r -> r instanceof InputRow).map(r -> (InputRow) r).toList();
  }

  static List<RejectedRow> rejects(List<InputRecord> records) {
    return records.stream()
        .filter(r -> r instanceof RejectedRow)
        .map(r -> (RejectedRow) r)
        .toList();
  }

  static void write(Path file, byte[] bytes) {
    try {
      java.nio.file.Files.write(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
