package dev.idxkit.spark;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.loader.shards.ManifestShard;
import dev.idxkit.loader.shards.ShardManifest;
import dev.idxkit.loader.shards.ShardSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Builds idxkit databases with Spark, as range-partitioned shards that {@code idxkit merge-shards}
 * joins into one database (or that servers open shard by shard, as ElephantDB and Venice do).
 *
 * <p>{@link #write} steps:
 *
 * <ol>
 *   <li>On the driver: the DataFrame's schema is checked against the DDL's table ({@link
 *       RowMapping}), and the output directory is cleared of an earlier run's shards (anything else
 *       in it is refused).
 *   <li>Each row's primary key (the table's first unique index) is encoded with idxkit's own key
 *       encoder into a binary column. Spark compares binary values as unsigned bytes, which is
 *       exactly idxkit's key order (NULLs first, DESC columns inverted, composite keys
 *       concatenated, strings as escaped UTF-8), so Spark's range partitioning and sort agree with
 *       the trees the tasks build.
 *   <li>{@code repartitionByRange(shards)} on that column and {@code sortWithinPartitions}: Spark
 *       samples the keys, shuffles each row to its range and sorts it there.
 *   <li>One {@link ShardTask} per range writes, checks and commits its shard by rename.
 *   <li>The driver writes {@code _manifest.json} last ({@link ShardManifest}), so a reader sees
 *       either no manifest or a complete shard set. If the job fails, the driver deletes every
 *       shard it made: nothing is left but what a rerun overwrites.
 * </ol>
 *
 * <p>The output directory must be a file system path every executor can write to (local disk for
 * {@code local[*]}, a shared mount on a cluster); tasks rename within it.
 */
public final class IdxkitSpark {
  static final String KEY_COLUMN = "__idxkit_key";
  private static final Pattern OWN_FILES =
      Pattern.compile("shard-\\d{5,}|" + ShardTask.TEMPORARY + "|_manifest\\.json(\\.tmp)?");

  private IdxkitSpark() {}

  /**
   * Writes {@code rows} as {@code opts.shards()} shard databases of {@code table} (declared in
   * {@code ddl}) under {@code outputDir}; returns the manifest it wrote.
   */
  public static ShardManifest write(
      Dataset<Row> rows, String ddl, String table, String outputDir, ShardOptions opts) {
    ShardSchema schema = ShardSchema.of(ddl, table);
    Catalog catalog = new Catalog(schema.schema());
    TableDef def = catalog.table(schema.table()).def();
    RowMapping mapping = RowMapping.of(rows.schema(), def);
    Path out = Path.of(outputDir).toAbsolutePath();
    prepare(out);
    try {
      StructType keyed = new StructType().add(KEY_COLUMN, DataTypes.BinaryType, false);
      for (var f : rows.schema().fields()) {
        keyed = keyed.add(f);
      }
      Dataset<Row> withKey =
          rows.mapPartitions(new KeyColumn(schema, mapping), Encoders.row(keyed));
      Dataset<Row> sorted =
          withKey
              .repartitionByRange(opts.shards(), functions.col(KEY_COLUMN))
              .sortWithinPartitions(functions.col(KEY_COLUMN));
      List<ManifestShard> shards =
          new ArrayList<>(
              sorted
                  .javaRDD()
                  .mapPartitionsWithIndex(
                      new ShardTask(out.toString(), schema, mapping.shifted(1), opts), false)
                  .collect());
      shards.sort(Comparator.comparing(ManifestShard::name));
      long total = shards.stream().mapToLong(ManifestShard::rows).sum();
      ShardManifest manifest = new ShardManifest(schema, opts.pageSize(), total, shards);
      manifest.write(out);
      ShardTask.deleteTree(out.resolve(ShardTask.TEMPORARY));
      return manifest;
    } catch (Exception e) {
      // Scala throws SparkException, a checked exception, from collect() without declaring it.
      cleanUp(out, e);
      throw rethrow(e);
    }
  }

  /**
   * The shard set in {@code dir} as a DataFrame of the table's columns: one partition per shard,
   * rows in primary-key order within each.
   */
  public static Dataset<Row> read(SparkSession spark, String dir) {
    return ShardReader.read(spark, dir, KeyRange.ALL);
  }

  /**
   * The rows of the shard set whose primary key is in {@code range} (values of the leading key
   * columns, as {@link KeyRange} takes them): shards outside the range are not read, and the others
   * are scanned over the range only.
   */
  public static Dataset<Row> read(SparkSession spark, String dir, KeyRange range) {
    return ShardReader.read(spark, dir, range);
  }

  /** Clears what an earlier run left in {@code out}; refuses a directory holding other files. */
  private static void prepare(Path out) {
    try {
      if (Files.exists(out)) {
        List<Path> entries;
        try (Stream<Path> s = Files.list(out)) {
          entries = s.toList();
        }
        for (Path p : entries) {
          if (!OWN_FILES.matcher(p.getFileName().toString()).matches()) {
            throw new InvalidInputException(
                out
                    + ": not empty and not a shard set (it holds "
                    + p.getFileName()
                    + "); choose an empty or new directory");
          }
        }
        // The manifest goes first: a reader never sees it beside a half-deleted set.
        Files.deleteIfExists(out.resolve(ShardManifest.FILE_NAME));
        for (Path p : entries) {
          ShardTask.deleteTree(p);
        }
      }
      Files.createDirectories(out);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot prepare the output directory " + out, e);
    }
  }

  private static void cleanUp(Path out, Exception failure) {
    try (Stream<Path> s = Files.list(out)) {
      for (Path p : s.toList()) {
        if (OWN_FILES.matcher(p.getFileName().toString()).matches()) {
          ShardTask.deleteTree(p);
        }
      }
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  /**
   * The job's failure as the task's own idxkit error (one line naming shard, column and value) when
   * Spark carried it back, else as it came.
   */
  private static RuntimeException rethrow(Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InvalidInputException iie) {
        return new InvalidInputException(iie.getMessage(), e);
      }
      if (t instanceof IdxkitException ie) {
        return new IdxkitException(ie.getMessage(), e);
      }
    }
    // Spark does not always attach the task's exception; its message carries it as text:
    // "... (executor driver): dev.idxkit.core.InvalidInputException: shard-00001: ...".
    var m = TASK_FAILURE.matcher(String.valueOf(e.getMessage()));
    if (m.find()) {
      return m.group(1).equals("InvalidInputException")
          ? new InvalidInputException(m.group(2), e)
          : new IdxkitException(m.group(2), e);
    }
    return e instanceof RuntimeException re ? re : new IdxkitException(e.getMessage(), e);
  }

  private static final Pattern TASK_FAILURE =
      Pattern.compile("dev\\.idxkit\\.[\\w.]*\\.(\\w+Exception): ([^\\n]*)");

  /** Prepends the encoded primary key to every row (runs on the executors, before the shuffle). */
  static final class KeyColumn
      implements org.apache.spark.api.java.function.MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final ShardSchema schema;
    private final RowMapping mapping;

    KeyColumn(ShardSchema schema, RowMapping mapping) {
      this.schema = schema;
      this.mapping = mapping;
    }

    @Override
    public java.util.Iterator<Row> call(java.util.Iterator<Row> input) {
      Catalog catalog = new Catalog(schema.schema());
      IndexInfo key = catalog.index(schema.keyIndex());
      var encoder = key.encoder();
      int[] cols = key.columns();
      return new java.util.Iterator<>() {
        @Override
        public boolean hasNext() {
          return input.hasNext();
        }

        @Override
        public Row next() {
          Row r = input.next();
          Object[] keyValues = new Object[cols.length];
          for (int i = 0; i < cols.length; i++) {
            keyValues[i] = mapping.value(r, cols[i]);
          }
          Object[] out = new Object[r.size() + 1];
          try {
            out[0] = encoder.encode(keyValues);
          } catch (InvalidInputException e) {
            throw new InvalidInputException(
                "primary key " + java.util.Arrays.toString(keyValues) + ": " + e.getMessage(), e);
          }
          for (int i = 0; i < r.size(); i++) {
            out[i + 1] = r.get(i);
          }
          return RowFactory.create(out);
        }
      };
    }
  }
}
