package dev.idxkit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.core.schema.TpchDdl;
import dev.idxkit.loader.input.TpchSchema;
import dev.idxkit.loader.shards.ManifestShard;
import dev.idxkit.loader.shards.ShardManifest;
import dev.idxkit.loader.shards.ShardMerge;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write with executors in their own JVMs, as on a real cluster ({@code local-cluster[2,1,1024]}
 * on loopback): everything a task captures crosses a process boundary serialized, and shards are
 * written by processes other than the driver. The shards check clean and merge into a database that
 * checks clean and holds every row.
 */
class LocalClusterTest {
  @TempDir Path tmp;

  @Test
  void executorsInTheirOwnJvmsWriteShardsThatMerge() {
    double sf = 0.002;
    SparkSession spark = SparkTesting.localCluster("idxkit-local-cluster-test");
    ShardManifest m;
    try {
      m =
          IdxkitSpark.write(
              TpchFrames.table(spark, TpchSchema.LINEITEM, sf, 2),
              TpchDdl.text(),
              "lineitem",
              tmp.resolve("shards").toString(),
              ShardOptions.of(2).withSortMemory(8L << 20));
    } finally {
      spark.stop();
    }
    assertThat(m.rows()).isEqualTo(TpchSchema.LINEITEM.rowCount(sf));
    assertThat(SparkTesting.listing(tmp.resolve("shards")))
        .containsExactly("_manifest.json", "shard-00000", "shard-00001");
    for (ManifestShard s : m.shards()) {
      try (Database db =
          Database.open(
              tmp.resolve("shards").resolve(s.name()),
              Database.DatabaseOptions.defaults().readOnly())) {
        assertThat(db.check().problems()).as(s.name()).isEmpty();
      }
    }
    ShardMerge.Report r = ShardMerge.merge(tmp.resolve("shards"), tmp.resolve("merged"));
    assertThat(r.rows()).isEqualTo(m.rows());
    assertThat(r.entries()).hasSize(6).allSatisfy((ix, n) -> assertThat(n).isEqualTo(m.rows()));
  }
}
