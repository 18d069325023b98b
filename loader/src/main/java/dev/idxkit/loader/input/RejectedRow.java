package dev.idxkit.loader.input;

/**
 * A record the source could not turn into a row. The source goes on with the next record; the
 * loader writes this to its reject file and counts it against {@code --max-errors}.
 *
 * @param line 1-based line where the record starts (text inputs) or row number (generator)
 * @param column the column the problem is in, or {@code null} when it concerns the whole record
 *     (wrong field count, malformed JSON)
 * @param rawValue the text as it was in the input: the field for a column problem, else the record
 *     (cut at {@value #MAX_RAW_CHARS} characters); bytes that are not UTF-8 show as {@code \xNN}
 * @param reason what is wrong and what was expected, e.g. {@code "12.345" does not fit
 *     DECIMAL(10,2): more than 2 digits after the point}
 */
public record RejectedRow(
    long line, String column, String rawValue, String reason, long resumeOffset, long resumeLine)
    implements InputRecord {
  public static final int MAX_RAW_CHARS = 1000;

  public RejectedRow {
    if (rawValue != null && rawValue.length() > MAX_RAW_CHARS) {
      rawValue = rawValue.substring(0, MAX_RAW_CHARS) + "...";
    }
  }

  @Override
  public ResumePoint resumePoint() {
    return new ResumePoint(resumeOffset, resumeLine);
  }

  /** One line for a reject file or a log: {@code line 12, column price: reason}. */
  public String describe() {
    return "line " + line + (column == null ? "" : ", column " + column) + ": " + reason;
  }
}
