package dev.idxkit.spark;

import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.loader.shards.ManifestShard;
import dev.idxkit.loader.shards.ShardBuilder;
import dev.idxkit.loader.shards.ShardManifest;
import dev.idxkit.loader.shards.ShardSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.Row;

/**
 * The task of one key range: writes the range's sorted rows as one shard database and commits it by
 * rename.
 *
 * <p>Steps: (1) the attempt writes into its own directory {@code
 * OUTPUT/_temporary/shard-NNNNN-attempt-A-T} (A the attempt number, T Spark's task attempt id, so
 * no two attempts ever share one), through {@link ShardBuilder}: heap, primary key from the sorted
 * stream, secondary indexes by the rebuilder (sort runs on the executor's local disk), check. (2)
 * It renames the attempt directory to {@code OUTPUT/shard-NNNNN} in one atomic rename. A rename
 * onto an existing shard fails: another attempt of the same range committed first, with the same
 * rows, so this one deletes its copy and reports the same result. (3) However the attempt fails, it
 * deletes its attempt directory and its sort directory, so a failed or retried attempt leaves
 * nothing; what a killed executor leaves under {@code _temporary} the driver deletes at the end.
 *
 * <p>Rows arrive as {@code [encoded key, table columns...]} sorted by the key.
 */
final class ShardTask implements Function2<Integer, Iterator<Row>, Iterator<ManifestShard>> {
  private static final long serialVersionUID = 1L;

  static final String TEMPORARY = "_temporary";

  private final String outputDir;
  private final ShardSchema schema;
  private final RowMapping mapping;
  private final ShardOptions options;

  ShardTask(String outputDir, ShardSchema schema, RowMapping mapping, ShardOptions options) {
    this.outputDir = outputDir;
    this.schema = schema;
    this.mapping = mapping;
    this.options = options;
  }

  @Override
  public Iterator<ManifestShard> call(Integer partition, Iterator<Row> rows) {
    TaskContext ctx = TaskContext.get();
    int attempt = ctx == null ? 0 : ctx.attemptNumber();
    long taskId = ctx == null ? 0 : ctx.taskAttemptId();
    String name = ShardManifest.shardName(partition);
    Path out = Path.of(outputDir);
    Path attemptDir = out.resolve(TEMPORARY).resolve(name + "-attempt-" + attempt + "-" + taskId);
    Path sortRoot =
        Path.of(
            options.sortDir() != null ? options.sortDir() : System.getProperty("java.io.tmpdir"));
    Path sortDir = sortRoot.resolve("idxkit-sort-" + name + "-" + taskId);
    try {
      Files.createDirectories(attemptDir.getParent());
      ManifestShard info;
      try (ShardBuilder b =
          ShardBuilder.create(
              attemptDir,
              name,
              schema,
              new ShardBuilder.Options(options.pageSize(), options.sortMemoryBytes(), sortDir))) {
        while (rows.hasNext()) {
          Row r = rows.next();
          byte[] key = (byte[]) r.get(0);
          Object[] values;
          try {
            values = mapping.values(r);
          } catch (InvalidInputException e) {
            throw new InvalidInputException(
                name + ": in the row with " + b.keyText(key) + ": " + e.getMessage(), e);
          }
          b.add(key, values);
        }
        info = b.finish();
      }
      options.fault().beforeCommit(partition, attempt);
      commit(attemptDir, out.resolve(name));
      return List.of(info).iterator();
    } catch (IOException e) {
      deleteTree(attemptDir);
      throw new IdxkitIOException(name + ": cannot write the shard under " + out, e);
    } catch (RuntimeException | Error e) {
      deleteTree(attemptDir);
      throw e;
    } finally {
      deleteTree(sortDir);
    }
  }

  private static void commit(Path attemptDir, Path shardDir) throws IOException {
    try {
      Files.move(attemptDir, shardDir, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // rename(2) refuses to replace a non-empty directory (EEXIST or ENOTEMPTY): another attempt
      // of this range committed first, and its shard holds the same rows.
      if (!Files.isDirectory(shardDir.resolve("meta"))) {
        throw e;
      }
      deleteTree(attemptDir);
    }
  }

  /** Deletes a directory tree, ignoring what is already gone. */
  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot delete " + dir, e);
    }
  }
}
