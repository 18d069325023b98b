package dev.idxkit.core.schema;

import dev.idxkit.core.DdlException;
import dev.idxkit.core.ProblemText;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.CreateTable;

/**
 * Applies a SQL DDL script to a {@link Schema}: {@code CREATE TABLE} and {@code CREATE [UNIQUE]
 * INDEX}, {@code ;}-separated, with {@code TABLESPACE} naming areas (see {@link
 * CreateTableTranslator}, {@link CreateIndexTranslator} and {@link SqlTypes} for what each
 * accepts). The script applies all or nothing: the first error throws a {@link DdlException} naming
 * source, line and column (1-based; a tab is one column) of the offending token, and the schema
 * passed in is unchanged (it is immutable).
 *
 * <p>Steps:
 *
 * <ol>
 *   <li>{@link DdlSource}: JSqlParser's lexer reads the whole script once; it is cut into
 *       statements at {@code ;} tokens, every token keeping its line and column.
 *   <li>The first tokens must be {@code CREATE TABLE} or {@code CREATE [UNIQUE] INDEX}; anything
 *       else is refused before parsing, at the first word that differs.
 *   <li>JSqlParser parses the statement's own text with its CREATE TABLE or CREATE INDEX
 *       production, synchronously on the calling thread. ({@code CCJSqlParserUtil.parseStatements}
 *       would run it on a new single-thread executor per call, for its time-out, and does not shut
 *       that executor down when parsing fails.) Syntax errors are mapped back to script positions
 *       ({@link SyntaxErrors}).
 *   <li>The translators check the AST against the schema built so far and add to it, locating each
 *       error through the statement's tokens, since the AST has no positions.
 * </ol>
 *
 * Parenthesis nesting deeper than {@value #MAX_NESTING} is refused up front: the accepted DDL needs
 * two levels, and deep nesting is where a backtracking parser gets slow.
 */
public final class DdlParser {
  static final int MAX_NESTING = 8;

  private static final Pattern NUMBER_IN_MESSAGE = Pattern.compile("\"(\\d+)\"");

  private DdlParser() {}

  /**
   * The schema {@code current} plus the tables, indexes and areas the script creates.
   *
   * @param sourceName how errors name the script: a file name, or e.g. {@code "<stdin>"}
   * @throws DdlException at the first statement that cannot be applied; nothing is applied then
   */
  public static Schema apply(Schema current, String ddl, String sourceName) {
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(ddl, "ddl");
    Objects.requireNonNull(sourceName, "sourceName");
    DdlSource source = DdlSource.read(sourceName, ddl);
    DdlScript script = new DdlScript(current);
    for (StatementTokens st : source.statements()) {
      boolean table = checkHead(st);
      checkNesting(st);
      Statement parsed = parse(st, table);
      if (table) {
        new CreateTableTranslator(script, st, (CreateTable) parsed).apply();
      } else {
        new CreateIndexTranslator(script, st, (CreateIndex) parsed).apply();
      }
    }
    return script.schema.build();
  }

  /** True for CREATE TABLE, false for CREATE [UNIQUE] INDEX; anything else is refused. */
  private static boolean checkHead(StatementTokens st) {
    String expected = "; expected CREATE TABLE or CREATE [UNIQUE] INDEX";
    if (!st.is(0, "CREATE")) {
      throw st.error(0, "unsupported statement starting with " + st.get(0).quoted() + expected);
    }
    if (st.is(1, "TABLE")) {
      return true;
    }
    if (st.is(1, "INDEX") || (st.is(1, "UNIQUE") && st.is(2, "INDEX"))) {
      return false;
    }
    int at = st.is(1, "UNIQUE") ? 2 : 1;
    String found = at < st.size() ? "CREATE ... " + st.get(at).quoted() : "CREATE alone";
    throw st.error(at, "unsupported statement " + found + expected);
  }

  private static void checkNesting(StatementTokens st) {
    int at = st.firstNestedDeeperThan(MAX_NESTING);
    if (at >= 0) {
      throw st.error(at, "parentheses nested more than " + MAX_NESTING + " deep");
    }
  }

  private static Statement parse(StatementTokens st, boolean table) {
    CCJSqlParser parser = CCJSqlParserUtil.newParser(st.text());
    Statement parsed;
    Token rest;
    try {
      parser.getNextToken(); // CREATE, checked above; the productions start after it
      parsed = table ? parser.CreateTable(false) : parser.CreateIndex();
      rest = parser.getNextToken();
    } catch (ParseException e) {
      Token found = SyntaxErrors.offending(e);
      int at = found == null ? 0 : st.indexInText(found.beginLine, found.beginColumn);
      throw syntaxError(st, at, SyntaxErrors.describe(e, found));
    } catch (NumberFormatException e) {
      throw numberTooLarge(st, e);
    } catch (RuntimeException e) {
      // JSqlParser failing in another way (TokenMgrException, an NPE on odd input): still the
      // user's statement that cannot be read, so say which one rather than show a stack trace.
      throw st.error(0, "cannot parse this statement: " + ProblemText.of(e));
    }
    if (rest.kind != CCJSqlParserConstants.EOF) {
      throw leftOver(st, st.indexInText(rest.beginLine, rest.beginColumn), table);
    }
    return parsed;
  }

  /** A syntax error at token {@code at}, or at an unsupported feature's word before it. */
  private static DdlException syntaxError(StatementTokens st, int at, String message) {
    SyntaxErrors.Hint hint = SyntaxErrors.hint(st, at);
    return hint != null ? st.error(hint.at(), hint.message()) : st.error(at, message);
  }

  /**
   * JSqlParser's production stopped before the end: it parsed a prefix and left token {@code at}.
   * Two cases have a clearer message: a CREATE TABLE whose column list it could not start (its
   * first element is a reserved word), and a TABLESPACE without a name.
   */
  private static DdlException leftOver(StatementTokens st, int at, boolean table) {
    if (table && st.is(at, "(") && at + 1 < st.size()) {
      return syntaxError(
          st,
          at + 1,
          "syntax error at "
              + st.get(at + 1).quoted()
              + ": expected a column or a constraint (a column name that is an SQL keyword"
              + " must be quoted)");
    }
    if (st.is(at, "TABLESPACE") && at + 1 == st.size()) {
      return st.error(at + 1, "syntax error at end of statement: expected an area name");
    }
    String found = at < st.size() ? st.get(at).quoted() : "end of statement";
    return syntaxError(st, at, "syntax error at " + found + ": expected end of statement");
  }

  /** JSqlParser reads type arguments with Integer.parseInt and lets the exception out. */
  private static DdlException numberTooLarge(StatementTokens st, NumberFormatException e) {
    Matcher m = NUMBER_IN_MESSAGE.matcher(String.valueOf(e.getMessage()));
    String number = m.find() ? m.group(1) : null;
    for (int i = 0; number != null && i < st.size(); i++) {
      if (st.get(i).image().equals(number)) {
        return st.error(i, "number " + Names.shorten(number) + " is too large");
      }
    }
    return st.error(0, "a number in this statement is too large");
  }
}
