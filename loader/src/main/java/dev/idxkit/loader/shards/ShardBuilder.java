package dev.idxkit.loader.shards;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseCheck;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.TreeStats;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.HeapAppender;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.KeyEncoder;
import dev.idxkit.core.spi.Keys;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.Selection;
import dev.idxkit.idxbuild.temp.SrtFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Writes one shard: a complete idxkit database holding the rows of one primary-key range, fed in
 * primary-key order (a Spark task's sorted partition, or any sorted stream).
 *
 * <p>Call order: {@link #create}, {@link #add} for every row in strictly increasing primary-key
 * order, {@link #finish} once (which returns what the manifest records), {@link #close}.
 *
 * <p>Steps: (1) {@link #add} appends the row to heap pages through a bulk session ({@link
 * HeapAppender}, no log) and hands {@code key || rid} to a bottom-up {@link TreeBuilder} for the
 * primary key: the stream is already in key order, so the primary key costs no sort. Two equal keys
 * in a row are a duplicate primary key; a NULL in a NOT NULL column is refused before anything is
 * written. (2) {@link #finish} closes the tree, publishes heap and primary key in one meta write
 * with the secondary indexes inactive, (3) rebuilds the secondary indexes with the rebuilder
 * ({@link IndexRebuild}, sorting in {@code sortDir}), and (4) runs the full {@link DatabaseCheck};
 * a shard that fails its check is an error, never a result.
 *
 * <p>Not responsible for where the directory lives or for making it visible atomically: the Spark
 * task writes into an attempt directory and renames it when this returns.
 *
 * <p>Memory: one heap page, the tree builder's page per level, the session's write buffers (16 MiB
 * at most in flight), and the rebuilder's sort memory ({@link Options#sortMemoryBytes}).
 */
public final class ShardBuilder implements AutoCloseable {
  /**
   * How a shard is built.
   *
   * @param pageSize page size of the shard (and of the merged database)
   * @param sortMemoryBytes the rebuilder's sort memory for the secondary indexes
   * @param sortDir where the rebuilder may write sort runs (deleted by it however it ends)
   */
  public record Options(int pageSize, long sortMemoryBytes, Path sortDir) {
    public Options {
      if (sortMemoryBytes < (1L << 20)) {
        throw new InvalidInputException(
            "sortMemoryBytes : " + sortMemoryBytes + " (expected: >= 1 MiB)");
      }
    }
  }

  private final String shardName;
  private final Database db;
  private final TableInfo table;
  private final IndexInfo key;
  private final KeyEncoder keyEncoder;
  private final Options options;
  private final BulkWrite bulk;
  private final HeapAppender appender;
  private final BulkWrite.Stream keyPages;
  private final TreeBuilder keyTree;
  private final int[] notNullColumns;
  private byte[] scratchEntry = new byte[64];
  private byte[] firstKey;
  private byte[] lastKey;
  private long rows;
  private boolean finished;
  private boolean closed;

  private ShardBuilder(String shardName, Database db, ShardSchema schema, Options options) {
    this.shardName = shardName;
    this.db = db;
    this.options = options;
    this.table = db.catalog().table(schema.table());
    this.key = db.catalog().index(schema.keyIndex());
    this.keyEncoder = key.encoder();
    this.notNullColumns =
        java.util.stream.IntStream.range(0, table.def().columns().size())
            .filter(i -> !table.def().columns().get(i).nullable())
            .toArray();
    this.bulk = Engine.of(db).beginBulk();
    try {
      for (IndexInfo ix : table.indexes()) {
        IndexState s = bulk.meta().index(ix.id());
        bulk.meta().index(ix.id(), new IndexState(s == null ? 0 : s.root(), IndexStatus.INACTIVE));
      }
      this.appender = new HeapAppender(bulk, table);
      this.keyPages = bulk.stream(key.area());
      this.keyTree = new TreeBuilder(keyPages, options.pageSize(), key.area(), 100, key.name());
    } catch (RuntimeException e) {
      bulk.close();
      throw e;
    }
  }

  /**
   * Creates the shard's database in {@code dir} (new or empty) with {@code schema}'s DDL and starts
   * the bulk session. {@code shardName} is used in every error message.
   */
  public static ShardBuilder create(
      Path dir, String shardName, ShardSchema schema, Options options) {
    Database db =
        Database.create(dir, Database.DatabaseOptions.defaults().withPageSize(options.pageSize()));
    try {
      db.execute(schema.ddl(), "ddl");
      return new ShardBuilder(shardName, db, schema, options);
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /**
   * Appends one row (values of the column types, in table-column order) whose primary key encodes
   * to {@code encodedKey}, which must be above the previous row's.
   */
  public void add(byte[] encodedKey, Object[] row) {
    checkOpen();
    for (int c : notNullColumns) {
      if (row[c] == null) {
        ColumnDef col = table.def().columns().get(c);
        throw new InvalidInputException(
            shardName
                + ": column "
                + col.name()
                + " is NULL but declared NOT NULL, in the row with "
                + keyText(encodedKey));
      }
    }
    if (lastKey != null) {
      int cmp = Keys.compare(lastKey, encodedKey);
      if (cmp == 0) {
        throw new InvalidInputException(
            shardName
                + ": duplicate primary key "
                + keyText(encodedKey)
                + " (index "
                + key.name()
                + ")");
      }
      if (cmp > 0) {
        throw new IllegalArgumentException(
            shardName
                + ": rows out of primary-key order: "
                + keyText(encodedKey)
                + " after "
                + keyText(lastKey));
      }
    }
    long rid;
    try {
      rid = appender.append(row);
    } catch (InvalidInputException e) {
      throw new InvalidInputException(
          shardName + ": in the row with " + keyText(encodedKey) + ": " + e.getMessage(), e);
    }
    int n = encodedKey.length + dev.idxkit.core.Rid.BYTES;
    if (scratchEntry.length < n) {
      scratchEntry = new byte[Math.max(n, scratchEntry.length * 2)];
    }
    System.arraycopy(encodedKey, 0, scratchEntry, 0, encodedKey.length);
    Keys.putRid(scratchEntry, n, rid);
    keyTree.add(scratchEntry, 0, n);
    if (firstKey == null) {
      firstKey = encodedKey.clone();
    }
    lastKey = encodedKey.clone();
    rows++;
  }

  /** Rows added so far. */
  public long rows() {
    return rows;
  }

  /**
   * Publishes heap and primary key, rebuilds the secondary indexes and checks the shard. Returns
   * the shard's entry for the manifest.
   */
  public ManifestShard finish() {
    checkOpen();
    finished = true;
    try {
      appender.close();
      BuildResult pk = keyTree.finish();
      keyPages.close();
      IndexState old = bulk.meta().index(key.id());
      if (old != null && old.root() != 0) {
        // The empty tree the DDL created is replaced: its single leaf would otherwise leak.
        bulk.freePage(key.area(), old.root());
      }
      bulk.meta().index(key.id(), new IndexState(pk.root(), IndexStatus.ACTIVE));
      bulk.publish();
    } finally {
      bulk.close();
      db.bulkPublished();
    }
    Set<String> secondaries = new LinkedHashSet<>();
    for (IndexInfo ix : table.indexes()) {
      if (ix.id() != key.id()) {
        secondaries.add(ix.name());
      }
    }
    if (!secondaries.isEmpty()) {
      try {
        Files.createDirectories(options.sortDir());
      } catch (java.io.IOException e) {
        throw new dev.idxkit.core.IdxkitIOException(
            shardName + ": cannot create sort directory " + options.sortDir(), e);
      }
      RebuildOptions ro =
          RebuildOptions.defaults(SrtFile.ofDirectory(options.sortDir()))
              .withThreads(1, 1, 1)
              .withMemory(options.sortMemoryBytes())
              .withSelection(new Selection(Set.of(), Set.of(), secondaries, false));
      new IndexRebuild(db, ro, "shard sort directory", RebuildListener.NONE).run();
    }
    // One thread, as the rebuild above: a Spark task holds one core of its executor.
    DatabaseCheck.Report report = db.check(new DatabaseCheck.Options(Set.of(), Set.of(), 100, 1));
    if (!report.clean()) {
      throw new IdxkitException(
          shardName
              + ": the written shard fails its check: "
              + String.join(
                  "; ", report.problems().subList(0, Math.min(5, report.problems().size()))));
    }
    Map<String, Long> entries = new LinkedHashMap<>();
    for (IndexInfo ix : table.indexes()) {
      TreeStats s = report.indexes().get(ix.name());
      entries.put(ix.name(), s == null ? 0 : s.entries());
    }
    return new ManifestShard(shardName, rows, firstKey, lastKey, entries);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!finished) {
        // Abandon: nothing was published but the DDL; the caller deletes the directory.
        bulk.close();
      }
    } finally {
      db.close();
    }
  }

  private void checkOpen() {
    if (finished || closed) {
      throw new IllegalStateException(shardName + ": shard builder already finished");
    }
  }

  /** "primary key (a, b) = (1, 'x')" for messages, decoded from the encoded key. */
  public String keyText(byte[] encoded) {
    StringBuilder cols = new StringBuilder();
    for (var c : key.def().columns()) {
      cols.append(cols.length() == 0 ? "" : ", ")
          .append(table.def().columns().get(c.column()).name());
    }
    String values;
    try {
      values = ManifestShard.valuesText(keyEncoder.decode(encoded, 0, encoded.length));
    } catch (RuntimeException e) {
      values = "0x" + java.util.HexFormat.of().formatHex(encoded);
    }
    return "primary key (" + cols + ") = " + values;
  }
}
