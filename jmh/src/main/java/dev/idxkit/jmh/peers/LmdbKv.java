package dev.idxkit.jmh.peers;

import dev.idxkit.jmh.btree.TreeEntries;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.GetOp;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Txn;

/**
 * LMDB (lmdbjava) in the {@code compare} experiment: 8-byte big-endian keys and values in one named
 * database, default memcmp ordering (big-endian keys sort numerically).
 *
 * <p>Build: {@code MDB_APPEND} puts in key order (LMDB fills pages left to right without searching
 * or splitting), committed every {@value #COMMIT_EVERY} entries so that no write transaction spills
 * dirty pages, with the environment opened {@code MDB_NOSYNC} and one {@code env.sync(true)}
 * (fsync) at the end: one durable point, as idxkit's publish. Reads: the memory map (OS page cache,
 * LMDB has no cache of its own); one read transaction object, {@code renew()}ed before and {@code
 * reset()} after each operation (lmdbjava's idiom for a fresh snapshot per request without
 * allocating), and a new cursor per scan. Inserts: one write transaction per batch of plain puts,
 * committed under {@code MDB_NOSYNC} (copy-on-write pages written through the map, no fsync).
 */
final class LmdbKv implements KvStore {
  static final int COMMIT_EVERY = 1_000_000;

  private final Path dir;
  private Env<ByteBuffer> env;
  private Dbi<ByteBuffer> dbi;
  private Txn<ByteBuffer> readTxn;
  private final ByteBuffer key = ByteBuffer.allocateDirect(8).order(ByteOrder.BIG_ENDIAN);
  private final ByteBuffer value = ByteBuffer.allocateDirect(8).order(ByteOrder.BIG_ENDIAN);

  LmdbKv(Path dir) {
    this.dir = dir;
  }

  @Override
  public String name() {
    return "lmdb";
  }

  @Override
  public String settings() {
    return "lmdbjava 0.9.3 (bundled liblmdb), MDB_NOSYNC + one env.sync(true) after the build,"
        + " MDB_APPEND puts committed every "
        + COMMIT_EVERY
        + " entries, 4 KiB pages; reads through the memory map (OS page cache, no own cache),"
        + " a read txn renewed/reset per operation, new cursor per scan; inserts: one write txn"
        + " per batch, MDB_NOSYNC";
  }

  @Override
  public void build(long n) throws Exception {
    Files.createDirectories(dir);
    // Room for the random inserts too: they split pages, which then hold half as much.
    long mapSize = n * 160 + (512L << 20);
    env =
        Env.create()
            .setMapSize(mapSize)
            .setMaxDbs(1)
            .open(dir.toFile(), EnvFlags.MDB_NOSYNC, EnvFlags.MDB_NOTLS);
    dbi = env.openDbi("kv", DbiFlags.MDB_CREATE);
    long i = 0;
    while (i < n) {
      try (Txn<ByteBuffer> txn = env.txnWrite()) {
        long end = Math.min(n, i + COMMIT_EVERY);
        for (; i < end; i++) {
          key.clear();
          key.putLong(0, TreeEntries.keyOf(i));
          value.clear();
          value.putLong(0, i);
          dbi.put(txn, key, value, PutFlags.MDB_APPEND);
        }
        txn.commit();
      }
    }
    env.sync(true);
    readTxn = env.txnRead();
    readTxn.reset();
  }

  @Override
  public void insertBatch(long[] keys, long[] values, int from, int to) {
    try (Txn<ByteBuffer> txn = env.txnWrite()) {
      for (int i = from; i < to; i++) {
        key.clear();
        key.putLong(0, keys[i]);
        value.clear();
        value.putLong(0, values[i]);
        dbi.put(txn, key, value);
      }
      txn.commit();
    }
  }

  /** One {@code env.sync(true)}: the inserts' pages, committed under MDB_NOSYNC, fsynced. */
  @Override
  public void persistInserts() {
    env.sync(true);
  }

  @Override
  public long get(long k) {
    key.clear();
    key.putLong(0, k);
    readTxn.renew();
    try {
      ByteBuffer v = dbi.get(readTxn, key);
      return v == null ? -1 : v.order(ByteOrder.BIG_ENDIAN).getLong(0);
    } finally {
      readTxn.reset();
    }
  }

  @Override
  public int scan(long from, long[] values) {
    key.clear();
    key.putLong(0, from);
    readTxn.renew();
    int n = 0;
    try (Cursor<ByteBuffer> c = dbi.openCursor(readTxn)) {
      for (boolean on = c.get(key, GetOp.MDB_SET_RANGE); on && n < values.length; on = c.next()) {
        values[n++] = c.val().order(ByteOrder.BIG_ENDIAN).getLong(0);
      }
    } finally {
      readTxn.reset();
    }
    return n;
  }

  @Override
  public void close() {
    try {
      if (readTxn != null) {
        readTxn.close();
      }
    } finally {
      readTxn = null;
      if (env != null) {
        env.close();
        env = null;
      }
    }
  }
}
