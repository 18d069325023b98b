package dev.idxkit.core.schema;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.Token;

/**
 * Turns JSqlParser's syntax errors into one line in the user's terms. JSqlParser lists every token
 * its full SQL grammar could accept next (often hundreds); idxkit's DDL is a small subset, so the
 * list is cut down to the tokens that subset uses, and shown only when that leaves a few.
 */
final class SyntaxErrors {
  private static final int MAX_LISTED = 6;

  /** Keywords and punctuation of the DDL subset idxkit accepts. */
  private static final Set<String> VOCABULARY =
      Set.of(
          "( ) , NOT NULL PRIMARY KEY UNIQUE ASC DESC TABLESPACE ON INDEX TABLE IF EXISTS CONSTRAINT"
              .split(" "));

  /** What users most often write that idxkit does not support, and the word for it. */
  private static final Map<String, String> HINTS =
      Map.of(
          "NULLS", "NULLS FIRST/LAST is not supported",
          "WHERE", "partial indexes (WHERE) are not supported",
          "INCLUDE", "INCLUDE columns are not supported",
          "USING", "USING is not supported: every idxkit index is a B+tree");

  private SyntaxErrors() {}

  /** The found token of a syntax error, or null when JSqlParser did not say. */
  static Token offending(ParseException e) {
    return e.currentToken == null ? null : e.currentToken.next;
  }

  /** The message for a syntax error at {@code found}, with what could come there when short. */
  static String describe(ParseException e, Token found) {
    StringBuilder m = new StringBuilder("syntax error at ");
    m.append(found == null ? "this point" : describe(found));
    Set<String> expected = expected(e);
    if (!expected.isEmpty() && expected.size() <= MAX_LISTED) {
      m.append(": expected ").append(String.join(" or ", expected));
    }
    return m.toString();
  }

  static String describe(Token t) {
    return t.kind == CCJSqlParserConstants.EOF
        ? "end of statement"
        : '"' + Names.shorten(t.image) + '"';
  }

  /** A clearer message for a syntax error, at the token index {@code at}. */
  record Hint(int at, String message) {}

  /**
   * A clearer message when the statement, up to token {@code upTo}, uses a feature idxkit does not
   * support: such words usually cause the syntax error, at or after them. Null if there is none.
   */
  static Hint hint(StatementTokens st, int upTo) {
    for (int i = 0; i <= Math.min(upTo, st.size() - 1); i++) {
      String image = st.get(i).image();
      String hint = Names.isQuoted(image) ? null : HINTS.get(image.toUpperCase(Locale.ROOT));
      if (hint != null) {
        return new Hint(i, "syntax error at " + st.get(i).quoted() + ": " + hint);
      }
    }
    return null;
  }

  private static Set<String> expected(ParseException e) {
    Set<String> out = new LinkedHashSet<>();
    if (e.expectedTokenSequences == null || e.tokenImage == null) {
      return out;
    }
    for (int[] sequence : e.expectedTokenSequences) {
      if (sequence.length == 0 || sequence[0] >= e.tokenImage.length) {
        continue;
      }
      String word = inUserTerms(e.tokenImage[sequence[0]]);
      if (word != null) {
        out.add(word);
      }
    }
    if (out.contains("a name")) {
      // Keywords are listed there only because JSqlParser lets them be names: leave them out.
      out.removeIf(w -> !w.equals("a name") && !w.startsWith("\""));
    }
    return out;
  }

  private static String inUserTerms(String image) {
    switch (image) {
      case "<EOF>":
      case "<ST_SEMICOLON>":
        return "end of statement";
      case "<S_IDENTIFIER>":
      case "<S_QUOTED_IDENTIFIER>":
        return "a name";
      case "<S_LONG>":
        return "a number";
      default:
        break;
    }
    if (image.length() >= 3 && image.startsWith("\"") && image.endsWith("\"")) {
      String word = image.substring(1, image.length() - 1).toUpperCase(Locale.ROOT);
      if (VOCABULARY.contains(word)) {
        return word.length() == 1 ? '"' + word + '"' : word;
      }
    }
    return null;
  }
}
