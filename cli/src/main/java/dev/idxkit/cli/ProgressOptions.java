package dev.idxkit.cli;

import dev.idxkit.cli.progress.ProgressMode;
import picocli.CommandLine.Option;

/** {@code --progress} for commands that can run long (a picocli mixin). */
public final class ProgressOptions {
  @Option(
      names = "--progress",
      paramLabel = "MODE",
      defaultValue = "auto",
      description =
          "auto (default: a bar when stdout is a terminal, plain lines every few seconds"
              + " otherwise), bar, plain or none. Progress goes to stderr.")
  ProgressMode mode = ProgressMode.AUTO;

  public ProgressMode mode() {
    return mode;
  }
}
