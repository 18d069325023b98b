package dev.idxkit.jmh.peers;

import dev.idxkit.jmh.btree.TreeEntries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.CompressionType;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.RocksObject;
import org.rocksdb.SstFileWriter;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * RocksDB (rocksdbjni) in the {@code compare} experiment: 8-byte big-endian keys and values in the
 * default column family, bytewise comparator (big-endian keys sort numerically).
 *
 * <p>Build: the bulk path RocksDB offers for sorted data: one {@link SstFileWriter} writes all
 * entries into one SST file, which {@code ingestExternalFile} (move, not copy) puts into the bottom
 * level; ingestion fsyncs the file and the MANIFEST. No memtable, no WAL, no compaction. Tables:
 * block-based, 4 KiB blocks (default), no compression (no other store here compresses), no Bloom
 * filter (every probe is of a present key), an LRU block cache of the experiment's budget. Reads:
 * {@code get(ReadOptions, key, valueBuffer)} (no allocation for the value) and a new {@link
 * RocksIterator} per scan. Inserts: one {@link WriteBatch} per batch, written with the WAL on and
 * {@code sync=false} (the WAL record reaches the OS at each write, no fsync), into the memtable;
 * flushes and compactions run on RocksDB's background threads, outside the timing thread's CPU.
 *
 * <p>Every native object is kept in one list and closed in reverse order by {@link #close()}.
 */
final class RocksKv implements KvStore {
  private final Path dir;
  private final long cacheBytes;
  private final List<RocksObject> natives = new ArrayList<>();
  private RocksDB db;
  private ReadOptions read;
  private WriteOptions write;
  private final byte[] key = new byte[8];
  private final byte[] value = new byte[8];

  RocksKv(Path dir, long cacheBytes) {
    RocksDB.loadLibrary();
    this.dir = dir;
    this.cacheBytes = cacheBytes;
  }

  @Override
  public String name() {
    return "rocksdb";
  }

  @Override
  public String settings() {
    return "rocksdbjni "
        + RocksDB.rocksdbVersion()
        + ", bulk build: SstFileWriter + ingestExternalFile (move; fsyncs the file and MANIFEST),"
        + " block-based tables, 4 KiB blocks, no compression, no Bloom filter, LRU block cache "
        + (cacheBytes >> 20)
        + " MiB; reads: get into a reused value buffer, new iterator per scan; inserts: one"
        + " WriteBatch per batch, WAL on, sync=false";
  }

  @Override
  public void build(long n) throws Exception {
    Files.createDirectories(dir);
    LRUCache cache = keep(new LRUCache(cacheBytes));
    BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache);
    Options options =
        keep(new Options())
            .setCreateIfMissing(true)
            .setCompressionType(CompressionType.NO_COMPRESSION)
            .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
            .setTableFormatConfig(table);
    db = RocksDB.open(options, dir.resolve("db").toString());
    Path sst = dir.resolve("bulk.sst");
    try (EnvOptions env = new EnvOptions();
        SstFileWriter w = new SstFileWriter(env, options)) {
      w.open(sst.toString());
      for (long i = 0; i < n; i++) {
        putLong(key, TreeEntries.keyOf(i));
        putLong(value, i);
        w.put(key, value);
      }
      w.finish();
    }
    try (IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
      ingest.setMoveFiles(true);
      db.ingestExternalFile(List.of(sst.toString()), ingest);
    }
    read = keep(new ReadOptions());
  }

  @Override
  public void prepareInserts() {
    write = keep(new WriteOptions()).setSync(false).setDisableWAL(false);
  }

  @Override
  public void insertBatch(long[] keys, long[] values, int from, int to) throws Exception {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = from; i < to; i++) {
        putLong(key, keys[i]);
        putLong(value, values[i]);
        batch.put(key, value);
      }
      db.write(write, batch);
    }
  }

  /** The memtable written out as a level-0 file, waited for; compactions are left running. */
  @Override
  public void persistInserts() throws Exception {
    try (org.rocksdb.FlushOptions f = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
      db.flush(f);
    }
  }

  /** A manual compaction of the whole key range: every level merged into one sorted run. */
  @Override
  public void mergeInserts() throws Exception {
    db.compactRange();
  }

  @Override
  public long get(long k) throws Exception {
    putLong(key, k);
    int size = db.get(read, key, value);
    if (size == RocksDB.NOT_FOUND) {
      return -1;
    }
    if (size != 8) {
      throw new IllegalStateException("rocksdb: key " + k + " has a " + size + "-byte value");
    }
    return getLong(value);
  }

  @Override
  public int scan(long from, long[] values) {
    putLong(key, from);
    int n = 0;
    try (RocksIterator it = db.newIterator(read)) {
      for (it.seek(key); n < values.length && it.isValid(); it.next()) {
        values[n++] = getLong(it.value());
      }
    }
    return n;
  }

  private <T extends RocksObject> T keep(T o) {
    natives.add(o);
    return o;
  }

  @Override
  public void close() throws Exception {
    try {
      if (db != null) {
        db.closeE();
      }
    } finally {
      db = null;
      for (int i = natives.size() - 1; i >= 0; i--) {
        natives.get(i).close();
      }
      natives.clear();
    }
  }

  static void putLong(byte[] b, long v) {
    for (int i = 7; i >= 0; i--) {
      b[i] = (byte) v;
      v >>>= 8;
    }
  }

  static long getLong(byte[] b) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[i] & 0xFF);
    }
    return v;
  }
}
