package dev.idxkit.idxbuild;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.AreaDef;
import dev.idxkit.core.schema.IndexDef;
import dev.idxkit.core.schema.Schema;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Which indexes a rebuild covers, as {@code proutil -C idxbuild} offers: all of them, those of some
 * tables or areas, named ones, or the inactive ones (left by a load without index build). Criteria
 * combine as a union; none given means all. Names are kept without surrounding blanks ({@code
 * --table a, b} gives " b"); they match the catalog's ignoring case, as everywhere in idxkit.
 *
 * <p>{@link #check} validates the names against a schema before any work, with the messages the
 * command line shows (they name the options {@code idxkit idxbuild} takes).
 */
public record Selection(
    Set<String> tables, Set<String> areas, Set<String> indexes, boolean inactive) {
  public static final Selection ALL = new Selection(Set.of(), Set.of(), Set.of(), false);

  /** Names listed at most in an unknown-name message; more are counted. */
  static final int MAX_LISTED = 30;

  public Selection {
    tables = stripped(tables);
    areas = stripped(areas);
    indexes = stripped(indexes);
  }

  /** The names stripped, in the order given (the first unknown one is the first reported). */
  private static Set<String> stripped(Set<String> names) {
    Set<String> out = new LinkedHashSet<>();
    names.forEach(n -> out.add(n.strip()));
    return Collections.unmodifiableSet(out);
  }

  /**
   * Checks that every table, index and area named exists in {@code schema}; an unknown one is bad
   * input (exit 2 on the command line) naming the option, the name, the database and the names
   * there are, e.g. {@code --index : no index nope in shop.db (indexes: orders_pk, ...)}.
   *
   * @param database the database as the user named it, for the message
   * @throws InvalidInputException for the first unknown name: tables, then indexes, then areas,
   *     each in the order given
   */
  public void check(Schema schema, String database) {
    for (String t : tables) {
      if (schema.findTable(t).isEmpty()) {
        throw unknown("--table", "table", t, database, names(schema.tables(), TableDef::name));
      }
    }
    for (String i : indexes) {
      if (schema.findIndex(i).isEmpty()) {
        throw unknown("--index", "index", i, database, names(schema.indexes(), IndexDef::name));
      }
    }
    for (String a : areas) {
      if (schema.findArea(a).isEmpty()) {
        // Areas are few (data, index and those DDL adds): all are listed.
        throw new InvalidInputException(
            "--area : no area "
                + a
                + " in "
                + database
                + " (areas: "
                + String.join(", ", names(schema.areas(), AreaDef::name))
                + ")");
      }
    }
  }

  private static <T> List<String> names(List<T> items, Function<T, String> name) {
    return items.stream().map(name).toList();
  }

  private static InvalidInputException unknown(
      String option, String what, String name, String database, List<String> known) {
    String listed;
    if (known.isEmpty()) {
      listed = "it has no " + (what.equals("index") ? "indexes" : what + "s");
    } else {
      int shown = Math.min(known.size(), MAX_LISTED);
      listed =
          (what.equals("index") ? "indexes" : what + "s")
              + ": "
              + String.join(", ", known.subList(0, shown))
              + (known.size() > shown ? ", ... " + (known.size() - shown) + " more" : "");
    }
    return new InvalidInputException(
        option + " : no " + what + " " + name + " in " + database + " (" + listed + ")");
  }

  public boolean isAll() {
    return tables.isEmpty() && areas.isEmpty() && indexes.isEmpty() && !inactive;
  }

  /** The selected indexes in id order; unknown names are an {@link InvalidInputException}. */
  public List<IndexInfo> resolve(Catalog catalog, MetaState meta) {
    // Keyed by id, not by the IndexInfo record: a record's hashCode hashes every component (the
    // table's columns too) through a method handle its first call must build, 26-45 ms of a cold
    // command's start (async-profiler, wall clock, two runs).
    Map<Integer, IndexInfo> out = new TreeMap<>();
    for (String t : tables) {
      int id = catalog.table(t).id();
      for (IndexInfo i : catalog.indexes()) {
        if (i.def().tableId() == id) {
          out.put(i.id(), i);
        }
      }
    }
    for (String a : areas) {
      int id = catalog.schema().requireArea(a).id();
      for (IndexInfo i : catalog.indexes()) {
        if (i.area() == id) {
          out.put(i.id(), i);
        }
      }
    }
    for (String i : indexes) {
      IndexInfo ix = catalog.index(i);
      out.put(ix.id(), ix);
    }
    for (IndexInfo i : catalog.indexes()) {
      IndexState s = meta.index(i.id());
      if (isAll() || inactive && (s == null || !s.active())) {
        out.put(i.id(), i);
      }
    }
    return new ArrayList<>(out.values());
  }
}
