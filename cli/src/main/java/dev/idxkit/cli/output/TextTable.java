package dev.idxkit.cli.output;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Aligned columns for people: a header, a dashed rule, then the rows; numeric columns are right
 * aligned. Rows are kept until {@link #print} (commands that stream rows use {@link RowWriters}).
 *
 * <pre>
 * name      rows  area
 * --------  ----  ----
 * lineitem  6005  data
 * </pre>
 */
public final class TextTable {
  private final String[] headers;
  private final boolean[] right;
  private final List<String[]> rows = new ArrayList<>();

  public TextTable(String... headers) {
    this.headers = headers.clone();
    this.right = new boolean[headers.length];
  }

  /** Right-aligns the given columns (numbers). */
  public TextTable right(int... columns) {
    for (int c : columns) {
      right[c] = true;
    }
    return this;
  }

  public TextTable add(Object... cells) {
    if (cells.length != headers.length) {
      throw new IllegalArgumentException(
          "cells : " + cells.length + " (expected: " + headers.length + ")");
    }
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      row[i] = String.valueOf(cells[i]);
    }
    rows.add(row);
    return this;
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** Prints the table, each line starting with {@code indent}. */
  public void print(PrintWriter out, String indent) {
    int[] width = new int[headers.length];
    for (int i = 0; i < headers.length; i++) {
      width[i] = headers[i].length();
    }
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    printRow(out, indent, headers, width, right);
    String[] rule = new String[headers.length];
    for (int i = 0; i < rule.length; i++) {
      rule[i] = "-".repeat(width[i]);
    }
    printRow(out, indent, rule, width, right);
    for (String[] r : rows) {
      printRow(out, indent, r, width, right);
    }
  }

  static void printRow(
      PrintWriter out, String indent, String[] cells, int[] width, boolean[] right) {
    StringBuilder sb = new StringBuilder(indent);
    for (int i = 0; i < cells.length; i++) {
      boolean last = i == cells.length - 1;
      String c = cells[i];
      int pad = Math.max(0, width[i] - c.length());
      if (right[i]) {
        sb.append(" ".repeat(pad)).append(c);
      } else {
        sb.append(c);
        if (!last) {
          sb.append(" ".repeat(pad));
        }
      }
      if (!last) {
        sb.append("  ");
      }
    }
    out.println(sb);
  }

  @Override
  public String toString() {
    return "TextTable" + Arrays.toString(headers) + " " + rows.size() + " rows";
  }
}
