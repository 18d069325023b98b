package dev.idxkit.spark;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Which DataFrame column feeds which table column, and how a Spark value becomes an idxkit value.
 * Built on the driver (where a schema that does not match the DDL fails before any task runs),
 * carried to the executors.
 *
 * <p>Type mapping (Spark type of the DataFrame column -> idxkit column type):
 *
 * <pre>
 * LongType -> BIGINT      IntegerType -> INT      ShortType -> SMALLINT   DoubleType -> DOUBLE
 * DecimalType -> DECIMAL(p,s) (rescaled exactly; a value that needs rounding is refused)
 * StringType -> VARCHAR, TEXT                     BinaryType -> VARBINARY BooleanType -> BOOLEAN
 * DateType -> DATE (java.sql.Date or LocalDate)   TimestampNTZType -> TIMESTAMP (as is)
 * TimestampType -> TIMESTAMP (the instant in UTC)
 * </pre>
 *
 * Columns match by name, ignoring case, in any order; every table column must be there and no
 * other. A DataFrame column may be nullable for a NOT NULL table column: nulls are refused per row.
 */
final class RowMapping implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String table;
  private final String[] names;
  // ColumnType is not Serializable; a task needs only each column's kind, scale and SQL name.
  private final TypeKind[] kinds;
  private final int[] scales;
  private final String[] sqlTypes;
  private final int[] source; // table column -> DataFrame column
  private final int offset;

  private RowMapping(String table, String[] names, ColumnType[] types, int[] source, int offset) {
    this.table = table;
    this.names = names;
    this.kinds = new TypeKind[types.length];
    this.scales = new int[types.length];
    this.sqlTypes = new String[types.length];
    for (int c = 0; c < types.length; c++) {
      kinds[c] = types[c].kind();
      scales[c] = types[c].scale();
      sqlTypes[c] = types[c].sql();
    }
    this.source = source;
    this.offset = offset;
  }

  private RowMapping(RowMapping m, int offset) {
    this.table = m.table;
    this.names = m.names;
    this.kinds = m.kinds;
    this.scales = m.scales;
    this.sqlTypes = m.sqlTypes;
    this.source = m.source;
    this.offset = offset;
  }

  /** Checks {@code schema} against {@code table}; the first problem is one clear error. */
  static RowMapping of(StructType schema, TableDef table) {
    List<String> problems = new ArrayList<>();
    List<ColumnDef> cols = table.columns();
    int[] source = new int[cols.size()];
    String[] names = new String[cols.size()];
    ColumnType[] types = new ColumnType[cols.size()];
    StructField[] fields = schema.fields();
    boolean[] seen = new boolean[fields.length];
    for (int c = 0; c < cols.size(); c++) {
      ColumnDef col = cols.get(c);
      names[c] = col.name();
      types[c] = col.type();
      int f = find(fields, col.name());
      if (f < 0) {
        problems.add("column " + col.name() + " (" + col.type().sql() + ") is missing");
        continue;
      }
      seen[f] = true;
      source[c] = f;
      DataType dt = fields[f].dataType();
      if (!compatible(dt, col.type())) {
        problems.add(
            "column "
                + col.name()
                + " is "
                + dt.simpleString()
                + " (expected: "
                + expected(col.type())
                + " for "
                + col.type().sql()
                + ")");
      }
    }
    for (int f = 0; f < fields.length; f++) {
      if (!seen[f]) {
        problems.add("column " + fields[f].name() + " is not in table " + table.name());
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidInputException(
          "the DataFrame does not match table "
              + table.name()
              + ": "
              + String.join("; ", problems));
    }
    return new RowMapping(table.name(), names, types, source, 0);
  }

  /** The same mapping for rows that carry {@code extra} leading columns (the encoded key). */
  RowMapping shifted(int extra) {
    return new RowMapping(this, offset + extra);
  }

  int columnCount() {
    return names.length;
  }

  String columnName(int c) {
    return names[c];
  }

  /** The values of {@code row} in table-column order, as idxkit's types. */
  Object[] values(Row row) {
    Object[] out = new Object[names.length];
    for (int c = 0; c < out.length; c++) {
      out[c] = value(row, c);
    }
    return out;
  }

  /** Table column {@code c} of {@code row} as an idxkit value (null stays null). */
  Object value(Row row, int c) {
    int f = source[c] + offset;
    if (row.isNullAt(f)) {
      return null;
    }
    Object v = row.get(f);
    return switch (kinds[c]) {
      case BIGINT, INT, SMALLINT, DOUBLE, BOOLEAN, VARCHAR, TEXT, VARBINARY -> v;
      case DECIMAL -> rescale((BigDecimal) v, c);
      case DATE -> v instanceof LocalDate d ? d : ((java.sql.Date) v).toLocalDate();
      case TIMESTAMP -> timestamp(v);
    };
  }

  private BigDecimal rescale(BigDecimal v, int c) {
    try {
      return v.setScale(scales[c], RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new InvalidInputException(
          "column "
              + names[c]
              + ": "
              + v.toPlainString()
              + " has more than "
              + scales[c]
              + " decimal places (expected: "
              + sqlTypes[c]
              + ")");
    }
  }

  private static LocalDateTime timestamp(Object v) {
    if (v instanceof LocalDateTime t) {
      return t;
    }
    Instant i = v instanceof Instant in ? in : ((java.sql.Timestamp) v).toInstant();
    return LocalDateTime.ofInstant(i, ZoneOffset.UTC);
  }

  private static int find(StructField[] fields, String name) {
    for (int f = 0; f < fields.length; f++) {
      if (fields[f].name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    return -1;
  }

  private static boolean compatible(DataType dt, ColumnType t) {
    return switch (t.kind()) {
      case BIGINT -> dt.equals(DataTypes.LongType);
      case INT -> dt.equals(DataTypes.IntegerType);
      case SMALLINT -> dt.equals(DataTypes.ShortType);
      case DOUBLE -> dt.equals(DataTypes.DoubleType);
      case DECIMAL -> dt instanceof DecimalType;
      case VARCHAR, TEXT -> dt.equals(DataTypes.StringType);
      case VARBINARY -> dt.equals(DataTypes.BinaryType);
      case BOOLEAN -> dt.equals(DataTypes.BooleanType);
      case DATE -> dt.equals(DataTypes.DateType);
      case TIMESTAMP -> dt.equals(DataTypes.TimestampNTZType) || dt.equals(DataTypes.TimestampType);
    };
  }

  private static String expected(ColumnType t) {
    return switch (t.kind()) {
      case BIGINT -> "bigint";
      case INT -> "int";
      case SMALLINT -> "smallint";
      case DOUBLE -> "double";
      case DECIMAL -> "decimal";
      case VARCHAR, TEXT -> "string";
      case VARBINARY -> "binary";
      case BOOLEAN -> "boolean";
      case DATE -> "date";
      case TIMESTAMP -> "timestamp_ntz or timestamp";
    };
  }

  /** The Spark type a table column reads back as. */
  static DataType sparkType(ColumnType t) {
    return switch (t.kind()) {
      case BIGINT -> DataTypes.LongType;
      case INT -> DataTypes.IntegerType;
      case SMALLINT -> DataTypes.ShortType;
      case DOUBLE -> DataTypes.DoubleType;
      case DECIMAL -> DataTypes.createDecimalType(t.precision(), t.scale());
      case VARCHAR, TEXT -> DataTypes.StringType;
      case VARBINARY -> DataTypes.BinaryType;
      case BOOLEAN -> DataTypes.BooleanType;
      case DATE -> DataTypes.DateType;
      case TIMESTAMP -> DataTypes.TimestampNTZType;
    };
  }
}
