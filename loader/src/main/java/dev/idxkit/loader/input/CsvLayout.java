package dev.idxkit.loader.input;

import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.TableDef;

/**
 * What every chunk of one CSV file needs to turn records into rows: the table, which column each
 * field holds (from the header or by position), and the NULL rule. Immutable; shared by the chunks
 * of a file across threads.
 *
 * @param fieldColumns {@code fieldColumns[f]} is the table column index of field {@code f}
 */
record CsvLayout(String file, TableDef table, int[] fieldColumns, CsvOptions options) {
  int fieldCount() {
    return fieldColumns.length;
  }

  ColumnDef columnOfField(int field) {
    return field < fieldColumns.length ? table.columns().get(fieldColumns[field]) : null;
  }
}
