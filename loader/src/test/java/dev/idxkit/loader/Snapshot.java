package dev.idxkit.loader;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.Index;
import dev.idxkit.core.Row;
import dev.idxkit.core.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a table holds, in a form that does not depend on where rows landed: its rows sorted as text,
 * and per index whether it is active, its keys in index order and its rows sorted. Two loads of the
 * same input that were interrupted differently place rows on different pages, so RIDs and heap
 * order may differ; this is what must not.
 */
record Snapshot(List<String> rows, Map<String, IndexView> indexes) {
  record IndexView(boolean active, List<String> keysInOrder, List<String> rows) {}

  static Snapshot of(Database db, String table) {
    Table t = db.table(table);
    List<String> rows = new ArrayList<>(LoadTesting.texts(LoadTesting.rows(t)));
    rows.sort(null);
    Map<String, IndexView> indexes = new TreeMap<>();
    for (IndexInfo ix : db.catalog().table(table).indexes()) {
      Index index = db.index(ix.name());
      if (!index.isActive()) {
        indexes.put(ix.name(), new IndexView(false, List.of(), List.of()));
        continue;
      }
      List<String> keys = new ArrayList<>();
      List<String> entries = new ArrayList<>();
      for (Row r : LoadTesting.rows(index)) {
        keys.add(LoadNotes.keyText(ix, r.values()));
        entries.add(LoadTesting.text(r.values()));
      }
      entries.sort(null);
      indexes.put(ix.name(), new IndexView(true, keys, entries));
    }
    return new Snapshot(rows, indexes);
  }
}
