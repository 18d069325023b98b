package dev.idxkit.core.schema;

import java.util.Arrays;

/**
 * Converts between character offsets and 1-based line/column in a text, counting line breaks the
 * way JSqlParser's lexer (JavaCC) does: {@code \n}, {@code \r\n} and a lone {@code \r} each end a
 * line, and every other character, a tab included, is one column.
 */
final class LineMap {
  private final int[] lineStarts;
  private final int length;

  LineMap(String text) {
    int[] starts = new int[16];
    int lines = 1;
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      boolean breaks = c == '\n' || (c == '\r' && (i + 1 == n || text.charAt(i + 1) != '\n'));
      if (breaks) {
        if (lines == starts.length) {
          starts = Arrays.copyOf(starts, lines * 2);
        }
        starts[lines++] = i + 1;
      }
    }
    this.lineStarts = Arrays.copyOf(starts, lines);
    this.length = n;
  }

  /** The offset of 1-based {@code line}, {@code column}; clipped to the text. */
  int offset(int line, int column) {
    int l = Math.max(1, Math.min(line, lineStarts.length));
    return Math.max(0, Math.min(length, lineStarts[l - 1] + column - 1));
  }

  int line(int offset) {
    int i = Arrays.binarySearch(lineStarts, offset);
    return i >= 0 ? i + 1 : -i - 1;
  }

  int column(int offset) {
    return offset - lineStarts[line(offset) - 1] + 1;
  }
}
