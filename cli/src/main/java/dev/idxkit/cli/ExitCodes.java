package dev.idxkit.cli;

/**
 * The exit codes of every idxkit command, and their help text (picocli needs compile-time constants
 * for {@code exitCodeList}, hence one constant per line).
 */
public final class ExitCodes {
  private ExitCodes() {}

  /** The command did what it was asked. */
  public static final int OK = 0;

  /** The command ran and failed: damage found, I/O error, database locked. */
  public static final int FAILED = 1;

  /** Bad usage or input: unknown option, missing database, bad DDL, wrong key type. */
  public static final int BAD_INPUT = 2;

  /** {@code load --strict}: the load completed, but some rows were rejected. */
  public static final int REJECTED_ROWS = 3;

  /** Stopped by Ctrl-C (128 + SIGINT), after saying what state the database is in. */
  public static final int INTERRUPTED = 130;

  public static final String HEADING = "%nExit codes:%n";
  public static final String OK_LINE = "0:done";
  public static final String FAILED_LINE =
      "1:failed (damage found, I/O error, database locked by another process)";
  public static final String BAD_INPUT_LINE =
      "2:bad usage or input (unknown option, no database at DB, bad DDL, bad key)";
  public static final String INTERRUPTED_LINE =
      "130:interrupted by Ctrl-C; the last line on stderr says what state the database is in";
}
