package dev.idxkit.core.schema;

/** One column of an index key: its position in the table, and whether it sorts descending. */
public record IndexColumn(int column, boolean descending) {}
