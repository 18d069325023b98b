package dev.idxkit.cli.commands;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.cli.CommonOptions;
import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.InterruptGuard;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.output.Json;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.loader.shards.ShardMerge;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code idxkit merge-shards}: one database from the shard set a Spark job wrote ({@link
 * ShardMerge}), without re-sorting and without Spark.
 */
@Command(
    name = "merge-shards",
    mixinStandardHelpOptions = true,
    description = {
      "Merge the range-partitioned shards written by the Spark job (idxkit-spark) into one"
          + " database, without sorting anything again.",
      "",
      "OUTPUT_DIR is the job's output directory: its _manifest.json lists the shards in key"
          + " order. Heap pages are copied shard after shard (RIDs move by a page offset per"
          + " shard), the primary-key trees are stitched, every secondary index is a k-way merge"
          + " of the shards' trees. The result is checked before the command says ok. DB must not"
          + " exist or be an empty directory; if the merge fails, what it wrote is removed."
    },
    footer = {
      "",
      "Example:",
      "  idxkit merge-shards /data/lineitem.shards lineitem.db && idxkit info lineitem.db"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      ExitCodes.OK_LINE,
      "1:failed (I/O error, a shard or the result fails its check)",
      "2:bad usage or input (no manifest, a shard missing, DB not empty)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class MergeShardsCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "OUTPUT_DIR",
      description = "The shard set: the Spark job's output directory.")
  Path shards;

  @Parameters(
      index = "1",
      paramLabel = "DB",
      description = "The database directory to create.",
      converter = DbCommand.DbPath.class)
  Path db;

  @Option(names = "--json", description = "Print one JSON document instead of text.")
  boolean json;

  @Mixin CommonOptions common;

  @Spec CommandSpec spec;

  private final InterruptGuard guard;

  MergeShardsCommand(Session session) {
    this.guard = session.guard();
  }

  @Override
  public Integer call() {
    if (!Files.isDirectory(shards)) {
      throw new InvalidInputException(shards + ": no such directory (expected: a shard set)");
    }
    guard.state("database " + db + " was not created (its files are removed)", false);
    ShardMerge.Report r = ShardMerge.merge(shards, db);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode n = Json.object();
      n.put("database", db.toString());
      n.put("rows", r.rows());
      n.put("shards", r.shards());
      n.put("heapPages", r.heapPages());
      ObjectNode e = n.putObject("entries");
      r.entries().forEach(e::put);
      n.put("heapSeconds", r.heapNanos() / 1e9);
      n.put("indexSeconds", r.indexNanos() / 1e9);
      n.put("checkSeconds", r.checkNanos() / 1e9);
      Json.printPretty(out, n);
    } else {
      out.printf(
          Locale.ROOT,
          "merged %d shards into %s: %,d rows, %,d heap pages, %d indexes%n",
          r.shards(),
          db,
          r.rows(),
          r.heapPages(),
          r.entries().size());
      r.entries().forEach((ix, n) -> out.printf(Locale.ROOT, "  %-32s %,d entries%n", ix, n));
      out.printf(
          Locale.ROOT,
          "heap %.2f s, indexes %.2f s, check %.2f s: ok%n",
          r.heapNanos() / 1e9,
          r.indexNanos() / 1e9,
          r.checkNanos() / 1e9);
    }
    return ExitCodes.OK;
  }
}
