package dev.idxkit.cli.progress;

/** How {@code --progress} shows progress. */
public enum ProgressMode {
  /** A bar when stdout is a terminal, plain lines otherwise. */
  AUTO,
  /** A bar with rate and ETA (me.tongfei:progressbar), redrawn in place. */
  BAR,
  /** A line every few seconds and one when a long phase ends: for logs and pipes. */
  PLAIN,
  /** Nothing. */
  NONE
}
