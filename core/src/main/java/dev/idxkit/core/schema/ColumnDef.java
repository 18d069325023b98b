package dev.idxkit.core.schema;

/** A table column: its name (lower case), type and whether it accepts NULL. */
public record ColumnDef(String name, ColumnType type, boolean nullable) {}
