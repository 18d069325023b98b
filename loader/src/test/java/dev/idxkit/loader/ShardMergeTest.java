package dev.idxkit.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.core.schema.TpchDdl;
import dev.idxkit.core.testing.Seeds;
import dev.idxkit.loader.input.TpchOptions;
import dev.idxkit.loader.input.TpchSchema;
import dev.idxkit.loader.shards.ManifestShard;
import dev.idxkit.loader.shards.ShardBuilder;
import dev.idxkit.loader.shards.ShardManifest;
import dev.idxkit.loader.shards.ShardMerge;
import dev.idxkit.loader.shards.ShardSchema;
import io.trino.tpch.TpchEntity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shards written by {@link ShardBuilder} from sorted rows and joined by {@link ShardMerge}, without
 * Spark: the merged database passes its check and holds exactly what {@code idxkit load} builds
 * from the same rows, table and every index, row for row in order.
 */
class ShardMergeTest {
  @TempDir Path tmp;

  @Test
  void lineitemShardsMergeIntoWhatALoadBuilds() {
    double sf = 0.01;
    ShardSchema schema = ShardSchema.of(TpchDdl.text(), "lineitem");
    List<Object[]> rows = new ArrayList<>();
    for (TpchEntity e : TpchSchema.LINEITEM.generator(sf, 1, 1)) {
      rows.add(TpchSchema.LINEITEM.toRow(e));
    }
    // The generator yields lineitem in primary-key order; cut it into 3 uneven ranges and an empty
    // one, as range partitioning may produce.
    int[] cuts = {0, rows.size() / 5, rows.size() / 5, rows.size() * 3 / 4, rows.size()};
    Path shards = tmp.resolve("shards");
    List<ManifestShard> infos = writeShards(schema, rows, cuts, shards);
    new ShardManifest(schema, 8192, rows.size(), infos).write(shards);

    ShardMerge.Report r = ShardMerge.merge(shards, tmp.resolve("merged"));
    assertThat(r.rows()).isEqualTo(rows.size());
    assertThat(r.shards()).isEqualTo(4);

    try (Database merged = Database.open(tmp.resolve("merged"));
        Database loaded = Database.create(tmp.resolve("loaded"))) {
      loaded.execute(TpchDdl.text(), TpchDdl.SOURCE);
      LoadReport lr =
          new Loader(
                  loaded,
                  LoadOptions.of(
                      "lineitem", LoadInput.tpch(TpchSchema.LINEITEM, TpchOptions.scale(sf))),
                  new TestIndexBuild())
              .run(LoadListener.NONE);
      assertThat(lr.rowsLoaded()).isEqualTo(rows.size());
      LoadTesting.assertClean(merged, "merged");
      LoadTesting.assertSameDatabase(merged, loaded, false);
    }
  }

  @Test
  void overflowRecordsAndTheirChainsMoveWithTheirShard() {
    String ddl =
        "CREATE TABLE t (id BIGINT PRIMARY KEY, body TEXT NOT NULL, tag INT);\n"
            + "CREATE INDEX t_tag ON t (tag);\n";
    ShardSchema schema = ShardSchema.of(ddl, "t");
    long seed = Seeds.seed();
    SplittableRandom rnd = Seeds.random(seed);
    List<Object[]> rows = new ArrayList<>();
    for (long id = 1; id <= 600; id++) {
      int len = rnd.nextInt(10) == 0 ? 9000 + rnd.nextInt(30000) : rnd.nextInt(200);
      rows.add(
          new Object[] {id, "x".repeat(len) + id, rnd.nextInt(5) == 0 ? null : rnd.nextInt(40)});
    }
    int[] cuts = {0, 150, 420, 600};
    Path shards = tmp.resolve("shards");
    List<ManifestShard> infos = writeShards(schema, rows, cuts, shards);
    new ShardManifest(schema, 8192, rows.size(), infos).write(shards);
    ShardMerge.merge(shards, tmp.resolve("merged"));

    try (Database merged = Database.open(tmp.resolve("merged"));
        Database inserted = Database.create(tmp.resolve("inserted"))) {
      inserted.execute(ddl);
      Table t = inserted.table("t");
      try (Transaction tx = inserted.begin()) {
        for (Object[] row : rows) {
          tx.insert(t, row);
        }
        tx.commit();
      }
      LoadTesting.assertClean(merged, "merged, seed " + seed);
      LoadTesting.assertSameDatabase(merged, inserted, false);
    }
  }

  @Test
  void duplicateKeyAndNullAreOneLineNamingShardColumnAndValue() {
    String ddl = "CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(10) NOT NULL);\n";
    ShardSchema schema = ShardSchema.of(ddl, "t");
    var options = new ShardBuilder.Options(8192, 1 << 20, tmp.resolve("sort"));
    byte[] k1 = key(schema, 1L);
    try (ShardBuilder b = ShardBuilder.create(tmp.resolve("a"), "shard-00007", schema, options)) {
      b.add(k1, new Object[] {1L, "one"});
      assertThatThrownBy(() -> b.add(k1, new Object[] {1L, "again"}))
          .isInstanceOf(InvalidInputException.class)
          .hasMessage("shard-00007: duplicate primary key primary key (id) = (1) (index t_pk)");
    }
    try (ShardBuilder b = ShardBuilder.create(tmp.resolve("b"), "shard-00002", schema, options)) {
      assertThatThrownBy(() -> b.add(key(schema, 5L), new Object[] {5L, null}))
          .isInstanceOf(InvalidInputException.class)
          .hasMessage(
              "shard-00002: column name is NULL but declared NOT NULL, in the row with primary key"
                  + " (id) = (5)");
    }
  }

  private static byte[] key(ShardSchema schema, Object... values) {
    return new Catalog(schema.schema()).index(schema.keyIndex()).encoder().encode(values);
  }

  private List<ManifestShard> writeShards(
      ShardSchema schema, List<Object[]> rows, int[] cuts, Path dir) {
    IndexInfo key = new Catalog(schema.schema()).index(schema.keyIndex());
    var encoder = key.encoder();
    List<ManifestShard> infos = new ArrayList<>();
    for (int s = 0; s + 1 < cuts.length; s++) {
      String name = ShardManifest.shardName(s);
      try (ShardBuilder b =
          ShardBuilder.create(
              dir.resolve(name),
              name,
              schema,
              new ShardBuilder.Options(8192, 8L << 20, tmp.resolve("sort-" + s)))) {
        for (int i = cuts[s]; i < cuts[s + 1]; i++) {
          Object[] row = rows.get(i);
          b.add(encoder.encode(key.keyOf(row)), row);
        }
        infos.add(b.finish());
      }
    }
    return infos;
  }
}
