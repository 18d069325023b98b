package dev.idxkit.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.cli.CliHarness;
import dev.idxkit.cli.CliHarness.Result;
import dev.idxkit.core.Catalog;
import dev.idxkit.core.Database;
import dev.idxkit.loader.shards.ManifestShard;
import dev.idxkit.loader.shards.ShardBuilder;
import dev.idxkit.loader.shards.ShardManifest;
import dev.idxkit.loader.shards.ShardSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code idxkit merge-shards} on a shard set written with the loader's {@link ShardBuilder} (what
 * each Spark task runs): the merged database checks clean and answers lookups on every index; a
 * missing manifest or a non-empty DB is one line and exit 2.
 */
class MergeShardsCommandTest {
  static final String DDL =
      "CREATE TABLE kv (k BIGINT PRIMARY KEY, v VARCHAR(20) NOT NULL, n INT);\n"
          + "CREATE INDEX kv_v ON kv (v);\n";

  @TempDir Path tmp;
  final CliHarness cli = new CliHarness();

  @Test
  void mergesAShardSetIntoOneCheckedDatabase() {
    Path shards = writeShards(3, 300);
    Path db = tmp.resolve("kv.db");
    Result r = cli.run("merge-shards", shards.toString(), db.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines().get(0))
        .isEqualTo("merged 3 shards into " + db + ": 300 rows, 3 heap pages, 2 indexes");
    assertThat(r.outLines()).last().asString().endsWith(": ok");
    assertThat(cli.run("check", db.toString()).exit()).isZero();
    try (Database d = Database.open(db)) {
      assertThat(d.index("kv_v").get("v7")).hasSize(300 / 17 + 1);
      assertThat(d.index("kv_pk").get(299L))
          .singleElement()
          .satisfies(row -> assertThat(row.get(2)).isEqualTo(299));
    }
  }

  @Test
  void aMissingManifestOrANonEmptyTargetIsOneLineAndExit2() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("nothing"));
    Result none = cli.run("merge-shards", empty.toString(), tmp.resolve("x.db").toString());
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.errLines())
        .containsExactly(
            "idxkit: "
                + empty.resolve("_manifest.json")
                + ": no manifest (the shard set is incomplete, or "
                + empty
                + " is not the output directory of a shard job)");
    assertThat(tmp.resolve("x.db")).doesNotExist();

    Path shards = writeShards(2, 50);
    Path taken = Files.createDirectories(tmp.resolve("taken.db"));
    Files.writeString(taken.resolve("keep.txt"), "mine");
    Result busy = cli.run("merge-shards", shards.toString(), taken.toString());
    assertThat(busy.exit()).as(busy.toString()).isEqualTo(2);
    assertThat(busy.errLines()).hasSize(1);
    assertThat(taken.resolve("keep.txt")).exists();
  }

  private Path writeShards(int count, int rows) {
    ShardSchema schema = ShardSchema.of(DDL, "kv");
    var key = new Catalog(schema.schema()).index(schema.keyIndex());
    Path dir = tmp.resolve("shards");
    List<ManifestShard> infos = new ArrayList<>();
    long k = 0;
    for (int s = 0; s < count; s++) {
      String name = ShardManifest.shardName(s);
      try (ShardBuilder b =
          ShardBuilder.create(
              dir.resolve(name),
              name,
              schema,
              new ShardBuilder.Options(8192, 1 << 20, tmp.resolve("sort")))) {
        for (long end = (long) rows * (s + 1) / count; k < end; k++) {
          Object[] row = {k, "v" + (k % 17), (int) k};
          b.add(key.encoder().encode(key.keyOf(row)), row);
        }
        infos.add(b.finish());
      }
    }
    new ShardManifest(schema, 8192, rows, infos).write(dir);
    return dir;
  }
}
