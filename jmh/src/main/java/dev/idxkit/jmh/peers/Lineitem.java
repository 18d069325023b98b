package dev.idxkit.jmh.peers;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.IndexColumn;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TpchDdl;
import dev.idxkit.loader.CsvExport;
import dev.idxkit.loader.IndexBuild;
import dev.idxkit.loader.IndexMode;
import dev.idxkit.loader.LoadInput;
import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadOptions;
import dev.idxkit.loader.LoadOutcome;
import dev.idxkit.loader.LoadReport;
import dev.idxkit.loader.Loader;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.TpchOptions;
import dev.idxkit.loader.input.TpchSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * TPC-H lineitem for the {@code idxbuild} and {@code load} experiments, on the idxkit side: the
 * database with the TPC-H schema, the table filled from the built-in generator, the CSV file every
 * peer loads (written once from that table by {@link CsvExport}, so every store holds the very same
 * rows), the SQL the peers run for the same six indexes, and a sample of rows to cross-check them.
 *
 * <p>The six indexes are lineitem's in {@link TpchDdl}: {@code lineitem_pk} (l_orderkey,
 * l_linenumber) unique, l_partkey, l_suppkey, l_shipdate, l_receiptdate and (l_partkey, l_suppkey).
 * The peers' DDL is generated from idxkit's catalog, so the two cannot drift apart.
 */
final class Lineitem {
  static final String TABLE = "lineitem";
  static final String PK = "lineitem_pk";

  /** lineitem's indexes in the TPC-H schema: the six of the experiments. */
  static final int TABLE_INDEXES = 6;

  private Lineitem() {}

  /** A new database in {@code dir} (absent or empty) with the TPC-H schema. */
  static Database create(Path dir) {
    Database db = Database.create(dir);
    try {
      db.execute(TpchDdl.text(), TpchDdl.SOURCE);
      return db;
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /** The rows TPC-H has at {@code sf}. */
  static long rows(double sf) {
    return TpchSchema.LINEITEM.rowCount(sf);
  }

  /**
   * Loads lineitem at {@code sf} from the generator with {@code mode} (NONE leaves the indexes
   * inactive for a rebuild; DEFERRED builds them with {@code build}); fails unless it completed.
   */
  static LoadReport generate(Database db, double sf, IndexMode mode, IndexBuild build) {
    LoadOptions o =
        LoadOptions.of(TABLE, LoadInput.tpch(TpchSchema.LINEITEM, TpchOptions.scale(sf)))
            .withIndexMode(mode);
    return completed(new Loader(db, o, build).run(LoadListener.NONE));
  }

  /** Loads lineitem from {@code csv} (written by {@link #exportCsv}); fails unless it completed. */
  static LoadReport loadCsv(Database db, Path csv, IndexMode mode, IndexBuild build) {
    LoadOptions o =
        LoadOptions.of(TABLE, LoadInput.csv(csv, CsvOptions.defaults())).withIndexMode(mode);
    return completed(new Loader(db, o, build).run(LoadListener.NONE));
  }

  private static LoadReport completed(LoadReport r) {
    if (r.outcome() != LoadOutcome.COMPLETED || r.rejected() != 0) {
      throw new IllegalStateException(
          "lineitem load ended " + r.outcome() + ": " + String.join("; ", r.summaryLines()));
    }
    return r;
  }

  /**
   * The CSV of lineitem at {@code csv}: reused if a file written for the same row count is there (a
   * {@code .rows} file beside it records the count), else exported from {@code db}. Returns the
   * export's seconds, or 0 when reused.
   */
  static double exportCsv(Database db, Path csv) {
    Path rowsFile = csv.resolveSibling(csv.getFileName() + ".rows");
    long rows = db.table(TABLE).rowCount();
    try {
      if (Files.exists(csv)
          && Files.exists(rowsFile)
          && Files.readString(rowsFile, StandardCharsets.US_ASCII).strip().equals("" + rows)) {
        return 0;
      }
      long t0 = System.nanoTime();
      long written = CsvExport.write(db, TABLE, csv, CsvOptions.defaults());
      if (written != rows) {
        throw new IllegalStateException(
            "exported " + written + " rows of lineitem to " + csv + " (expected: " + rows + ")");
      }
      Files.writeString(rowsFile, rows + "\n", StandardCharsets.US_ASCII);
      return (System.nanoTime() - t0) / 1e9;
    } catch (IOException e) {
      throw new IdxkitIOException("cannot write " + csv, e);
    }
  }

  /** lineitem's indexes in id order: the six of the experiments. */
  static List<IndexInfo> indexes(Database db) {
    return db.catalog().table(TABLE).indexes();
  }

  /** {@code CREATE TABLE lineitem (...)} for a SQL peer: the same columns, no key (a heap). */
  static String createTableSql(TableDef t) {
    StringBuilder b = new StringBuilder("CREATE TABLE ").append(t.name()).append(" (");
    for (int i = 0; i < t.columns().size(); i++) {
      ColumnDef c = t.columns().get(i);
      b.append(i == 0 ? "" : ", ").append(c.name()).append(' ').append(c.type().sql());
      if (!c.nullable()) {
        b.append(" NOT NULL");
      }
    }
    return b.append(')').toString();
  }

  /** {@code CREATE [UNIQUE] INDEX name ON lineitem (cols)} for each index, as idxkit has them. */
  static List<String> createIndexSql(List<IndexInfo> indexes) {
    List<String> out = new ArrayList<>();
    for (IndexInfo ix : indexes) {
      out.add(
          "CREATE "
              + (ix.unique() ? "UNIQUE " : "")
              + "INDEX "
              + ix.name()
              + " ON "
              + ix.table().name()
              + " ("
              + String.join(", ", keyColumns(ix))
              + ")");
    }
    return out;
  }

  /** The key column names of {@code ix}, DESC marked as the DDL has it. */
  static List<String> keyColumns(IndexInfo ix) {
    List<String> cols = new ArrayList<>();
    for (IndexColumn c : ix.def().columns()) {
      cols.add(ix.table().columns().get(c.column()).name() + (c.descending() ? " DESC" : ""));
    }
    return cols;
  }

  /**
   * {@code count} rows of lineitem (all of them if it has fewer) picked uniformly at random by one
   * pass over the table (reservoir sampling, seeded): the probes of the cross-check.
   */
  static List<Object[]> sample(Database db, int count, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Object[]> out = new ArrayList<>();
    long seen = 0;
    try (RowCursor c = db.table(TABLE).scan()) {
      while (c.hasNext()) {
        Row row = c.next();
        seen++;
        if (out.size() < count) {
          out.add(row.values().clone());
        } else {
          long j = r.nextLong(seen);
          if (j < count) {
            out.set((int) j, row.values().clone());
          }
        }
      }
    }
    return out;
  }

  /** The key of {@code ix} in a sampled row: the values of its columns, in index order. */
  static Object[] key(IndexInfo ix, Object[] row) {
    List<IndexColumn> cols = ix.def().columns();
    Object[] k = new Object[cols.size()];
    for (int i = 0; i < k.length; i++) {
      k[i] = row[cols.get(i).column()];
    }
    return k;
  }

  /** idxkit's answer to the cross-check: rows of {@code ix} with this key. */
  static long count(Database db, IndexInfo ix, Object[] key) {
    return db.index(ix.name()).get(key).size();
  }
}
