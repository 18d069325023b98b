package dev.idxkit.loader;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.btree.BTree;
import dev.idxkit.core.internal.RowOps;
import dev.idxkit.core.meta.IndexState;
import dev.idxkit.core.meta.IndexStatus;
import dev.idxkit.core.page.PageAccess;
import dev.idxkit.core.txn.StoreTxn;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An {@link IndexBuild} for tests, slow and simple: per index, read every row of the table, check a
 * unique index for duplicate keys (naming both RIDs, as the contract asks), then in one transaction
 * free the old tree, start an empty one, insert every entry and mark it active. The real build (the
 * rebuilder's sort-merge) must behave the same way seen from the loader.
 */
final class ScanInsertIndexBuild implements IndexBuild {
  int calls;

  @Override
  public Result build(Database db, List<String> indexNames, Listener listener) {
    calls++;
    long entries = 0;
    for (String name : indexNames) {
      IndexInfo ix = db.catalog().index(name);
      String table = db.catalog().table(ix.def().tableId()).name();
      List<Row> rows = new ArrayList<>();
      try (RowCursor c = db.table(table).scan()) {
        c.forEachRemaining(rows::add);
      }
      if (ix.unique()) {
        checkUnique(ix, rows);
      }
      try (StoreTxn txn = db.store().begin(null)) {
        PageAccess pages = txn.pages(ix.area());
        IndexState old = txn.index(ix.id());
        if (old != null && old.root() != 0) {
          new BTree(pages, old.root(), name).forEachPage(pages::free);
        }
        txn.setIndexState(ix.id(), new IndexState(BTree.create(pages), IndexStatus.ACTIVE));
        for (Row r : rows) {
          RowOps.addToIndex(txn, ix, r.values(), r.rid());
        }
        txn.commit();
      }
      entries += rows.size();
      listener.progress("insert " + name, rows.size(), rows.size());
    }
    return new Result(indexNames, entries, "scan + insert (test build)");
  }

  private static void checkUnique(IndexInfo ix, List<Row> rows) {
    Map<ByteBuffer, Long> seen = new HashMap<>();
    var encoder = ix.encoder();
    for (Row r : rows) {
      Object[] key = ix.keyOf(r.values());
      boolean hasNull = false;
      for (Object v : key) {
        hasNull |= v == null;
      }
      if (hasNull) {
        continue;
      }
      Long first = seen.put(ByteBuffer.wrap(encoder.encode(key)), r.rid());
      if (first != null) {
        throw new DuplicateEntryException(
            ix.name(), Loader.keyText(ix, r.values()), first, r.rid());
      }
    }
  }
}
