package dev.idxkit.loader.input;

/**
 * One record read from an input, in input order: either a row for the table or a rejected row. Both
 * carry where they came from and where to resume after them.
 */
public sealed interface InputRecord permits InputRow, RejectedRow {
  /** 1-based line where the record starts (text inputs) or row number (generator). */
  long line();

  /** Where to restart so that the next read begins with the record after this one. */
  ResumePoint resumePoint();
}
