package dev.idxkit.loader.shards;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.DdlParser;
import dev.idxkit.core.schema.IndexDef;
import dev.idxkit.core.schema.Schema;
import dev.idxkit.core.schema.TableDef;
import java.io.Serializable;

/**
 * What every shard of one job holds: the DDL each shard database is created with, the table the
 * rows go to, and the unique index the rows are range-partitioned and sorted by (the primary key).
 * Serializable because a Spark task carries it to the executors.
 *
 * @param ddl the whole DDL script (it may declare other tables; they stay empty)
 * @param table the table the rows belong to
 * @param keyIndex the unique index that orders the shards
 */
public record ShardSchema(String ddl, String table, String keyIndex) implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * Parses {@code ddl} and picks {@code table}'s primary key: its first unique index ({@code
   * <table>_pk} for a PRIMARY KEY clause). A table without one cannot be sharded.
   */
  public static ShardSchema of(String ddl, String table) {
    Schema s = DdlParser.apply(Schema.empty(), ddl, "ddl");
    TableDef t = s.requireTable(table);
    for (IndexDef ix : s.indexesOf(t.id())) {
      if (ix.unique()) {
        return new ShardSchema(ddl, t.name(), ix.name());
      }
    }
    throw new InvalidInputException(
        "table "
            + t.name()
            + " has no PRIMARY KEY or UNIQUE index to range-partition the shards by");
  }

  /** The parsed schema. */
  public Schema schema() {
    return DdlParser.apply(Schema.empty(), ddl, "ddl");
  }
}
