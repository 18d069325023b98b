package dev.idxkit.core;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.DatabaseStats.AreaStats;
import dev.idxkit.core.DatabaseStats.IndexStats;
import dev.idxkit.core.DatabaseStats.ReadAhead;
import dev.idxkit.core.DatabaseStats.State;
import dev.idxkit.core.DatabaseStats.TableStats;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.schema.Schema;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.TableState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds {@link DatabaseStats} from the store's published meta and counters; called under the read
 * lock so the meta, the index roots and the pages read for tree heights agree.
 */
final class StatsReader {
  private StatsReader() {}

  static DatabaseStats read(Database db, Store store) {
    MetaState meta = store.meta();
    Schema schema = db.schema();
    Path dir = store.dir().toAbsolutePath().normalize();
    List<AreaStats> areas = new ArrayList<>();
    String adviceProblem = null;
    for (int a = 0; a < meta.areaSlots(); a++) {
      String name = meta.areaName(a);
      if (name != null) {
        Path f = dir.resolve(name + ".area");
        String problem = store.areaFile(a).adviceProblem();
        if (problem != null && adviceProblem == null) {
          adviceProblem = problem + " (" + f.getFileName() + ")";
        }
        areas.add(
            new AreaStats(
                name,
                f,
                size(f),
                meta.hwm(a),
                store.freePages(a),
                store.pagesRead(a),
                store.pagesWritten(a)));
      }
    }
    List<TableStats> tables = new ArrayList<>();
    for (TableInfo t : db.catalog().tables()) {
      TableState ts = meta.table(t.id());
      tables.add(
          new TableStats(
              t.name(), schema.area(t.area()).name(), ts.rows(), ts.pages().pageCount()));
    }
    List<IndexStats> indexes = new ArrayList<>();
    for (IndexInfo ix : db.catalog().indexes()) {
      List<String> cols = new ArrayList<>();
      for (int i = 0; i < ix.columns().length; i++) {
        var c = ix.table().columns().get(ix.columns()[i]);
        boolean desc = ix.def().columns().get(i).descending();
        cols.add(c.name() + (desc ? " DESC" : ""));
      }
      IndexState s = meta.index(ix.id());
      State state =
          s == null || s.root() == 0 ? State.NONE : s.active() ? State.ACTIVE : State.INACTIVE;
      int height =
          state == State.NONE
              ? 0
              : new BTree(store.committedPages(ix.area()), s.root(), ix.name()).height();
      indexes.add(
          new IndexStats(
              ix.name(),
              ix.table().name(),
              cols,
              ix.unique(),
              schema.area(ix.area()).name(),
              state,
              height));
    }
    return new DatabaseStats(
        dir,
        meta.pageSize(),
        meta.generation(),
        meta.checkpointLsn(),
        store.walBytes(),
        store.recovery().transactions(),
        store.committedImages(),
        store.bufferedChanges(),
        areas,
        tables,
        indexes,
        adviceProblem == null
            ? new ReadAhead(true, "madvise: random reads, read-ahead by scans")
            : new ReadAhead(false, adviceProblem));
  }

  private static long size(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      return 0;
    }
  }
}
