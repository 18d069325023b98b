package dev.idxkit.loader;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.Values;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.CsvSource;
import dev.idxkit.loader.input.JsonLinesOptions;
import dev.idxkit.loader.input.JsonLinesSource;
import dev.idxkit.loader.input.ResumePoint;
import dev.idxkit.loader.input.RowSource;
import dev.idxkit.loader.input.TpchOptions;
import dev.idxkit.loader.input.TpchSchema;
import dev.idxkit.loader.input.TpchSource;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

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

  /**
   * A row the load already stored, as one record of this input (no line end): what the reject file
   * shows of a row rejected after loading (a duplicate key found by the deferred index build), so
   * that the line can be fixed and loaded again with the same options. A CSV input writes a record
   * of its own CSV (delimiter, quote, NULL marker); a JSON Lines input one object; inputs with no
   * text of their own (the generator) a record of the CSV that {@code idxkit dump} writes.
   */
  default String recordText(List<ColumnDef> columns, Object[] values) {
    return CsvExport.record(columns, values, CsvOptions.defaults());
  }

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

      @Override
      public String recordText(List<ColumnDef> columns, Object[] values) {
        return CsvExport.record(columns, values, options);
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

      @Override
      public String recordText(List<ColumnDef> columns, Object[] values) {
        return jsonRecord(columns, values);
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

  /**
   * {@code {"id":"1","name":"a, \\"b\\"","note":null}}: every value as its canonical text in a JSON
   * string, which the JSON Lines reader parses for any column type, so no type needs its own JSON
   * form.
   */
  private static String jsonRecord(List<ColumnDef> columns, Object[] values) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
      g.writeStartObject();
      for (int i = 0; i < columns.size(); i++) {
        ColumnDef c = columns.get(i);
        g.writeFieldName(c.name());
        if (values[i] == null) {
          g.writeNull();
        } else {
          g.writeString(Values.format(c.type(), values[i]));
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  private static String show(char c) {
    return c == '\t' ? "\\t" : "'" + c + "'";
  }
}
