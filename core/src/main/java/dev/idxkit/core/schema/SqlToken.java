package dev.idxkit.core.schema;

import java.util.Locale;

/**
 * One token of a DDL script as JSqlParser's lexer read it, with its place in the whole script:
 * character offsets (for cutting statements out of the text) and 1-based line and column (for
 * errors; a tab counts as one column, as in the lexer).
 */
record SqlToken(String image, int kind, int offset, int end, int line, int column) {
  /** True if this is the unquoted keyword or punctuation {@code word}, in any case. */
  boolean is(String word) {
    return image.equalsIgnoreCase(word);
  }

  /** The image in upper case, for messages about keywords and types. */
  String upper() {
    return image.toUpperCase(Locale.ROOT);
  }

  /** The token as a message shows it: {@code "engine"}. */
  String quoted() {
    return '"' + Names.shorten(image) + '"';
  }
}
