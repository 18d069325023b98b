package dev.idxkit.core.spi;

/** A table's heap pages and its row count. */
public record TableState(PageRuns pages, long rows) {
  public static final TableState EMPTY = new TableState(PageRuns.EMPTY, 0);
}
