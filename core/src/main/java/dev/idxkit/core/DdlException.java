package dev.idxkit.core;

/** SQL DDL that cannot be parsed or does not make sense, located by source, line and column. */
public class DdlException extends InvalidInputException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final int line;
  private final int column;

  public DdlException(String source, int line, int column, String detail) {
    super(source + ":" + line + ":" + column + ": " + detail);
    this.source = source;
    this.line = line;
    this.column = column;
  }

  public String source() {
    return source;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }
}
