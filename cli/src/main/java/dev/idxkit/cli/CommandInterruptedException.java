package dev.idxkit.cli;

/** Thrown at a safe point after Ctrl-C; {@link Main} turns it into exit code 130. */
public final class CommandInterruptedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CommandInterruptedException() {
    super("interrupted", null, false, false);
  }
}
