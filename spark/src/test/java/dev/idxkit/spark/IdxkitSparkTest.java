package dev.idxkit.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Database;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.Row;
import dev.idxkit.core.schema.TpchDdl;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.loader.LoadInput;
import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadOptions;
import dev.idxkit.loader.LoadReport;
import dev.idxkit.loader.Loader;
import dev.idxkit.loader.RebuildIndexBuild;
import dev.idxkit.loader.input.TpchOptions;
import dev.idxkit.loader.input.TpchSchema;
import dev.idxkit.loader.shards.ManifestShard;
import dev.idxkit.loader.shards.ShardManifest;
import dev.idxkit.loader.shards.ShardMerge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local-mode checks, on one {@code local[2,2]} session: TPC-H lineitem at SF 0.05
 * (299,814 rows, six indexes) generated as a DataFrame, written as 4 shards; every shard passes
 * {@code check}; the shards hold exactly the rows {@code idxkit load} loads from the same
 * generator; {@code merge-shards} gives the database the load builds, every index entry for entry;
 * a task that fails its first attempt is retried and leaves one shard per range and no litter; bad
 * input fails the job with one message and leaves nothing behind.
 */
class IdxkitSparkTest {
  static final double SF = Double.parseDouble(System.getProperty("spark.tpch.sf", "0.05"));
  static final int SHARDS = 4;

  @TempDir static Path tmp;
  static SparkSession spark;
  static Path shards;
  static ShardManifest manifest;
  static Database loaded;

  @BeforeAll
  static void writeShardsAndLoad() {
    long t0 = System.nanoTime();
    spark = SparkTesting.local("idxkit-spark-test");
    long t1 = System.nanoTime();
    shards = tmp.resolve("shards");
    Dataset<org.apache.spark.sql.Row> lineitem =
        TpchFrames.table(spark, TpchSchema.LINEITEM, SF, 4);
    manifest =
        IdxkitSpark.write(
            lineitem,
            TpchDdl.text(),
            "lineitem",
            shards.toString(),
            ShardOptions.of(SHARDS).withSortMemory(32L << 20));
    long t2 = System.nanoTime();
    loaded = load(tmp.resolve("loaded"), SF);
    System.out.printf(
        "session %.1f s, write of SF %s into %d shards %.1f s, load %.1f s%n",
        (t1 - t0) / 1e9, SF, SHARDS, (t2 - t1) / 1e9, (System.nanoTime() - t2) / 1e9);
  }

  @AfterAll
  static void stop() {
    if (loaded != null) {
      loaded.close();
    }
    if (spark != null) {
      spark.stop();
    }
  }

  static Database load(Path dir, double sf) {
    Database db = Database.create(dir);
    db.execute(TpchDdl.text(), TpchDdl.SOURCE);
    LoadReport r =
        new Loader(
                db,
                LoadOptions.of(
                    "lineitem", LoadInput.tpch(TpchSchema.LINEITEM, TpchOptions.scale(sf))),
                new RebuildIndexBuild(
                    RebuildOptions.defaults(SrtFile.ofDirectory(dir.getParent()))
                        .withMemory(64L << 20),
                    "test"))
            .run(LoadListener.NONE);
    assertThat(r.rowsLoaded()).isEqualTo(TpchSchema.LINEITEM.rowCount(sf));
    return db;
  }

  @Test
  void everyShardPassesCheckAndTheManifestDescribesIt() {
    assertThat(SparkTesting.listing(shards))
        .containsExactly(
            "_manifest.json", "shard-00000", "shard-00001", "shard-00002", "shard-00003");
    ShardManifest read = ShardManifest.read(shards);
    assertThat(read.rows()).isEqualTo(TpchSchema.LINEITEM.rowCount(SF));
    assertThat(read.shards()).hasSize(SHARDS);
    byte[] prevLast = null;
    for (ManifestShard s : read.shards()) {
      assertThat(s.rows()).as(s.name()).isPositive();
      if (prevLast != null) {
        assertThat(java.util.Arrays.compareUnsigned(prevLast, s.firstKey())).isNegative();
      }
      prevLast = s.lastKey();
      try (Database db =
          Database.open(shards.resolve(s.name()), Database.DatabaseOptions.defaults().readOnly())) {
        var report = db.check();
        assertThat(report.problems()).as("check of %s", s.name()).isEmpty();
        assertThat(report.tableRows().get("lineitem")).isEqualTo(s.rows());
        assertThat(s.entries()).hasSize(6);
        s.entries().forEach((ix, n) -> assertThat(n).as(s.name() + " " + ix).isEqualTo(s.rows()));
      }
    }
  }

  @Test
  void theShardsTogetherHoldExactlyTheRowsOfALoad() {
    List<Database> dbs = new ArrayList<>();
    try {
      List<Supplier<Iterator<Row>>> parts = new ArrayList<>();
      for (ManifestShard s : manifest.shards()) {
        Database db =
            Database.open(shards.resolve(s.name()), Database.DatabaseOptions.defaults().readOnly());
        dbs.add(db);
        parts.add(() -> SameContent.cursor(db.table("lineitem").scan()));
      }
      long n =
          SameContent.assertSameRows(
              () -> SameContent.concat(parts),
              () -> SameContent.cursor(loaded.table("lineitem").scan()),
              "lineitem across the shards");
      assertThat(n).isEqualTo(TpchSchema.LINEITEM.rowCount(SF));
    } finally {
      dbs.forEach(Database::close);
    }
  }

  @Test
  void mergeShardsGivesTheDatabaseALoadBuildsEntryForEntry() {
    Path merged = tmp.resolve("merged");
    ShardMerge.Report r = ShardMerge.merge(shards, merged);
    assertThat(r.rows()).isEqualTo(TpchSchema.LINEITEM.rowCount(SF));
    try (Database db = Database.open(merged)) {
      assertThat(db.check().problems()).isEmpty();
      SameContent.assertSameDatabase(db, loaded);
    }
  }

  @Test
  void readBackGivesOnePartitionPerShardAndReadsOnlyTheShardsOfAKeyRange() {
    Dataset<org.apache.spark.sql.Row> all = IdxkitSpark.read(spark, shards.toString());
    assertThat(all.rdd().getNumPartitions()).isEqualTo(SHARDS);
    assertThat(all.columns()).hasSize(16).startsWith("l_orderkey", "l_partkey");
    assertThat(all.count()).isEqualTo(TpchSchema.LINEITEM.rowCount(SF));

    KeyRange firstOrders = KeyRange.closed(new Object[] {1L}, new Object[] {100L});
    Dataset<org.apache.spark.sql.Row> some =
        IdxkitSpark.read(spark, shards.toString(), firstOrders);
    assertThat(some.rdd().getNumPartitions()).as("shards read").isEqualTo(1);
    long expected;
    try (var c = loaded.index("lineitem_pk").scan(firstOrders, false, -1)) {
      expected = c.take(Integer.MAX_VALUE).size();
    }
    assertThat(some.count()).isEqualTo(expected).isPositive();
    org.apache.spark.sql.Row top = some.orderBy(functions.col("l_orderkey").desc()).first();
    assertThat(top.getLong(0)).isLessThanOrEqualTo(100L);
  }

  @Test
  void aTaskThatFailsItsFirstAttemptIsRetriedAndLeavesOneShardPerRange() throws Exception {
    Path out = tmp.resolve("retried");
    Path marker = tmp.resolve("fault-fired");
    String markerPath = marker.toString();
    ShardOptions opts =
        ShardOptions.of(SHARDS)
            .withSortMemory(8L << 20)
            .withFault(
                (partition, attempt) -> {
                  if (partition == 2 && attempt == 0) {
                    try {
                      Files.writeString(Path.of(markerPath), "attempt 0 of partition 2 failed\n");
                    } catch (java.io.IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                    throw new IllegalStateException("injected failure before commit");
                  }
                });
    ShardManifest m =
        IdxkitSpark.write(
            TpchFrames.table(spark, TpchSchema.LINEITEM, 0.002, 2),
            TpchDdl.text(),
            "lineitem",
            out.toString(),
            opts);
    assertThat(marker).exists();
    assertThat(SparkTesting.listing(out))
        .containsExactly(
            "_manifest.json", "shard-00000", "shard-00001", "shard-00002", "shard-00003");
    assertThat(m.rows()).isEqualTo(TpchSchema.LINEITEM.rowCount(0.002));
    for (ManifestShard s : m.shards()) {
      assertThat(SparkTesting.listing(out.resolve(s.name())))
          .as("files of %s: a database and nothing else", s.name())
          .doesNotContain("_temporary")
          .contains("meta");
      try (Database db =
          Database.open(out.resolve(s.name()), Database.DatabaseOptions.defaults().readOnly())) {
        assertThat(db.check().problems()).isEmpty();
        assertThat(db.table("lineitem").rowCount()).isEqualTo(s.rows());
      }
    }
  }

  // ---- bad input ----

  static final String KV =
      "CREATE TABLE kv (k BIGINT PRIMARY KEY, v VARCHAR(20) NOT NULL, n INT);\n"
          + "CREATE INDEX kv_v ON kv (v);\n";

  static Dataset<org.apache.spark.sql.Row> kv(List<Object[]> rows, int partitions) {
    StructType schema =
        new StructType()
            .add("k", DataTypes.LongType, false)
            .add("v", DataTypes.StringType, true)
            .add("n", DataTypes.IntegerType, true);
    List<org.apache.spark.sql.Row> list = new ArrayList<>();
    for (Object[] r : rows) {
      list.add(RowFactory.create(r));
    }
    return spark.createDataFrame(list, schema).repartition(partitions);
  }

  static List<Object[]> kvRows(int n) {
    List<Object[]> rows = new ArrayList<>();
    for (long k = 1; k <= n; k++) {
      rows.add(new Object[] {k, "v" + (k % 17), (int) k});
    }
    return rows;
  }

  @Test
  void aSchemaThatDoesNotMatchTheDdlFailsBeforeAnyTask() {
    Path out = tmp.resolve("bad-schema");
    Dataset<org.apache.spark.sql.Row> df =
        kv(kvRows(10), 2).withColumn("n", functions.col("n").cast("double")).drop("v");
    assertThatThrownBy(() -> IdxkitSpark.write(df, KV, "kv", out.toString(), ShardOptions.of(2)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "the DataFrame does not match table kv: column v (VARCHAR(20)) is missing; column n is"
                + " double (expected: int for INT)");
    assertThat(out).doesNotExist();
  }

  @Test
  void aNullInANotNullColumnFailsNamingColumnValueAndShard() {
    Path out = tmp.resolve("null");
    List<Object[]> rows = kvRows(200);
    rows.get(150)[1] = null;
    assertThatThrownBy(
            () -> IdxkitSpark.write(kv(rows, 3), KV, "kv", out.toString(), ShardOptions.of(2)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "shard-00001: column v is NULL but declared NOT NULL, in the row with primary key (k) ="
                + " (151)");
    assertThat(SparkTesting.listing(out)).isEmpty();
  }

  @Test
  void aDuplicatePrimaryKeyAcrossInputPartitionsFailsNamingValueAndShard() {
    Path out = tmp.resolve("duplicate");
    List<Object[]> rows = kvRows(200);
    rows.add(new Object[] {42L, "again", 0});
    assertThatThrownBy(
            () -> IdxkitSpark.write(kv(rows, 3), KV, "kv", out.toString(), ShardOptions.of(2)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("shard-00000: duplicate primary key primary key (k) = (42) (index kv_pk)");
    assertThat(SparkTesting.listing(out)).isEmpty();
  }

  @Test
  void aRerunOverwritesWhatAFailedRunLeftAndRefusesAForeignDirectory() throws Exception {
    Path out = tmp.resolve("rerun");
    List<Object[]> bad = kvRows(100);
    bad.add(new Object[] {7L, "dup", 0});
    assertThatThrownBy(
        () -> IdxkitSpark.write(kv(bad, 2), KV, "kv", out.toString(), ShardOptions.of(2)));
    ShardManifest m =
        IdxkitSpark.write(kv(kvRows(100), 2), KV, "kv", out.toString(), ShardOptions.of(2));
    assertThat(m.rows()).isEqualTo(100);
    assertThat(SparkTesting.listing(out))
        .containsExactly("_manifest.json", "shard-00000", "shard-00001");

    Path foreign = tmp.resolve("foreign");
    Files.createDirectories(foreign);
    Files.writeString(foreign.resolve("notes.txt"), "mine");
    assertThatThrownBy(
            () ->
                IdxkitSpark.write(
                    kv(kvRows(10), 1), KV, "kv", foreign.toString(), ShardOptions.of(1)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("not empty and not a shard set (it holds notes.txt)");
    assertThat(SparkTesting.listing(foreign)).containsExactly("notes.txt");
  }
}
