package dev.idxkit.core;

import dev.idxkit.core.internal.HeapHints;
import dev.idxkit.core.internal.Internals;
import dev.idxkit.core.internal.JvmFlags;
import dev.idxkit.core.internal.RowOps;
import dev.idxkit.core.internal.TableScan;
import dev.idxkit.core.internal.ViewSource;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.io.Madvise;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.internal.txn.StoreOptions;
import dev.idxkit.core.internal.txn.StoreTxn;
import dev.idxkit.core.internal.txn.View;
import dev.idxkit.core.schema.AreaDef;
import dev.idxkit.core.schema.DdlParser;
import dev.idxkit.core.schema.IndexDef;
import dev.idxkit.core.schema.Schema;
import dev.idxkit.core.schema.SchemaCodec;
import dev.idxkit.core.spi.IndexState;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;

/**
 * An idxkit database: a directory of page files with tables, B+tree indexes and a write-ahead log.
 *
 * <pre>{@code
 * try (Database db = Database.create(dir)) {
 *   db.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(40))");
 *   Table t = db.table("t");
 *   long rid = t.insert(1L, "one");
 *   Row r = db.index("t_pk").get(1L).get(0);
 * }
 * }</pre>
 *
 * <p>One writer at a time (a {@link Transaction}, or one auto-committed statement), any number of
 * readers; a reader sees whole commits only. One read-write opener per directory: a second gets
 * {@link DatabaseLockedException}. {@link #close()} checkpoints and is idempotent.
 */
public final class Database implements AutoCloseable {
  private static final AtomicBoolean PRELOAD_STARTED = new AtomicBoolean();

  static {
    Internals.register(db -> db.store);
  }

  private final Store store;
  private final HeapHints hints = new HeapHints();
  private volatile Catalog catalog;

  private Database(Store store) {
    this.store = store;
    try {
      this.catalog = new Catalog(SchemaCodec.decode(store.meta().catalog()));
    } catch (IllegalArgumentException e) {
      store.close();
      throw new CorruptDatabaseException(store.dir().resolve("meta"), "catalog: " + e.getMessage());
    }
  }

  /**
   * Creates an empty database (areas {@code data} and {@code index}) in a new or empty directory.
   */
  public static Database create(Path dir) {
    return create(dir, DatabaseOptions.defaults());
  }

  public static Database create(Path dir, DatabaseOptions options) {
    JvmFlags.check();
    Schema empty = Schema.empty();
    Map<Integer, String> areas = new HashMap<>();
    for (AreaDef a : empty.areas()) {
      areas.put(a.id(), a.name());
    }
    return new Database(
        Store.create(dir, options.storeOptions(), areas, SchemaCodec.encode(empty)));
  }

  public static Database open(Path dir) {
    return open(dir, DatabaseOptions.defaults());
  }

  public static Database open(Path dir, DatabaseOptions options) {
    JvmFlags.check();
    return new Database(Store.open(dir, options.storeOptions()));
  }

  /**
   * Starts loading, on a daemon thread of its own, what the first {@link #open} or {@link #create}
   * of this JVM would otherwise load on the caller's thread: the C library binding (madvise,
   * mincore, sync_file_range through jnr-ffi), about 75 ms of a cold {@code idxkit info}'s main
   * thread. Returns at once. For a program whose start-up counts, such as a command line: called
   * first thing, the binding loads while the program reads its arguments, and the first open finds
   * it loaded, or waits for the rest of it. Never needed; calling it again does nothing.
   *
   * @return true when this call started the thread, false when an earlier call had
   *     <p>Safe to overlap: the thread initializes only that binding's class, whose initializer
   *     needs the JDK, jnr-ffi and (when the library cannot be loaded) {@link ProblemText}, none of
   *     which needs the store's classes; nothing else of idxkit uses jnr-ffi. A thread that needs
   *     the class meanwhile waits for that initializer, which never waits for it back.
   */
  public static boolean preloadInBackground() {
    if (!PRELOAD_STARTED.compareAndSet(false, true)) {
      return false;
    }
    Thread t = new Thread(Madvise::osPageSize, "idxkit-preload");
    t.setDaemon(true);
    t.start();
    return true;
  }

  public Path dir() {
    return store.dir();
  }

  public Schema schema() {
    return catalog.schema();
  }

  /** The schema with layouts, as the rebuilder and loader need it. */
  public Catalog catalog() {
    return catalog;
  }

  /**
   * A snapshot of the database's figures (areas, tables, indexes, log, I/O counters), taken under
   * the read lock: what {@code idxkit info}, {@code /metrics} and {@code /v1/status} print.
   */
  public DatabaseStats stats() {
    return read(view -> StatsReader.read(this, store));
  }

  /** The last committed or published resume point under {@code key}, or null. */
  public byte[] resumePoint(String key) {
    return store.meta().resumePoint(key);
  }

  /** Call after a bulk session published new table pages, so inserts stop using stale hints. */
  public void bulkPublished() {
    hints.clear();
  }

  /**
   * Applies SQL DDL ({@code CREATE TABLE}, {@code CREATE [UNIQUE] INDEX}) in one transaction: all
   * of it or none. An index created on a table that has rows is built in the same transaction (for
   * big tables, create it before loading, or rebuild with {@code idxkit idxbuild}).
   */
  public void execute(String ddl) {
    execute(ddl, "ddl");
  }

  /** As {@link #execute(String)}; {@code sourceName} (a file name) appears in error messages. */
  public void execute(String ddl, String sourceName) {
    try (StoreTxn txn = store.begin(null)) {
      Schema before = catalog.schema();
      Schema after = DdlParser.apply(before, ddl, sourceName);
      for (AreaDef a : after.areas()) {
        if (before.findArea(a.name()).isEmpty()) {
          txn.createArea(a.id(), a.name());
        }
      }
      Catalog next = new Catalog(after);
      for (IndexDef i : after.indexes()) {
        if (before.findIndex(i.name()).isEmpty()) {
          long root = BTree.create(txn.pages(i.areaId()));
          txn.setIndexState(i.id(), new IndexState(root, IndexStatus.ACTIVE));
          if (txn.table(i.tableId()).rows() > 0) {
            populate(txn, next, next.index(i.id()));
          }
        }
      }
      txn.setCatalog(SchemaCodec.encode(after));
      txn.commit();
      catalog = next;
    }
  }

  /** A handle on the named table (case-insensitive). */
  public Table table(String name) {
    return new Table(this, catalog.table(name).id());
  }

  /** A handle on the named index (case-insensitive). */
  public Index index(String name) {
    return new Index(this, catalog.index(name).id());
  }

  public List<Table> tables() {
    return catalog.tables().stream().map(t -> new Table(this, t.id())).toList();
  }

  /** Starts a transaction with the database's default durability; waits for the writer. */
  public Transaction begin() {
    return begin(null);
  }

  public Transaction begin(Durability durability) {
    return new Transaction(this, store.begin(durability));
  }

  /** Copies committed log pages home and writes a meta slot now. */
  public void checkpoint() {
    store.checkpoint();
  }

  /** Runs every consistency check; see {@link DatabaseCheck}. */
  public DatabaseCheck.Report check() {
    return check(DatabaseCheck.Options.all());
  }

  public DatabaseCheck.Report check(DatabaseCheck.Options options) {
    return check(options, DatabaseCheck.Listener.NONE);
  }

  /** {@link #check(DatabaseCheck.Options)}, telling {@code listener} how far it got. */
  public DatabaseCheck.Report check(
      DatabaseCheck.Options options, DatabaseCheck.Listener listener) {
    return DatabaseCheck.run(this, options, listener);
  }

  @Override
  public void close() {
    store.close();
  }

  // ---- shared with Table, Index, Transaction ----

  HeapHints hints() {
    return hints;
  }

  /** Reads the committed state under the read lock. */
  <T> T read(Function<View, T> read) {
    Lock l = store.readLock();
    l.lock();
    try {
      return read.apply(store.committedView());
    } finally {
      l.unlock();
    }
  }

  ViewSource committed() {
    return new ViewSource() {
      @Override
      public <T> T read(Function<View, T> read) {
        return Database.this.read(read);
      }
    };
  }

  /** Runs {@code work} in its own transaction and commits it. */
  <T> T autocommit(Function<Transaction, T> work) {
    try (Transaction t = begin()) {
      T result = work.apply(t);
      t.commit();
      return result;
    }
  }

  private static void populate(StoreTxn txn, Catalog cat, Catalog.IndexInfo ix) {
    Catalog.TableInfo t = cat.table(ix.def().tableId());
    ViewSource self =
        new ViewSource() {
          @Override
          public <T> T read(Function<View, T> read) {
            return read.apply(txn);
          }
        };
    List<Row> rows = new java.util.ArrayList<>();
    try (TableScan scan = new TableScan(self, t)) {
      scan.forEachRemaining(rows::add);
    }
    for (Row r : rows) {
      RowOps.addToIndex(txn, ix, r.values(), r.rid());
    }
  }

  /** Options for {@link #create} and {@link #open}. */
  public record DatabaseOptions(StoreOptions storeOptions) {
    /** The smallest page size a database may have. */
    public static final int MIN_PAGE_SIZE = dev.idxkit.core.spi.Page.MIN_SIZE;

    /** The largest page size a database may have. */
    public static final int MAX_PAGE_SIZE = dev.idxkit.core.spi.Page.MAX_SIZE;

    /**
     * Returns {@code pageSize} if it is a power of two in {@link #MIN_PAGE_SIZE}..{@link
     * #MAX_PAGE_SIZE}; else throws {@link InvalidInputException}.
     */
    public static int checkPageSize(int pageSize) {
      return dev.idxkit.core.spi.Page.checkSize(pageSize);
    }

    public static DatabaseOptions defaults() {
      return new DatabaseOptions(StoreOptions.defaults());
    }

    public DatabaseOptions withPageSize(int pageSize) {
      return new DatabaseOptions(storeOptions.withPageSize(pageSize));
    }

    public DatabaseOptions withDurability(Durability d) {
      return new DatabaseOptions(storeOptions.withDurability(d));
    }

    public DatabaseOptions readOnly() {
      return new DatabaseOptions(storeOptions.withReadOnly(true));
    }

    public DatabaseOptions withCheckpointBytes(long bytes) {
      return new DatabaseOptions(storeOptions.withCheckpointBytes(bytes));
    }

    /**
     * The memory for pages changed and not yet written home (at least 1 MiB): a checkpoint starts
     * beside the commits when those changed since the last one started pass half of it, and a
     * commit waits for the checkpoint when they pass all of it. By default a sixteenth of the
     * machine's memory, between 64 MiB and 1 GiB, and at most a quarter of the JVM's direct memory.
     */
    public DatabaseOptions withDirtyPageBytes(long bytes) {
      return new DatabaseOptions(storeOptions.withDirtyPageBytes(bytes));
    }

    /**
     * The heap for the change buffers of non-unique indexes: their entries are inserted and deleted
     * in memory, sorted, and merged into the trees in key order when the buffers pass this many
     * bytes and before every checkpoint. 0 turns buffering off. By default a sixteenth of the JVM's
     * heap, between 1 and 64 MiB.
     */
    public DatabaseOptions withChangeBufferBytes(long bytes) {
      return new DatabaseOptions(storeOptions.withChangeBufferBytes(bytes));
    }

    /** Opens the database's files through {@code io}: for tests that inject I/O faults. */
    public DatabaseOptions withFileIo(dev.idxkit.core.spi.FileIo io) {
      return new DatabaseOptions(storeOptions.withFileIo(io));
    }
  }
}
