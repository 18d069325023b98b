package dev.idxkit.idxbuild;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which indexes a rebuild covers, as {@code proutil -C idxbuild} offers: all of them, those of some
 * tables or areas, named ones, or the inactive ones (left by a load without index build). Criteria
 * combine as a union; none given means all.
 */
public record Selection(
    Set<String> tables, Set<String> areas, Set<String> indexes, boolean inactive) {
  public static final Selection ALL = new Selection(Set.of(), Set.of(), Set.of(), false);

  public Selection {
    tables = Set.copyOf(tables);
    areas = Set.copyOf(areas);
    indexes = Set.copyOf(indexes);
  }

  public boolean isAll() {
    return tables.isEmpty() && areas.isEmpty() && indexes.isEmpty() && !inactive;
  }

  /** The selected indexes in id order; unknown names are an {@link InvalidInputException}. */
  public List<IndexInfo> resolve(Catalog catalog, MetaState meta) {
    Set<IndexInfo> out = new LinkedHashSet<>();
    for (String t : tables) {
      int id = catalog.table(t).id();
      catalog.indexes().stream().filter(i -> i.def().tableId() == id).forEach(out::add);
    }
    for (String a : areas) {
      int id = catalog.schema().requireArea(a).id();
      catalog.indexes().stream().filter(i -> i.area() == id).forEach(out::add);
    }
    for (String i : indexes) {
      out.add(catalog.index(i));
    }
    if (inactive) {
      for (IndexInfo i : catalog.indexes()) {
        IndexState s = meta.index(i.id());
        if (s == null || !s.active()) {
          out.add(i);
        }
      }
    }
    if (isAll()) {
      out.addAll(catalog.indexes());
    }
    List<IndexInfo> list = new ArrayList<>(out);
    list.sort((a, b) -> Integer.compare(a.id(), b.id()));
    return list;
  }
}
