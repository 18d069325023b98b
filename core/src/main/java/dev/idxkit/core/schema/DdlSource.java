package dev.idxkit.core.schema;

import dev.idxkit.core.DdlException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.parser.TokenMgrException;

/**
 * A DDL script cut into statements, with every token's place in the script.
 *
 * <p>JSqlParser's AST carries no source positions, so errors are located through the tokens: the
 * whole script is read once by JSqlParser's own lexer (so comments, string literals and quoted
 * names with {@code ;} inside are handled exactly as the parser handles them), split at {@code ;}
 * tokens, and each statement remembers its tokens with script-wide offsets, lines and columns. The
 * statements are then parsed one by one from their own text (see {@link StatementTokens}).
 */
final class DdlSource {
  private static final Pattern LEXICAL_POSITION = Pattern.compile("line (\\d+), column (\\d+)");

  private final String name;
  private final String text;
  private final LineMap lines;
  private final List<StatementTokens> statements = new ArrayList<>();

  private DdlSource(String name, String text) {
    this.name = name;
    this.text = text;
    this.lines = new LineMap(text);
  }

  /** Reads the script; a lexical error (unterminated quote, stray character) is a DdlException. */
  static DdlSource read(String name, String text) {
    DdlSource source = new DdlSource(name, text);
    source.split(source.lex());
    return source;
  }

  String name() {
    return name;
  }

  String text() {
    return text;
  }

  List<StatementTokens> statements() {
    return statements;
  }

  /** An error located at a character offset of the script. */
  DdlException error(int offset, String detail) {
    return new DdlException(name, lines.line(offset), lines.column(offset), detail);
  }

  private List<SqlToken> lex() {
    List<SqlToken> tokens = new ArrayList<>();
    if (text.isEmpty()) {
      return tokens;
    }
    CCJSqlParser lexer = CCJSqlParserUtil.newParser(text);
    try {
      for (Token t = lexer.getNextToken(); t.kind != CCJSqlParserConstants.EOF; ) {
        int offset = lines.offset(t.beginLine, t.beginColumn);
        int end = lines.offset(t.endLine, t.endColumn) + 1;
        tokens.add(new SqlToken(t.image, t.kind, offset, end, t.beginLine, t.beginColumn));
        t = lexer.getNextToken();
      }
    } catch (TokenMgrException e) {
      throw lexicalError(e, tokens);
    }
    return tokens;
  }

  private DdlException lexicalError(TokenMgrException e, List<SqlToken> goodTokens) {
    String message = String.valueOf(e.getMessage());
    int after = goodTokens.isEmpty() ? 0 : goodTokens.get(goodTokens.size() - 1).end();
    int start = skipBlanks(after);
    if (message.contains("<EOF>") && start < text.length()) {
      char q = text.charAt(start);
      String what = q == '\'' ? "string" : "quoted name";
      return error(start, "unterminated " + what + " starting with " + q);
    }
    Matcher m = LEXICAL_POSITION.matcher(message);
    int offset =
        m.find() ? lines.offset(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))) : start;
    if (offset >= text.length()) {
      return error(start, "cannot read the text here");
    }
    int cp = text.codePointAt(offset);
    String shown = cp >= 0x20 && cp < 0x7f ? "'" + (char) cp + "'" : String.format("U+%04X", cp);
    return error(offset, "unexpected character " + shown);
  }

  /** The offset of the next character after {@code from} that is not blank or in a comment. */
  private int skipBlanks(int from) {
    int i = from;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (text.startsWith("--", i)) {
        while (i < n && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
          i++;
        }
      } else if (text.startsWith("/*", i)) {
        int close = text.indexOf("*/", i + 2);
        i = close < 0 ? n : close + 2;
      } else {
        break;
      }
    }
    return i;
  }

  private void split(List<SqlToken> tokens) {
    int start = 0;
    for (int i = 0; i <= tokens.size(); i++) {
      boolean last = i == tokens.size();
      if (last || tokens.get(i).kind() == CCJSqlParserConstants.ST_SEMICOLON) {
        if (i > start) {
          statements.add(new StatementTokens(this, tokens.subList(start, i)));
        }
        start = i + 1;
      }
    }
  }
}
