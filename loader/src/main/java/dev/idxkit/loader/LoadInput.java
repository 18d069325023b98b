package dev.idxkit.loader;

import dev.idxkit.core.schema.TableDef;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.CsvSource;
import dev.idxkit.loader.input.JsonLinesOptions;
import dev.idxkit.loader.input.JsonLinesSource;
import dev.idxkit.loader.input.ResumePoint;
import dev.idxkit.loader.input.RowSource;
import dev.idxkit.loader.input.TpchOptions;
import dev.idxkit.loader.input.TpchSchema;
import dev.idxkit.loader.input.TpchSource;
import java.nio.file.Path;

/**
 * Where a load's rows come from: opens a {@link RowSource} at the start or at a {@link
 * ResumePoint}, and says what the input is so that a resume can check it is the same one.
 *
 * <p>The identity is what a checkpoint records: for a file its absolute path, size and modification
 * time (milliseconds) and the reading options that change how bytes become rows; for the generator
 * the TPC-H table and scale factor. A resume whose input has another identity is refused, because
 * the recorded byte offset would point into different data.
 */
public interface LoadInput {
  /** For messages: the file path, or {@code tpch lineitem sf=1.0}. */
  String name();

  /** What a checkpoint records and a resume compares; see the class comment. */
  String identity();

  /**
   * True if resume offsets count bytes of the input (files), false if they count rows (the
   * generator); decides whether {@code checkpointBytes} and MB/s apply.
   */
  boolean positionsAreBytes();

  /** The input's size in the unit of its positions (bytes or rows), or -1 if unknown. */
  long size();

  /** Opens the input for {@code table} at {@code from}, or at its start if {@code from} is null. */
  RowSource open(TableDef table, ResumePoint from);

  /** A CSV file; see {@link CsvOptions} for NULL, header and delimiter handling. */
  static LoadInput csv(Path file, CsvOptions options) {
    return new FileInput(
        file,
        "csv",
        "delimiter="
            + show(options.delimiter())
            + " quote="
            + show(options.quote())
            + " header="
            + options.header()
            + " null="
            + (options.nullMarker() == null ? "<empty>" : "\"" + options.nullMarker() + "\"")
            + " trailingDelimiter="
            + options.trailingDelimiter()) {
      @Override
      public RowSource open(TableDef table, ResumePoint from) {
        return CsvSource.open(file, table, options, from);
      }
    };
  }

  /** A JSON Lines file: one object per line, fields matched to columns by name. */
  static LoadInput jsonLines(Path file, JsonLinesOptions options) {
    return new FileInput(file, "jsonl", "ignoreUnknownFields=" + options.ignoreUnknownFields()) {
      @Override
      public RowSource open(TableDef table, ResumePoint from) {
        return JsonLinesSource.open(file, table, options, from);
      }
    };
  }

  /** The built-in TPC-H generator: one table at a scale factor. */
  static LoadInput tpch(TpchSchema table, TpchOptions options) {
    return new LoadInput() {
      @Override
      public String name() {
        return "tpch " + table.tableName() + " sf=" + options.scaleFactor();
      }

      @Override
      public String identity() {
        return "tpch table=" + table.tableName() + " sf=" + options.scaleFactor();
      }

      @Override
      public boolean positionsAreBytes() {
        return false;
      }

      @Override
      public long size() {
        return table.rowCount(options.scaleFactor());
      }

      @Override
      public RowSource open(TableDef target, ResumePoint from) {
        return TpchSource.open(table, options, target, from);
      }

      @Override
      public String toString() {
        return name();
      }
    };
  }

  private static String show(char c) {
    return c == '\t' ? "\\t" : "'" + c + "'";
  }
}
