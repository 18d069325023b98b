package dev.idxkit.cli.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import dev.idxkit.core.schema.Values;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the rows of a {@code POST /v1/tables/{t}/rows} body: JSON Lines, one object per line, with
 * jackson-core's streaming parser. Blank lines are skipped; lines end with LF (a CR before it is
 * blank space to JSON).
 *
 * <p>The conversions are those of the loader's JSON Lines input ({@code
 * dev.idxkit.loader.input.JsonRowParser}, not public), so a row posted here and a row loaded from a
 * file mean the same:
 *
 * <pre>
 * JSON            column types it can fill
 * null            any nullable column (an absent field is NULL too)
 * string          any: parsed by Values.parse ("2024-01-31", "12.50", "\\x0a0b", "NaN")
 * number          BIGINT/INT/SMALLINT (exact: 5 and 5.0, not 5.5), DECIMAL (exact at the
 *                 scale, from the number's own digits), DOUBLE
 * true / false    BOOLEAN
 * object / array  none
 * </pre>
 *
 * Fields map to columns by name (exactly, else ignoring case). An unknown field, a field given
 * twice, a missing NOT NULL column, a value that does not fit, or a line that is not one JSON
 * object is an {@link InvalidInputException} naming the line (1-based) and the column. Not
 * thread-safe: one reader per request.
 */
final class JsonRowReader {
  private static final JsonFactory FACTORY =
      JsonFactory.builder().disable(StreamReadFeature.AUTO_CLOSE_SOURCE).build();

  private final TableDef table;
  private final ColumnDef[] columns;
  private final Map<String, Integer> byName = new HashMap<>();
  private final boolean[] seen;
  private final byte[] body;
  private int pos;
  private long line;

  JsonRowReader(TableDef table, byte[] body) {
    this.table = table;
    this.columns = table.columns().toArray(new ColumnDef[0]);
    for (int i = 0; i < columns.length; i++) {
      byName.put(columns[i].name(), i);
      byName.putIfAbsent(columns[i].name().toLowerCase(Locale.ROOT), i);
    }
    this.seen = new boolean[columns.length];
    this.body = body;
  }

  /** The 1-based line of the row last returned. */
  long line() {
    return line;
  }

  /** The next row's values in column order, or null at the end of the body. */
  Object[] next() {
    while (pos < body.length) {
      int end = pos;
      while (end < body.length && body[end] != '\n') {
        end++;
      }
      int from = pos;
      pos = end + 1;
      line++;
      if (!blank(from, end)) {
        return parse(from, end);
      }
    }
    return null;
  }

  private boolean blank(int from, int to) {
    for (int i = from; i < to; i++) {
      byte b = body[i];
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  private Object[] parse(int from, int to) {
    try (JsonParser p = FACTORY.createParser(body, from, to - from)) {
      JsonToken t = p.nextToken();
      if (t != JsonToken.START_OBJECT) {
        throw bad("expected a JSON object, found " + describe(t));
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
          throw bad(
              "unknown field \"" + name + "\": table " + table.name() + " has no such column");
        }
        if (seen[c]) {
          throw bad("field \"" + name + "\" appears twice");
        }
        seen[c] = true;
        values[c] = value(columns[c], p.nextToken(), p);
      }
      if (p.nextToken() != null) {
        throw bad("more than one JSON value on the line");
      }
      for (int c = 0; c < columns.length; c++) {
        if (!seen[c] && !columns[c].nullable()) {
          throw bad("missing field for NOT NULL column " + columns[c].name());
        }
      }
      return values;
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : " at column " + e.getLocation().getColumnNr();
      throw bad("invalid JSON" + where + ": " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IllegalStateException("reading a byte array cannot fail", e);
    }
  }

  private Object value(ColumnDef col, JsonToken t, JsonParser p) throws IOException {
    TypeKind kind = col.type().kind();
    try {
      switch (t) {
        case VALUE_NULL:
          return Values.coerce(col, null);
        case VALUE_STRING:
          return Values.parse(col, p.getText());
        case VALUE_NUMBER_INT:
        case VALUE_NUMBER_FLOAT:
          switch (kind) {
            case BIGINT:
            case INT:
            case SMALLINT:
              return t == JsonToken.VALUE_NUMBER_INT
                  ? Values.parse(col, p.getText())
                  : Values.coerce(col, p.getDecimalValue()); // 5.0 fits, 5.5 does not
            case DECIMAL:
              return Values.parse(col, p.getText());
            case DOUBLE:
              return p.getDoubleValue();
            default:
              throw bad(col, "a JSON number cannot fill it; write the value as a string");
          }
        case VALUE_TRUE:
        case VALUE_FALSE:
          if (kind == TypeKind.BOOLEAN) {
            return t == JsonToken.VALUE_TRUE;
          }
          throw bad(col, "a JSON boolean cannot fill it");
        default:
          throw bad(col, "nested JSON " + describe(t) + "s are not supported");
      }
    } catch (Values.InvalidValueException e) {
      throw bad(e.getMessage());
    }
  }

  private InvalidInputException bad(String why) {
    return new InvalidInputException("line " + line + ": " + why);
  }

  private InvalidInputException bad(ColumnDef col, String why) {
    return bad("column " + col.name() + " " + col.type().sql() + ": " + why);
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
