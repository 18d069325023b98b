package dev.idxkit.cli;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.ProblemText;
import dev.idxkit.idxbuild.temp.SrtFileException;
import java.io.PrintWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into one line on stderr and an exit code. A DBA reads the line; a script
 * reads the code.
 *
 * <pre>
 * what went wrong                                   exit  line
 * picocli usage error (unknown option, bad value)     2   idxkit: Unknown option: '--frm' (did you mean --from?); see 'idxkit scan --help'
 * IdxkitException with isBadInput() (DDL, key, ...)   2   idxkit: schema.sql:3:14: ...
 * other IdxkitException (corruption, I/O, locked)     1   idxkit: corrupt page 7 in ...; run 'idxkit check DB' for a full report
 * anything else (a bug)                               1   idxkit: internal error: ...; run with --verbose for the details to report
 * Ctrl-C (whatever exception it caused)             130   idxkit: interrupted; database DB unchanged (opened read-only)
 * </pre>
 *
 * <p>No stack trace unless {@code --verbose} is on the command line; then it follows the line.
 */
final class Failures implements IExecutionExceptionHandler, IParameterExceptionHandler {
  private final InterruptGuard guard;

  Failures(InterruptGuard guard) {
    this.guard = guard;
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    PrintWriter err = cmd.getErr();
    StringBuilder line = new StringBuilder(oneLine(ex.getMessage()));
    if (ex instanceof UnmatchedArgumentException u) {
      List<String> suggestions = u.getSuggestions();
      if (!suggestions.isEmpty()) {
        line.append(" (did you mean ").append(String.join(" or ", suggestions)).append("?)");
      }
    }
    line.append("; see '").append(cmd.getCommandSpec().qualifiedName()).append(" --help'");
    err.println("idxkit: " + line);
    if (List.of(args).contains("--verbose")) {
      ex.printStackTrace(err);
    }
    err.flush();
    return ExitCodes.BAD_INPUT;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    if (guard.interrupted()) {
      // Whatever the interrupt broke on its way (a closed channel, an aborted wait) is not news.
      guard.report();
      return ExitCodes.INTERRUPTED;
    }
    int code;
    String line;
    if (ex instanceof IdxkitException e) {
      code = e.isBadInput() ? ExitCodes.BAD_INPUT : ExitCodes.FAILED;
      line = oneLine(e.getMessage());
      if (e instanceof CorruptPageException || e instanceof CorruptDatabaseException) {
        line += "; run 'idxkit check DB' for a full report";
      }
    } else if (ex instanceof ParameterException p) {
      return handleParseException(p, parsed.originalArgs().toArray(new String[0]));
    } else {
      // A bug: the user reads what happened, not a Java class name; --verbose shows the trace
      // (with the class) for a report.
      code = ExitCodes.FAILED;
      line =
          "internal error: "
              + oneLine(ProblemText.of(ex))
              + "; run with --verbose for the details to report";
    }
    if (ex instanceof SrtFileException srt && srt.problems().size() > 1) {
      // Several lines of a .srt file are wrong: each on its own line, with its fix.
      for (String problem : srt.problems()) {
        err.println("idxkit: " + oneLine(problem));
      }
    } else {
      err.println("idxkit: " + line);
    }
    if (verbose(parsed)) {
      ex.printStackTrace(err);
    }
    err.flush();
    return code;
  }

  private static boolean verbose(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Messages may carry line breaks (parser errors do); the error is one line. A Java exception's
   * name inside it is replaced by plain words.
   *
   * <p>idxkit's own messages carry no class names: they are built with {@link ProblemText} where
   * the problem happens. This net stays for text idxkit does not write: picocli's conversion errors
   * end in the converter's exception as {@code (java.lang.NumberFormatException: ...)}, and the
   * message of an exception from the JDK or a library that reaches the internal-error line may
   * embed its cause's {@code toString()} (an {@code UncheckedIOException} built on another
   * exception's message, a wrapper's wrapper).
   */
  static String oneLine(String message) {
    if (message == null || message.isBlank()) {
      return "(no message)";
    }
    return plainWords(message.strip().replaceAll("\\s*\\R\\s*", " "));
  }

  /** File-system exceptions whose names carry the meaning, in the words of ls and cp. */
  private static final String[][] NAMED = {
    {"NoSuchFileException", "no such file or directory: "},
    {"AccessDeniedException", "permission denied: "},
    {"FileAlreadyExistsException", "already exists: "},
    {"DirectoryNotEmptyException", "directory not empty: "},
    {"NotDirectoryException", "not a directory: "},
  };

  /**
   * A class name ending in Exception or Error, with its package if any, and the {@code ": "} after
   * it. Not inside a path or file name ({@code /data/ImportError.csv}, {@code ImportError.csv}):
   * what a user named is never cut out of the line.
   */
  private static final Pattern EXCEPTION_NAME =
      Pattern.compile(
          "(?<![\\w/.-])(?:[a-z][a-z0-9_]*\\.)*([A-Z][A-Za-z0-9_]*(?:Exception|Error))"
              + "(?![\\w/-]|\\.\\w)(?:: ?)?");

  /** {@code java.nio.file.NoSuchFileException: x} becomes {@code no such file or directory: x}. */
  static String plainWords(String line) {
    Matcher m = EXCEPTION_NAME.matcher(line);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement = "";
      for (String[] n : NAMED) {
        if (n[0].equals(m.group(1))) {
          replacement = n[1];
        }
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    String s = out.toString().replaceAll(" {2,}", " ").strip();
    return s.isEmpty() ? "(no message)" : s;
  }
}
