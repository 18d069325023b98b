package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;

/**
 * A column's SQL type: a {@link TypeKind} plus its parameters.
 *
 * @param kind the type
 * @param length maximum length in characters (VARCHAR) or bytes (VARBINARY); 0 = unbounded
 * @param precision DECIMAL precision, 1..38; 0 for other kinds
 * @param scale DECIMAL scale, 0..precision; 0 for other kinds
 */
public record ColumnType(TypeKind kind, int length, int precision, int scale) {
  public static final int MAX_DECIMAL_PRECISION = 38;

  public ColumnType {
    if (kind == null) {
      throw new NullPointerException("kind");
    }
    if (length < 0) {
      throw new InvalidInputException("length : " + length + " (expected: >= 0)");
    }
    if (kind == TypeKind.DECIMAL) {
      if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
        throw new InvalidInputException(
            "DECIMAL precision : " + precision + " (expected: 1.." + MAX_DECIMAL_PRECISION + ")");
      }
      if (scale < 0 || scale > precision) {
        throw new InvalidInputException(
            "DECIMAL scale : " + scale + " (expected: 0.." + precision + ")");
      }
    } else if (precision != 0 || scale != 0) {
      throw new InvalidInputException(kind + " takes no precision or scale");
    }
  }

  public static ColumnType of(TypeKind kind) {
    return new ColumnType(kind, 0, 0, 0);
  }

  public static ColumnType varchar(int length) {
    return new ColumnType(TypeKind.VARCHAR, length, 0, 0);
  }

  public static ColumnType varbinary(int length) {
    return new ColumnType(TypeKind.VARBINARY, length, 0, 0);
  }

  public static ColumnType decimal(int precision, int scale) {
    return new ColumnType(TypeKind.DECIMAL, 0, precision, scale);
  }

  public boolean isVariableWidth() {
    return kind.isVariableWidth();
  }

  /** Bytes this type takes at its fixed position in a record; 0 for variable-width types. */
  public int fixedWidth() {
    if (kind == TypeKind.DECIMAL) {
      return precision <= 18 ? 8 : 16;
    }
    return kind.width();
  }

  /** The type as SQL DDL spells it, e.g. {@code DECIMAL(12,2)} or {@code VARCHAR(44)}. */
  public String sql() {
    switch (kind) {
      case DECIMAL:
        return "DECIMAL(" + precision + "," + scale + ")";
      case VARCHAR:
      case VARBINARY:
        return length == 0 ? kind.name() : kind.name() + "(" + length + ")";
      default:
        return kind.name();
    }
  }

  @Override
  public String toString() {
    return sql();
  }
}
