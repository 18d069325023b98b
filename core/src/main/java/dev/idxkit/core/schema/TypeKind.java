package dev.idxkit.core.schema;

/**
 * The SQL column types idxkit stores and indexes, with the Java class a value of each type has in
 * the API.
 *
 * <pre>
 * kind       Java value                 record bytes        key bytes
 * BIGINT     Long                       8                   8
 * INT        Integer                    4                   4
 * SMALLINT   Short                      2                   2
 * DOUBLE     Double                     8                   8
 * DECIMAL    BigDecimal (scale = s)     8 (p<=18), 16 (p<=38)   same
 * VARCHAR    String                     variable (UTF-8)    escaped UTF-8 + terminator
 * TEXT       String                     variable (UTF-8)    escaped UTF-8 + terminator
 * DATE       LocalDate                  4 (epoch day)       4
 * TIMESTAMP  LocalDateTime (micros)     8 (epoch micros)    8
 * BOOLEAN    Boolean                    1                   1
 * VARBINARY  byte[]                     variable            escaped bytes + terminator
 * </pre>
 */
public enum TypeKind {
  BIGINT(Long.class, 8),
  INT(Integer.class, 4),
  SMALLINT(Short.class, 2),
  DOUBLE(Double.class, 8),
  DECIMAL(java.math.BigDecimal.class, -1),
  VARCHAR(String.class, 0),
  TEXT(String.class, 0),
  DATE(java.time.LocalDate.class, 4),
  TIMESTAMP(java.time.LocalDateTime.class, 8),
  BOOLEAN(Boolean.class, 1),
  VARBINARY(byte[].class, 0);

  private final Class<?> javaClass;
  private final int width;

  TypeKind(Class<?> javaClass, int width) {
    this.javaClass = javaClass;
    this.width = width;
  }

  /** The class of a non-null value of this type in the API. */
  public Class<?> javaClass() {
    return javaClass;
  }

  /** True for VARCHAR, TEXT and VARBINARY, stored with a length rather than at a fixed offset. */
  public boolean isVariableWidth() {
    return width == 0;
  }

  /** Fixed width in bytes; 0 for variable-width kinds, -1 when it depends on precision. */
  int width() {
    return width;
  }
}
