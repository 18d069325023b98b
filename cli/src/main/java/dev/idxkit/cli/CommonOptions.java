package dev.idxkit.cli;

import picocli.CommandLine.Option;

/** Options every subcommand takes (a picocli mixin). */
public final class CommonOptions {
  @Option(
      names = "--verbose",
      description =
          "On failure, print the full stack trace after the error line (for bug reports);"
              + " for serve, after each failure the server logs.")
  boolean verbose; // Failures reads it from the parse result, not from this field

  /** Whether {@code --verbose} was given: the server's log adds stack traces then. */
  public boolean verbose() {
    return verbose;
  }
}
