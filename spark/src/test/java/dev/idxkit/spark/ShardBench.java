package dev.idxkit.spark;

import dev.idxkit.core.Database;
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
import dev.idxkit.loader.shards.ShardManifest;
import dev.idxkit.loader.shards.ShardMerge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.sql.SparkSession;

/**
 * The README's scale-out figures: TPC-H lineitem at a scale factor written through {@code local[2]}
 * as shards (time per Spark stage), merged with {@code merge-shards}, and beside it {@code idxkit
 * load} of the same generated rows with its deferred index build, in the same JVM, one after the
 * other, {@code runs} times.
 *
 * <p>Run (after {@code ./mvnw -pl spark -am test-compile}): {@code java <Spark's Java 17 options>
 * -cp <test class path> dev.idxkit.spark.ShardBench SF SHARDS RUNS DIR}; the README gives the exact
 * command.
 */
public final class ShardBench {
  private ShardBench() {}

  public static void main(String[] args) throws Exception {
    double sf = Double.parseDouble(args[0]);
    int shards = Integer.parseInt(args[1]);
    int runs = Integer.parseInt(args[2]);
    Path dir = Path.of(args[3]);
    SparkSession spark =
        SparkSession.builder()
            .appName("idxkit-shard-bench")
            .master("local[2]")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", String.valueOf(shards))
            .getOrCreate();
    List<StageInfo> stages = new ArrayList<>();
    spark
        .sparkContext()
        .addSparkListener(
            new SparkListener() {
              @Override
              public void onStageCompleted(SparkListenerStageCompleted e) {
                synchronized (stages) {
                  stages.add(e.stageInfo());
                }
              }
            });
    try {
      for (int run = 1; run <= runs; run++) {
        Path out = dir.resolve("shards");
        Path merged = dir.resolve("merged-" + run);
        Path loaded = dir.resolve("loaded-" + run);
        stages.clear();
        long t0 = System.nanoTime();
        ShardManifest m =
            IdxkitSpark.write(
                TpchFrames.table(spark, TpchSchema.LINEITEM, sf, 2),
                TpchDdl.text(),
                "lineitem",
                out.toString(),
                ShardOptions.of(shards).withSortMemory(256L << 20));
        double write = (System.nanoTime() - t0) / 1e9;
        StringBuilder perStage = new StringBuilder();
        synchronized (stages) {
          for (StageInfo s : stages) {
            long ms = (long) s.completionTime().get() - (long) s.submissionTime().get();
            perStage.append(
                String.format(
                    Locale.ROOT,
                    "%n    stage %d (%d tasks) %s: %.1f s, task time %.1f s, shuffle written %,d"
                        + " bytes",
                    s.stageId(),
                    s.numTasks(),
                    s.name(),
                    ms / 1e3,
                    s.taskMetrics().executorRunTime() / 1e3,
                    s.taskMetrics().shuffleWriteMetrics().bytesWritten()));
          }
        }
        ShardMerge.Report r = ShardMerge.merge(out, merged);
        long t1 = System.nanoTime();
        long rows;
        try (Database db = Database.create(loaded)) {
          db.execute(TpchDdl.text(), TpchDdl.SOURCE);
          Path sort = Files.createDirectories(dir.resolve("sort"));
          LoadReport lr =
              new Loader(
                      db,
                      LoadOptions.of(
                          "lineitem", LoadInput.tpch(TpchSchema.LINEITEM, TpchOptions.scale(sf))),
                      new RebuildIndexBuild(
                          RebuildOptions.defaults(SrtFile.ofDirectory(sort)), "bench"))
                  .run(LoadListener.NONE);
          rows = lr.rowsLoaded();
        }
        double load = (System.nanoTime() - t1) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "run %d: SF %s, %,d rows, %d shards: spark write %.1f s%s%n"
                + "  merge-shards %.1f s (heap %.1f s, indexes %.1f s, check %.1f s)%n"
                + "  idxkit load (generator, deferred index build) %.1f s (%,d rows)%n",
            run,
            sf,
            m.rows(),
            shards,
            write,
            perStage,
            (r.heapNanos() + r.indexNanos() + r.checkNanos()) / 1e9,
            r.heapNanos() / 1e9,
            r.indexNanos() / 1e9,
            r.checkNanos() / 1e9,
            load,
            rows);
        ShardTask.deleteTree(merged);
        ShardTask.deleteTree(loaded);
      }
    } finally {
      spark.stop();
    }
  }
}
