package dev.idxkit.core.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.sf.jsqlparser.statement.create.table.ColDataType;

/**
 * SQL type names to {@link ColumnType}s.
 *
 * <pre>
 * SQL                                          stored as
 * BIGINT, INT8                                 BIGINT
 * INT, INTEGER, INT4                           INT
 * SMALLINT, INT2                               SMALLINT
 * DOUBLE, DOUBLE PRECISION, FLOAT8,            DOUBLE   (every floating type is an IEEE double:
 *   FLOAT, FLOAT(p) p 1..53, REAL, FLOAT4                 a REAL value is widened, never rounded)
 * DECIMAL(p[,s]), NUMERIC(p[,s])               DECIMAL(p,s), p 1..38, s 0..p, default s = 0
 * DECIMAL, NUMERIC (no precision)              DECIMAL(18,0) as SQL Server: exact integers up to
 *                                              18 digits in the 8-byte form (not PostgreSQL's
 *                                              unbounded numeric, which has no fixed width)
 * VARCHAR(n), CHARACTER VARYING(n)             VARCHAR(n), n 1..10485760; no n = unbounded
 * CHAR(n), CHARACTER(n); no n = 1              VARCHAR(n): values are not padded with blanks
 * TEXT                                         TEXT
 * DATE                                         DATE
 * TIMESTAMP [WITHOUT TIME ZONE]                TIMESTAMP (microseconds, no zone)
 * BOOLEAN, BOOL                                BOOLEAN
 * VARBINARY(n); VARBINARY, BYTEA, BLOB          VARBINARY(n); no n = unbounded
 * </pre>
 */
final class SqlTypes {
  static final String SUPPORTED =
      "BIGINT, INT, SMALLINT, DOUBLE, DECIMAL(p,s), VARCHAR(n), CHAR(n), TEXT, DATE, TIMESTAMP,"
          + " BOOLEAN, VARBINARY(n) (synonyms: INT8, INTEGER, INT4, INT2, DOUBLE PRECISION,"
          + " FLOAT8, FLOAT, REAL, FLOAT4, NUMERIC, CHARACTER VARYING, CHARACTER, BOOL, BYTEA,"
          + " BLOB)";

  static final int DEFAULT_DECIMAL_PRECISION = 18;
  private static final int MAX_FLOAT_PRECISION = 53;

  private enum Family {
    BIGINT,
    INT,
    SMALLINT,
    DOUBLE,
    FLOAT,
    DECIMAL,
    VARCHAR,
    CHAR,
    TEXT,
    DATE,
    TIMESTAMP,
    BOOLEAN,
    VARBINARY,
    BYTES
  }

  private static final Map<String, Family> NAMES =
      Map.ofEntries(
          Map.entry("bigint", Family.BIGINT),
          Map.entry("int8", Family.BIGINT),
          Map.entry("int", Family.INT),
          Map.entry("integer", Family.INT),
          Map.entry("int4", Family.INT),
          Map.entry("smallint", Family.SMALLINT),
          Map.entry("int2", Family.SMALLINT),
          Map.entry("double", Family.DOUBLE),
          Map.entry("double precision", Family.DOUBLE),
          Map.entry("float8", Family.DOUBLE),
          Map.entry("real", Family.DOUBLE),
          Map.entry("float4", Family.DOUBLE),
          Map.entry("float", Family.FLOAT),
          Map.entry("decimal", Family.DECIMAL),
          Map.entry("numeric", Family.DECIMAL),
          Map.entry("varchar", Family.VARCHAR),
          Map.entry("character varying", Family.VARCHAR),
          Map.entry("char", Family.CHAR),
          Map.entry("character", Family.CHAR),
          Map.entry("text", Family.TEXT),
          Map.entry("date", Family.DATE),
          Map.entry("timestamp", Family.TIMESTAMP),
          Map.entry("timestamp without time zone", Family.TIMESTAMP),
          Map.entry("boolean", Family.BOOLEAN),
          Map.entry("bool", Family.BOOLEAN),
          Map.entry("varbinary", Family.VARBINARY),
          Map.entry("bytea", Family.BYTES),
          Map.entry("blob", Family.BYTES));

  /** A resolved type and the index of the first token after it in the column definition. */
  record Resolved(ColumnType type, int next) {}

  private SqlTypes() {}

  /**
   * Resolves the type of a column definition. {@code typeAt} is the index of the type's first token
   * in {@code st}, {@code end} the end of the column definition; errors point at the type name or
   * at the offending argument.
   */
  static Resolved resolve(ColDataType d, StatementTokens st, int typeAt, int end) {
    String raw = d.getDataType().trim();
    int paren = raw.indexOf('(');
    String name = (paren < 0 ? raw : raw.substring(0, paren)).trim().replaceAll("\\s+", " ");
    List<String> args = new ArrayList<>();
    if (paren >= 0) {
      String inside = raw.substring(paren + 1, Math.max(paren + 1, raw.lastIndexOf(')')));
      for (String a : inside.split(",")) {
        args.add(a.trim());
      }
    } else if (d.getArgumentsStringList() != null) {
      d.getArgumentsStringList().forEach(a -> args.add(a.trim()));
    }
    String shown = name.toUpperCase(Locale.ROOT);
    Family family = NAMES.get(name.toLowerCase(Locale.ROOT));
    if (family == null) {
      throw st.error(typeAt, "unsupported type " + shown + "; supported: " + SUPPORTED);
    }
    if (d.getArrayData() != null && !d.getArrayData().isEmpty()) {
      throw st.error(typeAt, "array types are not supported (" + shown + "[])");
    }
    if (d.getCharacterSet() != null) {
      throw st.error(typeAt, "CHARACTER SET is not supported: text is stored as UTF-8");
    }
    int wordEnd = typeAt + name.split(" ").length;
    int open = args.isEmpty() ? -1 : st.find("(", wordEnd, end);
    int next = open < 0 ? wordEnd : st.closeOf(open) + 1;
    Arguments a = new Arguments(shown, args, st, open, typeAt);
    ColumnType type;
    switch (family) {
      case BIGINT -> type = a.none(ColumnType.of(TypeKind.BIGINT));
      case INT -> type = a.none(ColumnType.of(TypeKind.INT));
      case SMALLINT -> type = a.none(ColumnType.of(TypeKind.SMALLINT));
      case DOUBLE -> type = a.none(ColumnType.of(TypeKind.DOUBLE));
      case TEXT -> type = a.none(ColumnType.of(TypeKind.TEXT));
      case DATE -> type = a.none(ColumnType.of(TypeKind.DATE));
      case TIMESTAMP -> type = a.none(ColumnType.of(TypeKind.TIMESTAMP));
      case BOOLEAN -> type = a.none(ColumnType.of(TypeKind.BOOLEAN));
      case BYTES -> type = a.none(ColumnType.of(TypeKind.VARBINARY));
      case FLOAT -> {
        a.atMost(1, "(precision)");
        if (!args.isEmpty()) {
          a.number(0, "precision", 1, MAX_FLOAT_PRECISION);
        }
        type = ColumnType.of(TypeKind.DOUBLE);
      }
      case DECIMAL -> {
        a.atMost(2, "(precision) or (precision, scale)");
        int p =
            args.isEmpty()
                ? DEFAULT_DECIMAL_PRECISION
                : a.number(0, "precision", 1, ColumnType.MAX_DECIMAL_PRECISION);
        int s = args.size() < 2 ? 0 : a.number(1, "scale", 0, p);
        type = ColumnType.decimal(p, s);
      }
      case VARCHAR, CHAR -> {
        a.atMost(1, "(length)");
        int defaultLength = family == Family.CHAR ? 1 : 0;
        int n = args.isEmpty() ? defaultLength : a.number(0, "length", 1, Schema.MAX_LENGTH);
        type = ColumnType.varchar(n);
      }
      case VARBINARY -> {
        a.atMost(1, "(length)");
        type =
            ColumnType.varbinary(args.isEmpty() ? 0 : a.number(0, "length", 1, Schema.MAX_LENGTH));
      }
      default -> throw new AssertionError(family);
    }
    return new Resolved(type, next);
  }

  /** The arguments in a type's parentheses, with the tokens they came from. */
  private record Arguments(
      String type, List<String> values, StatementTokens st, int open, int typeAt) {
    ColumnType none(ColumnType t) {
      if (!values.isEmpty()) {
        throw st.error(tokenOf(0), type + " takes no arguments");
      }
      return t;
    }

    void atMost(int n, String form) {
      if (values.size() > n) {
        throw st.error(
            tokenOf(n), type + " takes " + form + ", not " + values.size() + " arguments");
      }
    }

    int number(int i, String what, int min, int max) {
      String v = values.get(i);
      long n = -1;
      if (!v.isEmpty() && v.length() <= 12 && v.chars().allMatch(Character::isDigit)) {
        n = Long.parseLong(v);
      }
      if (n < min || n > max) {
        String shown =
            n < 0 ? "'" + Names.shorten(v) + "' is not a number" : n + " is out of range";
        throw st.error(
            tokenOf(i), type + " " + what + " " + shown + " (expected: " + min + ".." + max + ")");
      }
      return (int) n;
    }

    /** The token of argument {@code i}: the i-th non-comma token inside the parentheses. */
    private int tokenOf(int i) {
      if (open < 0) {
        return typeAt;
      }
      int close = st.closeOf(open);
      int seen = 0;
      for (int k = open + 1; k < close; k++) {
        if (!st.get(k).is(",") && seen++ == i) {
          return k;
        }
      }
      return typeAt;
    }
  }
}
