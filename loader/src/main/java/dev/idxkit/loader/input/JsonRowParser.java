package dev.idxkit.loader.input;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import dev.idxkit.core.schema.Values;
import dev.idxkit.core.schema.Values.InvalidValueException;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Turns one JSON Lines line into a row with jackson-core's streaming parser.
 *
 * <p>The line must hold exactly one JSON object. Its fields map to columns by name - exactly, else
 * ignoring case; a field naming no column rejects the line unless {@link
 * JsonLinesOptions#ignoreUnknownFields()}; a field given twice rejects it; a column with no field
 * is NULL (rejected if NOT NULL). Values convert by JSON type:
 *
 * <pre>
 * JSON            column types it can fill
 * null            any nullable column
 * string          any: parsed as text by Values.parse ("2024-01-31", "12.50", "\\x0a0b", "NaN")
 * number          BIGINT/INT/SMALLINT (exact: 5 and 5.0, not 5.5), DECIMAL (exact at the
 *                 scale, from the number's own digits, never through a double), DOUBLE
 * true / false    BOOLEAN
 * object / array  none: nested values are rejected
 * </pre>
 *
 * <p>Every line is first checked to be UTF-8 (as CSV is) so that a bad byte is reported the same
 * way whatever jackson would make of it. One parser per {@link JsonLinesReader}; not thread-safe.
 */
final class JsonRowParser {
  private static final JsonFactory FACTORY =
      JsonFactory.builder().disable(StreamReadFeature.AUTO_CLOSE_SOURCE).build();

  private final TableDef table;
  private final ColumnDef[] columns;
  private final boolean ignoreUnknown;
  private final Map<String, Integer> byName = new HashMap<>();
  private final boolean[] seen;

  /** Why a field does not fit, as a checked exception to unwind the object loop. */
  private static final class FieldError extends Exception {
    private static final long serialVersionUID = 1L;
    final String column;
    final String raw;

    FieldError(String column, String raw, String reason) {
      super(reason, null, false, false);
      this.column = column;
      this.raw = raw;
    }
  }

  JsonRowParser(TableDef table, JsonLinesOptions options) {
    this.table = table;
    this.columns = table.columns().toArray(new ColumnDef[0]);
    this.ignoreUnknown = options.ignoreUnknownFields();
    for (int i = 0; i < columns.length; i++) {
      byName.put(columns[i].name(), i);
      byName.putIfAbsent(columns[i].name().toLowerCase(Locale.ROOT), i);
    }
    this.seen = new boolean[columns.length];
  }

  /**
   * Parses {@code b[from, to)} (a line without its LF) that starts at file offset {@code offset} on
   * line {@code line}; {@code resumeOffset}/{@code resumeLine} are where the next line starts.
   */
  InputRecord parse(
      byte[] b, int from, int to, long line, long offset, long resumeOffset, long resumeLine) {
    int bad = Utf8.firstInvalid(b, from, to);
    if (bad >= 0) {
      return new RejectedRow(
          line,
          null,
          Utf8.display(b, from, to),
          String.format(
              "not valid UTF-8: byte 0x%02x at file offset %d", b[bad] & 0xFF, offset + bad - from),
          resumeOffset,
          resumeLine);
    }
    try (JsonParser p = FACTORY.createParser(b, from, to - from)) {
      Object[] values = readObject(p);
      return new InputRow(values, line, resumeOffset, resumeLine);
    } catch (FieldError e) {
      // A problem of the whole line (not an object, unknown field) shows the line.
      String raw = e.column == null ? Utf8.display(b, from, to) : e.raw;
      return new RejectedRow(line, e.column, raw, e.getMessage(), resumeOffset, resumeLine);
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : " at column " + e.getLocation().getColumnNr();
      return new RejectedRow(
          line,
          null,
          Utf8.display(b, from, to),
          "invalid JSON" + where + ": " + e.getOriginalMessage(),
          resumeOffset,
          resumeLine);
    } catch (IOException e) {
      throw new IllegalStateException("reading a byte array cannot fail", e);
    }
  }

  private Object[] readObject(JsonParser p) throws IOException, FieldError {
    JsonToken t = p.nextToken();
    if (t != JsonToken.START_OBJECT) {
      throw new FieldError(null, p.getText(), "expected a JSON object, found " + describe(t));
    }
    Object[] values = new Object[columns.length];
    Arrays.fill(seen, false);
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      Integer c = byName.get(name);
      if (c == null) {
        c = byName.get(name.toLowerCase(Locale.ROOT));
      }
      if (c == null) {
        if (ignoreUnknown) {
          p.nextToken();
          p.skipChildren();
          continue;
        }
        throw new FieldError(
            null,
            name,
            "unknown field \"" + name + "\": table " + table.name() + " has no such column");
      }
      if (seen[c]) {
        throw new FieldError(columns[c].name(), name, "field \"" + name + "\" appears twice");
      }
      seen[c] = true;
      values[c] = value(columns[c], p.nextToken(), p);
    }
    if (p.nextToken() != null) {
      throw new FieldError(null, p.getText(), "more than one JSON value on the line");
    }
    for (int c = 0; c < columns.length; c++) {
      if (!seen[c] && !columns[c].nullable()) {
        throw new FieldError(
            columns[c].name(), null, "missing field for NOT NULL column " + columns[c].name());
      }
    }
    return values;
  }

  private static Object value(ColumnDef col, JsonToken t, JsonParser p)
      throws IOException, FieldError {
    TypeKind kind = col.type().kind();
    try {
      switch (t) {
        case VALUE_NULL:
          return Values.coerce(col, null);
        case VALUE_STRING:
          if (kind == TypeKind.VARCHAR || kind == TypeKind.TEXT) {
            return Values.parse(col, p.getText());
          }
          return Values.parse(col, p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        case VALUE_NUMBER_INT:
        case VALUE_NUMBER_FLOAT:
          switch (kind) {
            case BIGINT:
            case INT:
            case SMALLINT:
              if (t == JsonToken.VALUE_NUMBER_INT) {
                return Values.parse(
                    col, p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
              }
              return Values.coerce(col, p.getDecimalValue()); // 5.0 fits, 5.5 does not
            case DECIMAL:
              return Values.parse(col, p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            case DOUBLE:
              return p.getDoubleValue();
            default:
              throw new FieldError(
                  col.name(),
                  p.getText(),
                  "a JSON number cannot fill a "
                      + col.type().sql()
                      + " column; write it as a string");
          }
        case VALUE_TRUE:
        case VALUE_FALSE:
          if (kind == TypeKind.BOOLEAN) {
            return t == JsonToken.VALUE_TRUE;
          }
          throw new FieldError(
              col.name(),
              p.getText(),
              "a JSON boolean cannot fill a " + col.type().sql() + " column");
        case START_OBJECT:
        case START_ARRAY:
          throw new FieldError(
              col.name(),
              t == JsonToken.START_OBJECT ? "{...}" : "[...]",
              "nested JSON " + describe(t) + "s are not supported");
        default:
          throw new FieldError(col.name(), p.getText(), "unexpected " + describe(t));
      }
    } catch (InvalidValueException e) {
      String raw = t == JsonToken.VALUE_NULL ? null : p.getText();
      throw new FieldError(col.name(), raw, e.reason());
    }
  }

  private static String describe(JsonToken t) {
    if (t == null) {
      return "nothing";
    }
    switch (t) {
      case START_OBJECT:
        return "object";
      case START_ARRAY:
        return "array";
      case VALUE_STRING:
        return "string";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return "number";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "boolean";
      case VALUE_NULL:
        return "null";
      default:
        return t.name();
    }
  }
}
