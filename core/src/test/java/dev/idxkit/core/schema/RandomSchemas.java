package dev.idxkit.core.schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Random schemas for round-trip tests, built the way DDL builds them: an area is created just
 * before its first use, a primary key index right after its table. Names mix plain identifiers, SQL
 * keywords, upper case and characters that need quoting.
 */
final class RandomSchemas {
  private static final String[] ODD_NAMES = {
    "order", "key", "date", "select", "index", "table", "My Col", "a\"b", "x-y", "größe", "data",
    "value", "type", "_u", "primary", "unique"
  };

  private final SplittableRandom random;
  private final Set<String> usedNames = new HashSet<>();
  private Schema schema = Schema.empty();
  private int counter;

  private RandomSchemas(SplittableRandom random) {
    this.random = random;
  }

  static Schema generate(SplittableRandom random) {
    return new RandomSchemas(random).build();
  }

  private Schema build() {
    int steps = random.nextInt(0, 14);
    for (int s = 0; s < steps; s++) {
      if (schema.tables().isEmpty() || random.nextInt(3) == 0) {
        table();
      } else {
        index(schema.tables().get(random.nextInt(schema.tables().size())));
      }
    }
    return schema;
  }

  private void table() {
    int n = random.nextInt(1, 9);
    List<ColumnDef> columns = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int c = 0; c < n; c++) {
      String name = name("c");
      if (names.add(name.toLowerCase(java.util.Locale.ROOT))) {
        columns.add(new ColumnDef(name, type(), random.nextBoolean()));
      }
    }
    boolean primaryKey = random.nextBoolean();
    List<IndexColumn> key = new ArrayList<>();
    if (primaryKey) {
      for (int c = 0; c < columns.size() && key.size() < 3; c++) {
        if (c == 0 || random.nextInt(3) == 0) {
          key.add(new IndexColumn(c, random.nextInt(5) == 0));
          ColumnDef d = columns.get(c);
          columns.set(c, new ColumnDef(d.name(), d.type(), false));
        }
      }
    }
    String table = name("t");
    int area = area(Schema.DATA_AREA); // may add an area: before reading the schema field below
    schema = schema.withTable(table, columns, area);
    int tableId = schema.tables().size();
    if (primaryKey) {
      schema = schema.withIndex(table + "_pk", tableId, key, true, Schema.INDEX_AREA);
    }
  }

  private void index(TableDef t) {
    List<IndexColumn> key = new ArrayList<>();
    Set<Integer> used = new HashSet<>();
    int n = random.nextInt(1, Math.min(t.columns().size(), 4) + 1);
    while (key.size() < n) {
      int c = random.nextInt(t.columns().size());
      if (used.add(c)) {
        key.add(new IndexColumn(c, random.nextBoolean()));
      }
    }
    String name = random.nextInt(6) == 0 ? t.name() + "_pk" : name("ix");
    if (schema.findIndex(name).isPresent()) {
      name = name("ix");
    }
    int area = area(Schema.INDEX_AREA);
    schema = schema.withIndex(name, t.id(), key, random.nextBoolean(), area);
  }

  /** Mostly the default area, sometimes another existing one, sometimes a new one. */
  private int area(int defaultArea) {
    int roll = random.nextInt(6);
    if (roll == 0 && schema.areas().size() < 20) {
      schema = schema.withArea("area_" + (++counter));
      return schema.areas().size() - 1;
    }
    if (roll == 1) {
      return random.nextInt(schema.areas().size());
    }
    return defaultArea;
  }

  private ColumnType type() {
    return switch (random.nextInt(11)) {
      case 0 -> ColumnType.of(TypeKind.BIGINT);
      case 1 -> ColumnType.of(TypeKind.INT);
      case 2 -> ColumnType.of(TypeKind.SMALLINT);
      case 3 -> ColumnType.of(TypeKind.DOUBLE);
      case 4 -> {
        int p = random.nextInt(1, ColumnType.MAX_DECIMAL_PRECISION + 1);
        yield ColumnType.decimal(p, random.nextInt(0, p + 1));
      }
      case 5 -> ColumnType.varchar(random.nextBoolean() ? 0 : random.nextInt(1, 5000));
      case 6 -> ColumnType.of(TypeKind.TEXT);
      case 7 -> ColumnType.of(TypeKind.DATE);
      case 8 -> ColumnType.of(TypeKind.TIMESTAMP);
      case 9 -> ColumnType.of(TypeKind.BOOLEAN);
      default -> ColumnType.varbinary(random.nextBoolean() ? 0 : random.nextInt(1, 5000));
    };
  }

  /** A fresh name: usually plain, sometimes odd (keyword, quoting needed, upper case). */
  private String name(String prefix) {
    while (true) {
      String name;
      int roll = random.nextInt(5);
      if (roll == 0) {
        name =
            ODD_NAMES[random.nextInt(ODD_NAMES.length)] + (random.nextBoolean() ? "" : counter++);
      } else if (roll == 1) {
        name = prefix.toUpperCase(java.util.Locale.ROOT) + "_" + counter++;
      } else {
        name = prefix + "_" + counter++;
      }
      if (usedNames.add(name.toLowerCase(java.util.Locale.ROOT) + "/" + prefix)) {
        return name;
      }
    }
  }
}
