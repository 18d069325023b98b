package dev.idxkit.spark;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.spi.KeyEncoder;
import dev.idxkit.core.spi.Keys;
import dev.idxkit.loader.shards.ManifestShard;
import dev.idxkit.loader.shards.ShardManifest;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * Reads a shard set back as a DataFrame: one partition per shard, rows in primary-key order within
 * each. A primary-key range is pushed down twice: shards whose key range (from the manifest) cannot
 * meet it are not read at all, and in the shards that are read the primary-key index is scanned
 * over the range only.
 *
 * <p>Pruning compares encoded keys: a bound is encoded as a key prefix {@code p}; keys at or above
 * {@code from} start at {@code p(from)}, keys at or below {@code to} end before {@code
 * successor(p(to))}. A shard whose last key is below the first, or whose first key is at or above
 * the second, holds none of the range. Exclusive bounds prune as inclusive ones (never wrongly) and
 * the scan applies them exactly.
 */
final class ShardReader {
  private ShardReader() {}

  static Dataset<Row> read(SparkSession spark, String dir, KeyRange range) {
    Path d = Path.of(dir).toAbsolutePath();
    ShardManifest m = ShardManifest.read(d);
    Catalog cat = new Catalog(m.schema().schema());
    TableDef def = cat.table(m.schema().table()).def();
    IndexInfo key = cat.index(m.schema().keyIndex());
    KeyEncoder enc = key.encoder();
    byte[] low = range.from() == null ? null : enc.encodePrefix(range.from());
    byte[] high = range.to() == null ? null : Keys.successor(enc.encodePrefix(range.to()));
    List<String> names = new ArrayList<>();
    for (ManifestShard s : m.shards()) {
      if (s.isEmpty()) {
        continue;
      }
      boolean below = low != null && Keys.compare(s.lastKey(), low) < 0;
      boolean above = high != null && Keys.compare(s.firstKey(), high) >= 0;
      if (!below && !above) {
        names.add(s.name());
      }
    }
    StructType schema = new StructType();
    for (ColumnDef c : def.columns()) {
      schema = schema.add(c.name(), RowMapping.sparkType(c.type()), c.nullable());
    }
    boolean java8 =
        Boolean.parseBoolean(spark.conf().get("spark.sql.datetime.java8API.enabled", "false"));
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    JavaRDD<Row> rows =
        jsc.parallelize(names, Math.max(1, names.size()))
            .mapPartitions(
                new Scan(
                    d.toString(),
                    m.schema().table(),
                    m.schema().keyIndex(),
                    range.from(),
                    range.fromInclusive(),
                    range.to(),
                    range.toInclusive(),
                    java8));
    return spark.createDataFrame(rows, schema);
  }

  /** Scans the named shards' primary keys over the range (runs on the executors). */
  private record Scan(
      String dir,
      String table,
      String keyIndex,
      Object[] from,
      boolean fromInclusive,
      Object[] to,
      boolean toInclusive,
      boolean java8)
      implements FlatMapFunction<Iterator<String>, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Iterator<Row> call(Iterator<String> shardNames) {
      return new Iterator<>() {
        Database db;
        RowCursor cursor;

        @Override
        public boolean hasNext() {
          while (cursor == null || !cursor.hasNext()) {
            close();
            if (!shardNames.hasNext()) {
              return false;
            }
            open(shardNames.next());
          }
          return true;
        }

        @Override
        public Row next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          Object[] v = cursor.next().values();
          if (!java8) {
            for (int i = 0; i < v.length; i++) {
              if (v[i] instanceof LocalDate ld) {
                v[i] = java.sql.Date.valueOf(ld);
              }
            }
          }
          return RowFactory.create(v);
        }

        private void open(String name) {
          db = Database.open(Path.of(dir, name), Database.DatabaseOptions.defaults().readOnly());
          cursor =
              db.index(keyIndex)
                  .scan(new KeyRange(from, fromInclusive, to, toInclusive), false, -1);
          TaskContext ctx = TaskContext.get();
          if (ctx != null) {
            Database opened = db;
            RowCursor c = cursor;
            ctx.addTaskCompletionListener(
                t -> {
                  c.close();
                  opened.close();
                });
          }
        }

        private void close() {
          if (cursor != null) {
            cursor.close();
            db.close();
            cursor = null;
            db = null;
          }
        }
      };
    }
  }
}
