package dev.idxkit.jmh.report;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One table of measurements from an experiment: named columns, rows of values, the parameters the
 * run was given and free-text notes (what was chosen, what fell back). It is what {@link
 * ResultWriter} turns into a CSV file (the rows) and a JSON file (everything, plus the {@link
 * Machine}).
 *
 * <p>Cell values are {@code null}, {@link String}, {@link Boolean} or a {@link Number} ({@code
 * Integer}, {@code Long}, {@code Double}, ...); anything else is refused when the row is added, so
 * a file is never written with a {@code toString()} nobody can parse. Non-finite doubles are
 * refused too: JSON has no NaN, and a NaN figure is a bug in the experiment, not a measurement.
 *
 * <p>Not thread-safe: an experiment collects its rows on one thread.
 */
public final class Results {
  private final String name;
  private final List<String> columns;
  private final List<List<Object>> rows = new ArrayList<>();
  private final Map<String, Object> parameters = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();

  private Results(String name, List<String> columns) {
    this.name = checkName(name);
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("columns of " + name + " : none (expected: at least 1)");
    }
    if (columns.stream().distinct().count() != columns.size()) {
      throw new IllegalArgumentException("columns of " + name + " : " + columns + " (duplicates)");
    }
    this.columns = List.copyOf(columns);
  }

  /**
   * A new empty table.
   *
   * @param name the base name of the files written for it ({@code io} gives {@code io.csv});
   *     letters, digits, {@code -} and {@code _}
   * @param columns column names, in order; by convention lower case with the unit as a suffix
   *     ({@code chunk_bytes}, {@code mib_per_s})
   */
  public static Results of(String name, String... columns) {
    return new Results(name, List.of(columns));
  }

  public String name() {
    return name;
  }

  public List<String> columns() {
    return columns;
  }

  /** The rows added so far, in order (unmodifiable views). */
  public List<List<Object>> rows() {
    List<List<Object>> out = new ArrayList<>(rows.size());
    for (List<Object> r : rows) {
      out.add(Collections.unmodifiableList(r));
    }
    return Collections.unmodifiableList(out);
  }

  /** Records a parameter of the run (a size, a count, a chosen method); later values replace. */
  public Results parameter(String key, Object value) {
    parameters.put(Objects.requireNonNull(key, "key"), checkValue(key, value));
    return this;
  }

  public Map<String, Object> parameters() {
    return Collections.unmodifiableMap(parameters);
  }

  /** Adds a line of explanation that travels with the figures (into the JSON file). */
  public Results note(String text) {
    notes.add(Objects.requireNonNull(text, "text"));
    return this;
  }

  public List<String> notes() {
    return Collections.unmodifiableList(notes);
  }

  /** Adds a row: one value per column, in column order. */
  public Results row(Object... values) {
    if (values.length != columns.size()) {
      throw new IllegalArgumentException(
          "row of "
              + name
              + " : "
              + values.length
              + " values (expected: "
              + columns.size()
              + ", one per column "
              + columns
              + ")");
    }
    List<Object> r = new ArrayList<>(values.length);
    for (int i = 0; i < values.length; i++) {
      r.add(checkValue(columns.get(i), values[i]));
    }
    rows.add(r);
    return this;
  }

  /** The index of {@code column}; throws naming the columns there are if it is not one. */
  public int column(String column) {
    int i = columns.indexOf(column);
    if (i < 0) {
      throw new IllegalArgumentException(
          "column " + column + " of " + name + " (expected one of " + columns + ")");
    }
    return i;
  }

  private static Object checkValue(String where, Object v) {
    if (v == null || v instanceof String || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Double d && !Double.isFinite(d)
        || v instanceof Float f && !Float.isFinite(f)) {
      throw new IllegalArgumentException(where + " : " + v + " (expected: a finite number)");
    }
    if (v instanceof Byte
        || v instanceof Short
        || v instanceof Integer
        || v instanceof Long
        || v instanceof Float
        || v instanceof Double
        || v instanceof BigInteger
        || v instanceof BigDecimal) {
      return v;
    }
    throw new IllegalArgumentException(
        where
            + " : a "
            + v.getClass().getName()
            + " (expected: null, String, Boolean or a java.lang/java.math number)");
  }

  private static String checkName(String name) {
    if (name == null || !name.matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException(
          "results name : " + name + " (expected: letters, digits, '-' and '_')");
    }
    return name;
  }
}
