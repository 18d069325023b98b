package dev.idxkit.loader.input;

import de.siegmar.fastcsv.reader.CsvCallbackHandler;
import de.siegmar.fastcsv.reader.RecordType;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.Values;
import dev.idxkit.core.schema.Values.InvalidValueException;

/**
 * Receives fastcsv's fields as they are found and converts each straight into its column's value
 * with {@link Values#parse(ColumnDef, char[], int, int)}, from fastcsv's own buffer: no String per
 * field except for text columns. One per parsing thread; after each record, the fields tell whether
 * it became a row ({@link #values()}) or why not.
 *
 * <p>NULL: see {@link CsvOptions}. A quoted field is never NULL.
 */
final class CsvRowHandler extends CsvCallbackHandler<CsvRowHandler> {
  private final ColumnDef[] columns;
  private final int[] fieldColumns;
  private final int columnCount;
  private final char[] nullMarker;

  private Object[] values;
  private int fields;
  private long startingLine;
  private RecordType recordType;
  private boolean lastFieldEmpty;
  private String errorColumn;
  private String errorValue;
  private String errorReason;

  CsvRowHandler(CsvLayout layout) {
    this.columns = layout.table().columns().toArray(new ColumnDef[0]);
    this.fieldColumns = layout.fieldColumns();
    this.columnCount = columns.length;
    String marker = layout.options().nullMarker();
    this.nullMarker = marker == null ? null : marker.toCharArray();
  }

  @Override
  protected void beginRecord(long startingLineNumber) {
    startingLine = startingLineNumber;
    values = new Object[columnCount];
    fields = 0;
    recordType = RecordType.DATA;
    errorReason = null;
    errorColumn = null;
    errorValue = null;
  }

  @Override
  protected void addField(char[] buf, int offset, int len, boolean quoted) {
    int f = fields++;
    lastFieldEmpty = len == 0 && !quoted;
    if (f >= fieldColumns.length || errorReason != null) {
      return; // a count mismatch is reported by the chunk; the first bad value wins
    }
    int c = fieldColumns[f];
    ColumnDef col = columns[c];
    try {
      if (!quoted && isNull(buf, offset, len)) {
        values[c] = Values.coerce(col, null); // null, or refused by a NOT NULL column
      } else {
        values[c] = Values.parse(col, buf, offset, len);
      }
    } catch (InvalidValueException e) {
      errorColumn = col.name();
      errorValue = new String(buf, offset, len);
      errorReason = e.reason();
    }
  }

  private boolean isNull(char[] buf, int offset, int len) {
    if (nullMarker == null) {
      return len == 0;
    }
    if (len != nullMarker.length) {
      return false;
    }
    for (int i = 0; i < len; i++) {
      if (buf[offset + i] != nullMarker[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  protected void setComment(char[] buf, int offset, int len) {
    throw new IllegalStateException("comments are not enabled"); // fastcsv is built without them
  }

  @Override
  protected void setEmpty() {
    recordType = RecordType.EMPTY;
  }

  @Override
  protected RecordType getRecordType() {
    return recordType;
  }

  @Override
  protected int getFieldCount() {
    return fields;
  }

  @Override
  protected CsvRowHandler buildRecord() {
    return this;
  }

  /** The converted values of the last record, in table column order. */
  Object[] values() {
    return values;
  }

  /** fastcsv's line number of the last record, counted from the start of its segment. */
  long startingLine() {
    return startingLine;
  }

  boolean isEmptyLine() {
    return recordType == RecordType.EMPTY;
  }

  int fields() {
    return fields;
  }

  boolean lastFieldEmpty() {
    return lastFieldEmpty;
  }

  /** Null if every value converted; else the first failure's reason. */
  String errorReason() {
    return errorReason;
  }

  String errorColumn() {
    return errorColumn;
  }

  String errorValue() {
    return errorValue;
  }
}
