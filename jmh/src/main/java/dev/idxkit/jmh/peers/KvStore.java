package dev.idxkit.jmh.peers;

import dev.idxkit.jmh.btree.TreeEntries;

/**
 * One store of the {@code compare} experiment, holding the same ordered map of 8-byte keys to
 * 8-byte values as every other: key {@link TreeEntries#keyOf keyOf(i)} ({@code i * 8}, so that
 * there are absent keys between the present ones) maps to value {@code i} for {@code i} in {@code
 * [0, n)}. For idxkit the value is the RID of an index entry, as in a real index.
 *
 * <p>Call order: {@link #build} once into an empty directory (sorted input, the store's own bulk
 * path, durable when it returns), then any number of {@link #get} and {@link #scan}; for the
 * random-insert workload {@link #prepareInserts} once, then any number of {@link #insertBatch}
 * (reads may follow and see every batch inserted); then {@link #close()} (idempotent). Reads are
 * made from one thread. Every read sees the latest committed state: each is its own read
 * transaction, cursor or statement, as an application's independent request would be, not a
 * long-lived snapshot reused across operations.
 */
interface KvStore extends AutoCloseable {
  /** Short lower-case name: {@code idxkit}, {@code sqlite}, {@code h2mvstore}, ... */
  String name();

  /** Durability, cache and build settings in a line, for the report. */
  String settings();

  /** Stores keys {@code keyOf(0..n-1)} with values {@code 0..n-1}, in key order; durable after. */
  void build(long n) throws Exception;

  /** The value of {@code key}, or -1 if the key is absent. */
  long get(long key) throws Exception;

  /**
   * Reads the values of the first {@code values.length} entries whose key is {@code >= from}, in
   * key order, into {@code values}; returns how many there were (fewer at the end of the map).
   */
  int scan(long from, long[] values) throws Exception;

  /**
   * Switches the store to its transactional write settings before the first {@link #insertBatch}
   * (for example SQLite from the bulk build's {@code journal_mode=OFF} to its write-ahead log). The
   * default does nothing.
   */
  default void prepareInserts() throws Exception {}

  /**
   * Inserts the new entries {@code keys[from..to)} with values {@code values[from..to)} as one
   * transaction (or write batch), committed without an fsync: atomic, durable at the store's next
   * sync. The keys are absent from the map.
   */
  void insertBatch(long[] keys, long[] values, int from, int to) throws Exception;

  /**
   * Makes every insert durable with one sync, after the last {@link #insertBatch}, leaving work a
   * store deferred to be done later as it would be: RocksDB flushes its memtable to a level-0 file
   * (waited for) and leaves the compaction; idxkit runs a checkpoint that keeps its change buffers
   * (written into the log) and leaves the merge; LMDB syncs its map. Timed apart from the rounds.
   * The default does nothing, which only favours a store that leaves it so.
   */
  default void persistInserts() throws Exception {}

  /**
   * Does the merge work the inserts deferred, after {@link #persistInserts}, and makes it durable:
   * RocksDB compacts the whole key range into one sorted level; idxkit merges its change buffers
   * into the tree and checkpoints. Timed apart. The default does nothing (a B-tree that took each
   * insert into its pages has no merge left).
   */
  default void mergeInserts() throws Exception {}

  @Override
  void close() throws Exception;
}
