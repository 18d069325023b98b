package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.parser.TokenMgrException;

/**
 * The naming rules of the catalog, in one place.
 *
 * <ul>
 *   <li>Names are case-insensitive and stored in lower case ({@link Locale#ROOT}). This holds for
 *       quoted names too: quotes let a name be a keyword ({@code "order"}) or hold spaces and
 *       punctuation, but {@code "LineItem"} and {@code lineitem} are the same table. (PostgreSQL
 *       keeps the case of quoted names; we fold them so that every lookup in the store, the CLI and
 *       the loader can be case-insensitive without ambiguity.)
 *   <li>Table, column and index names: 1..{@value #MAX_NAME_LENGTH} characters, no control
 *       characters.
 *   <li>Area names become page-file names, so they are plain: {@code [a-z_][a-z0-9_]*}, at most
 *       {@value #MAX_AREA_NAME_LENGTH} characters.
 *   <li>Tables, indexes and areas have separate name spaces: the generated index name {@code
 *       orders_pk} never collides with a table.
 * </ul>
 */
final class Names {
  static final int MAX_NAME_LENGTH = 128;
  static final int MAX_AREA_NAME_LENGTH = 64;

  private static final Pattern AREA_NAME = Pattern.compile("[a-z_][a-z0-9_]*");
  private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_]*");

  /** Whether a plain name lexes as an identifier, remembered: a lexer costs ~0.2 ms to set up. */
  private static final Map<String, Boolean> LEXED = new ConcurrentHashMap<>();

  private static final int MAX_LEXED = 10_000;

  private Names() {}

  /** The stored form of a table, column or index name; {@code what} names it in errors. */
  static String normalize(String what, String name) {
    if (name == null) {
      throw new InvalidInputException(what + " name is missing");
    }
    String folded = name.toLowerCase(Locale.ROOT);
    if (folded.isEmpty() || folded.length() > MAX_NAME_LENGTH) {
      throw new InvalidInputException(
          what
              + " name '"
              + shorten(name)
              + "' has "
              + folded.length()
              + " characters (expected: 1.."
              + MAX_NAME_LENGTH
              + ")");
    }
    for (int i = 0; i < folded.length(); i++) {
      if (Character.isISOControl(folded.charAt(i))) {
        throw new InvalidInputException(
            what + " name '" + shorten(name) + "' contains a control character at " + i);
      }
    }
    return folded;
  }

  /** The stored form of an area name: lower case, {@code [a-z_][a-z0-9_]*}, at most 64 chars. */
  static String normalizeArea(String name) {
    String folded = normalize("area", name);
    if (folded.length() > MAX_AREA_NAME_LENGTH || !AREA_NAME.matcher(folded).matches()) {
      throw new InvalidInputException(
          "area name '"
              + shorten(name)
              + "' is not a plain name (expected: letters, digits and _, not starting with a"
              + " digit, at most "
              + MAX_AREA_NAME_LENGTH
              + " characters, because it names the area's page file)");
    }
    return folded;
  }

  /**
   * A name as written in SQL source: unquoted names are folded to lower case; {@code "..."} and
   * {@code `...`} lose their quotes (a doubled quote inside stands for one) and are folded too.
   */
  static String fromSql(String image) {
    if (image.length() >= 2) {
      char q = image.charAt(0);
      if ((q == '"' || q == '`') && image.charAt(image.length() - 1) == q) {
        String inner = image.substring(1, image.length() - 1);
        return inner.replace(String.valueOf(q) + q, String.valueOf(q)).toLowerCase(Locale.ROOT);
      }
    }
    return image.toLowerCase(Locale.ROOT);
  }

  /** True if the SQL token image is quoted ({@code "x"} or {@code `x`}). */
  static boolean isQuoted(String image) {
    return !image.isEmpty() && (image.charAt(0) == '"' || image.charAt(0) == '`');
  }

  /**
   * The name as DDL spells it: bare when it is a plain identifier that the SQL lexer reads as an
   * identifier (not a keyword), else in double quotes. Quoting keywords even where SQL would accept
   * them bare keeps the output parseable in every position.
   */
  static String sql(String name) {
    if (PLAIN.matcher(name).matches() && lexesAsIdentifier(name)) {
      return name;
    }
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  private static boolean lexesAsIdentifier(String name) {
    Boolean known = LEXED.get(name);
    if (known == null) {
      known = lex(name);
      if (LEXED.size() >= MAX_LEXED) {
        LEXED.clear(); // a bound, not an eviction policy: schemas have few distinct names
      }
      LEXED.put(name, known);
    }
    return known;
  }

  private static boolean lex(String name) {
    try {
      CCJSqlParser lexer = CCJSqlParserUtil.newParser(name);
      Token first = lexer.getNextToken();
      return first.kind == CCJSqlParserConstants.S_IDENTIFIER
          && lexer.getNextToken().kind == CCJSqlParserConstants.EOF;
    } catch (TokenMgrException e) {
      return false;
    }
  }

  static String shorten(String s) {
    return s.length() <= 40 ? s : s.substring(0, 37) + "...";
  }
}
