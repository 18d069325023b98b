package dev.idxkit.jmh.peers;

import dev.idxkit.jmh.btree.TreeEntries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import org.mapdb.BTreeMap;
import org.mapdb.DB;
import org.mapdb.DBMaker;
import org.mapdb.Serializer;

/**
 * MapDB 3 in the {@code compare} experiment: a {@link BTreeMap} of {@code Long} to {@code Long}
 * with {@link Serializer#LONG} for both, in a memory-mapped file store.
 *
 * <p>Build: {@code treeMap(...).createFromSink()}, MapDB's bulk build from sorted data (it packs
 * nodes bottom-up instead of inserting), transactions off (no write-ahead log), then one {@code
 * commit()}, which fsyncs the store file. No instance cache (MapDB 3 has none); pages through the
 * memory map. Reads: {@code get} and an iterator over {@code tailMap(from)} per scan. Inserts:
 * {@code put} per entry into the mapped file in place. With transactions off a batch is not atomic
 * (MapDB has no atomic commit without its write-ahead log, and {@code commit()} would fsync), so
 * MapDB's insert figure is of a weaker guarantee than the other stores'.
 */
final class MapDbKv implements KvStore {
  private final Path dir;
  private DB db;
  private BTreeMap<Long, Long> map;

  MapDbKv(Path dir) {
    this.dir = dir;
  }

  @Override
  public String name() {
    return "mapdb";
  }

  @Override
  public String settings() {
    return "MapDB 3.1.0 BTreeMap<Long,Long> (Serializer.LONG), file store with mmap"
        + " (fileMmapEnable, cleanerHackEnable), transactions off, bulk build by createFromSink,"
        + " one commit() (fsync) at the end, no own cache; reads: get / tailMap iterator per scan;"
        + " inserts: put in place, transactions off (a batch is not atomic), no commit per batch,"
        + " one commit() (fsync) after the rounds";
  }

  @Override
  public void build(long n) throws Exception {
    Files.createDirectories(dir);
    db =
        DBMaker.fileDB(dir.resolve("kv.mapdb").toFile())
            .fileMmapEnable()
            .cleanerHackEnable()
            .make();
    DB.TreeMapSink<Long, Long> sink =
        db.treeMap("kv", Serializer.LONG, Serializer.LONG).createFromSink();
    for (long i = 0; i < n; i++) {
      sink.put(TreeEntries.keyOf(i), i);
    }
    map = sink.create();
    db.commit();
  }

  @Override
  public void insertBatch(long[] keys, long[] values, int from, int to) {
    for (int i = from; i < to; i++) {
      map.put(keys[i], values[i]);
    }
  }

  /** {@code commit()}, which fsyncs the store file the puts changed in place. */
  @Override
  public void persistInserts() {
    db.commit();
  }

  @Override
  public long get(long key) {
    Long v = map.get(key);
    return v == null ? -1 : v;
  }

  @Override
  public int scan(long from, long[] values) {
    Iterator<Long> it = map.tailMap(from, true).values().iterator();
    int n = 0;
    while (n < values.length && it.hasNext()) {
      values[n++] = it.next();
    }
    return n;
  }

  @Override
  public void close() {
    if (db != null) {
      try {
        db.close();
      } finally {
        db = null;
        map = null;
      }
    }
  }
}
