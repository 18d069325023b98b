package dev.idxkit.jmh.peers;

import dev.idxkit.jmh.btree.TreeEntries;
import java.nio.file.Files;
import java.nio.file.Path;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.LongDataType;

/**
 * H2's MVStore (the storage engine under H2 SQL, used directly, not through SQL) in the {@code
 * compare} experiment: one {@code MVMap<Long, Long>} with {@link LongDataType} keys and values.
 *
 * <p>Build: {@link MVMap#append} in key order (the bulk path H2 itself uses to fill an index from
 * sorted data; it needs a single-writer map), autocommit off, then one {@code commit()} and {@code
 * sync()} (fsync). Cache: {@code cacheSize} = the experiment's budget (MVStore caches decoded pages
 * on the Java heap); no compression (the default). Reads: {@code get} and a new {@link Cursor} per
 * scan, both read the map's current root without locks. Inserts: {@code put} per entry, then one
 * {@code commit()} per batch (a new version written to the file, no fsync).
 */
final class MvStoreKv implements KvStore {
  private final Path dir;
  private final long cacheBytes;
  private MVStore store;
  private MVMap<Long, Long> map;

  MvStoreKv(Path dir, long cacheBytes) {
    this.dir = dir;
    this.cacheBytes = cacheBytes;
  }

  @Override
  public String name() {
    return "h2mvstore";
  }

  @Override
  public String settings() {
    return "H2 MVStore "
        + org.h2.engine.Constants.VERSION
        + ", MVMap<Long,Long> (LongDataType), singleWriter, bulk build by MVMap.append,"
        + " autocommit off, one commit() + sync() (fsync) at the end, cacheSize="
        + (cacheBytes >> 20)
        + " MiB (decoded pages on the heap), no compression; reads: get() / new Cursor per scan;"
        + " inserts: put, one commit() per batch (no sync), one sync() after the rounds";
  }

  @Override
  public void build(long n) throws Exception {
    Files.createDirectories(dir);
    store =
        new MVStore.Builder()
            .fileName(dir.resolve("kv.mv.db").toString())
            .cacheSize((int) Math.max(1, cacheBytes >> 20))
            .autoCommitDisabled()
            .open();
    map =
        store.openMap(
            "kv",
            new MVMap.Builder<Long, Long>()
                .keyType(LongDataType.INSTANCE)
                .valueType(LongDataType.INSTANCE)
                .singleWriter());
    for (long i = 0; i < n; i++) {
      map.append(TreeEntries.keyOf(i), i);
    }
    store.commit();
    store.sync();
  }

  @Override
  public void insertBatch(long[] keys, long[] values, int from, int to) {
    for (int i = from; i < to; i++) {
      map.put(keys[i], values[i]);
    }
    store.commit();
  }

  /** {@code sync()}: the chunks the batches' commits wrote, fsynced. */
  @Override
  public void persistInserts() {
    store.sync();
  }

  @Override
  public long get(long key) {
    Long v = map.get(key);
    return v == null ? -1 : v;
  }

  @Override
  public int scan(long from, long[] values) {
    Cursor<Long, Long> c = map.cursor(from);
    int n = 0;
    while (n < values.length && c.hasNext()) {
      c.next();
      values[n++] = c.getValue();
    }
    return n;
  }

  @Override
  public void close() {
    if (store != null) {
      try {
        store.close();
      } finally {
        store = null;
        map = null;
      }
    }
  }
}
