package dev.idxkit.loader;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.btree.BTree;
import dev.idxkit.core.btree.BuildResult;
import dev.idxkit.core.btree.TreeBuilder;
import dev.idxkit.core.key.KeyEncoder;
import dev.idxkit.core.key.Keys;
import dev.idxkit.core.meta.IndexState;
import dev.idxkit.core.meta.IndexStatus;
import dev.idxkit.core.txn.BulkWrite;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An {@link IndexBuild} for tests: the rebuilder's steps with everything in memory. Per index: read
 * every row, encode {@code key || rid} entries, sort them, check a unique index for two equal keys
 * (naming both RIDs, as the contract asks) before writing anything, build the tree bottom-up
 * through a bulk session's stream, free the old tree, publish the new root as active. All indexes
 * in one publish. The real build (sort groups, runs, merge) must look the same from the loader.
 */
final class TestIndexBuild implements IndexBuild {
  int calls;

  @Override
  public Result build(Database db, List<String> indexNames, Listener listener) {
    calls++;
    long entries = 0;
    try (BulkWrite bulk = db.store().beginBulk()) {
      for (String name : indexNames) {
        IndexInfo ix = db.catalog().index(name);
        byte[][] sorted = sortedEntries(db, ix);
        listener.progress("sort " + name, sorted.length, sorted.length);
        IndexState old = bulk.meta().index(ix.id());
        if (old != null && old.root() != 0) {
          new BTree(bulk.publishedPages(ix.area()), old.root(), name)
              .forEachPage(p -> bulk.freePage(ix.area(), p));
        }
        BuildResult built;
        try (BulkWrite.Stream out = bulk.stream(ix.area())) {
          TreeBuilder b = new TreeBuilder(out, bulk.pageSize(), ix.area(), 100, name);
          for (byte[] e : sorted) {
            b.add(e);
          }
          built = b.finish();
        }
        bulk.meta().index(ix.id(), new IndexState(built.root(), IndexStatus.ACTIVE));
        entries += built.entries();
      }
      bulk.publish();
    } finally {
      db.bulkPublished();
    }
    return new Result(indexNames, entries, "in-memory sort + bottom-up build (test build)");
  }

  private static byte[][] sortedEntries(Database db, IndexInfo ix) {
    List<byte[]> list = new ArrayList<>();
    KeyEncoder encoder = ix.encoder();
    try (RowCursor c = db.table(ix.table().name()).scan()) {
      while (c.hasNext()) {
        Row r = c.next();
        Object[] key = ix.keyOf(r.values());
        list.add(encoder.encodeEntry(key, r.rid()));
      }
    }
    byte[][] sorted = list.toArray(new byte[0][]);
    Arrays.sort(sorted, Keys::compare);
    if (ix.unique()) {
      for (int i = 1; i < sorted.length; i++) {
        byte[] a = sorted[i - 1];
        byte[] b = sorted[i];
        int keyLen = b.length - 8;
        if (a.length == b.length && Keys.compare(a, 0, keyLen, b, 0, keyLen) == 0) {
          Object[] values = encoder.decode(b, 0, keyLen);
          if (!Arrays.asList(values).contains(null)) {
            throw new DuplicateEntryException(
                ix.name(), keyText(ix, values), rid(a, keyLen), rid(b, keyLen));
          }
        }
      }
    }
    return sorted;
  }

  private static long rid(byte[] entry, int at) {
    return dev.idxkit.core.Rid.read(entry, at);
  }

  private static String keyText(IndexInfo ix, Object[] keyValues) {
    Object[] row = new Object[ix.table().columns().size()];
    for (int i = 0; i < ix.columns().length; i++) {
      row[ix.columns()[i]] = keyValues[i];
    }
    return LoadNotes.keyText(ix, row);
  }
}
