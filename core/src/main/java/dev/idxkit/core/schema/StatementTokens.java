package dev.idxkit.core.schema;

import dev.idxkit.core.DdlException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tokens of one statement (without its {@code ;}) and the helpers that locate AST parts in
 * them: matching parentheses, the comma-separated elements of a parenthesized list, and the
 * translation of positions inside the statement's own text (where JSqlParser reports syntax errors)
 * back to the script.
 *
 * <p>Nothing here decides what the SQL means; JSqlParser does. These helpers only find which token
 * a part of its AST came from, and check the few places where JSqlParser accepts more than idxkit
 * does (free-form table options, trailing index parameters).
 */
final class StatementTokens {
  private final DdlSource source;
  private final List<SqlToken> tokens;

  StatementTokens(DdlSource source, List<SqlToken> tokens) {
    this.source = source;
    this.tokens = List.copyOf(tokens);
  }

  int size() {
    return tokens.size();
  }

  SqlToken get(int i) {
    return tokens.get(i);
  }

  /** True if token {@code i} exists and is the keyword or punctuation {@code word}. */
  boolean is(int i, String word) {
    return i >= 0 && i < tokens.size() && tokens.get(i).is(word);
  }

  /** The statement's text, from its first token to the end of its last. */
  String text() {
    return source.text().substring(tokens.get(0).offset(), tokens.get(tokens.size() - 1).end());
  }

  /** The index of the {@code )} that closes the {@code (} at {@code open}, or -1. */
  int closeOf(int open) {
    int depth = 0;
    for (int i = open; i < tokens.size(); i++) {
      if (tokens.get(i).is("(")) {
        depth++;
      } else if (tokens.get(i).is(")") && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /** The first index in {@code [from, to)} holding {@code word}, or -1. */
  int find(String word, int from, int to) {
    for (int i = Math.max(0, from); i < Math.min(to, tokens.size()); i++) {
      if (tokens.get(i).is(word)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The elements of the list in the parentheses opened at {@code open}: {@code [start, end)} token
   * ranges split at commas that are not nested deeper.
   */
  List<int[]> elements(int open) {
    int close = closeOf(open);
    List<int[]> out = new ArrayList<>();
    int depth = 0;
    int start = open + 1;
    for (int i = open + 1; i < close; i++) {
      SqlToken t = tokens.get(i);
      if (t.is("(")) {
        depth++;
      } else if (t.is(")")) {
        depth--;
      } else if (t.is(",") && depth == 0) {
        out.add(new int[] {start, i});
        start = i + 1;
      }
    }
    if (close > start) {
      out.add(new int[] {start, close});
    }
    return out;
  }

  /** The first {@code (} nested deeper than {@code max}, or -1. */
  int firstNestedDeeperThan(int max) {
    int depth = 0;
    for (int i = 0; i < tokens.size(); i++) {
      if (tokens.get(i).is("(") && ++depth > max) {
        return i;
      } else if (tokens.get(i).is(")")) {
        depth--;
      }
    }
    return -1;
  }

  /** An error at token {@code i}; an index past the last token means the end of the statement. */
  DdlException error(int i, String detail) {
    if (i >= tokens.size()) {
      return errorAtEnd(detail);
    }
    SqlToken t = tokens.get(Math.max(0, i));
    return new DdlException(source.name(), t.line(), t.column(), detail);
  }

  /**
   * An error at the end of the statement: just after its last token (where JSqlParser reports an
   * unexpected end).
   */
  DdlException errorAtEnd(String detail) {
    return source.error(tokens.get(tokens.size() - 1).end(), detail);
  }

  /**
   * The index of the token at a 1-based line and column of {@link #text()}, as JSqlParser reports
   * positions when it parses the statement on its own; {@link #size()} for its end.
   */
  int indexInText(int line, int column) {
    int offset = tokens.get(0).offset() + new LineMap(text()).offset(line, column);
    for (int i = 0; i < tokens.size(); i++) {
      if (tokens.get(i).offset() >= offset) {
        return i;
      }
    }
    return tokens.size();
  }

  /**
   * The tokens from {@code from} to the end must be nothing or {@code TABLESPACE area} (JSqlParser
   * accepts any table options and index parameters there); returns the area token's index, or -1
   * when there is no TABLESPACE. {@code after} names what precedes, for the error.
   */
  int tablespace(int from, String after) {
    if (from >= tokens.size()) {
      return -1;
    }
    if (is(from, "TABLESPACE") && from + 2 == tokens.size()) {
      return from + 1;
    }
    int bad = is(from, "TABLESPACE") ? from + 2 : from;
    throw error(
        bad,
        "unexpected "
            + (bad < tokens.size() ? tokens.get(bad).quoted() : "end of statement")
            + " after the "
            + after
            + "; expected TABLESPACE <area> or the end of the statement");
  }
}
