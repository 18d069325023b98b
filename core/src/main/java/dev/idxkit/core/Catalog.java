package dev.idxkit.core;

import dev.idxkit.core.internal.key.KeyLayout;
import dev.idxkit.core.schema.IndexDef;
import dev.idxkit.core.schema.Schema;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.spi.KeyEncoder;
import dev.idxkit.core.spi.KeyExtractor;
import dev.idxkit.core.spi.RecordLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The schema with what reading and writing need precomputed: each table's record layout and each
 * index's key layout and column mapping. Immutable; a DDL change builds a new one.
 */
public final class Catalog {
  /** A table and its record layout and indexes. */
  public record TableInfo(TableDef def, RecordLayout layout, List<IndexInfo> indexes) {
    public String name() {
      return def.name();
    }

    public int id() {
      return def.id();
    }

    public int area() {
      return def.areaId();
    }
  }

  /** An index, its table, its key layout, and which table columns make its key. */
  public record IndexInfo(IndexDef def, TableDef table, KeyLayout key, int[] columns) {
    public String name() {
      return def.name();
    }

    public int id() {
      return def.id();
    }

    public int area() {
      return def.areaId();
    }

    public boolean unique() {
      return def.unique();
    }

    /** A fresh encoder (encoders keep scratch space and are not thread-safe). */
    public KeyEncoder encoder() {
      return new KeyEncoder(key);
    }

    /** A fresh extractor of this index's key from record bytes of its table. */
    public KeyExtractor extractor(RecordLayout layout) {
      return new KeyExtractor(layout, key, columns);
    }

    /** The key columns' values picked out of a full row. */
    public Object[] keyOf(Object[] row) {
      Object[] k = new Object[columns.length];
      for (int i = 0; i < columns.length; i++) {
        k[i] = row[columns[i]];
      }
      return k;
    }
  }

  private final Schema schema;
  private final Map<Integer, TableInfo> tables = new HashMap<>();
  private final Map<Integer, IndexInfo> indexes = new HashMap<>();

  public Catalog(Schema schema) {
    this.schema = schema;
    for (TableDef t : schema.tables()) {
      List<IndexInfo> list = new ArrayList<>();
      for (IndexDef i : schema.indexesOf(t.id())) {
        int[] cols = i.columns().stream().mapToInt(c -> c.column()).toArray();
        IndexInfo info = new IndexInfo(i, t, KeyLayout.of(t, i), cols);
        list.add(info);
        indexes.put(i.id(), info);
      }
      tables.put(t.id(), new TableInfo(t, RecordLayout.of(t), List.copyOf(list)));
    }
  }

  public Schema schema() {
    return schema;
  }

  public TableInfo table(int id) {
    return tables.get(id);
  }

  public IndexInfo index(int id) {
    return indexes.get(id);
  }

  /** The named table; {@link InvalidInputException} (listing the tables) if there is none. */
  public TableInfo table(String name) {
    return tables.get(schema.requireTable(name).id());
  }

  /** The named index; {@link InvalidInputException} (listing the indexes) if there is none. */
  public IndexInfo index(String name) {
    return indexes.get(schema.requireIndex(name).id());
  }

  public List<TableInfo> tables() {
    return schema.tables().stream().map(t -> tables.get(t.id())).toList();
  }

  public List<IndexInfo> indexes() {
    return schema.indexes().stream().map(i -> indexes.get(i.id())).toList();
  }
}
