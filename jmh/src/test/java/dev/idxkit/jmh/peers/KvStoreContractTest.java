package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.idxkit.core.testing.Seeds;
import dev.idxkit.jmh.btree.TreeEntries;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every store of the {@code compare} experiment keeps, checked on a small map: after
 * {@link KvStore#build}, present keys give their values, absent keys -1, scans the next entries in
 * order and fewer at the end; {@link KvWorkload#verify} passes; {@code close} twice is harmless.
 * One few-line subclass per store.
 */
abstract class KvStoreContractTest {
  static final long N = 20_000;

  @TempDir Path dir;

  abstract KvStore open(Path dir);

  @Test
  void buildThenReadEveryWay() throws Exception {
    long seed = Seeds.seed();
    String why = Seeds.reproduce(seed, getClass());
    SplittableRandom r = Seeds.random(seed);
    try (KvStore s = open(dir.resolve("store"))) {
      s.build(N);
      for (int k = 0; k < 2000; k++) {
        long i = r.nextLong(N);
        assertThat(s.get(TreeEntries.keyOf(i))).as(why).isEqualTo(i);
        assertThat(s.get(TreeEntries.keyOf(i) + 1 + r.nextLong(7))).as(why).isEqualTo(-1);
      }
      assertThat(s.get(-1)).isEqualTo(-1);
      assertThat(s.get(TreeEntries.keyOf(N))).isEqualTo(-1);

      long[] buf = new long[KvWorkload.SCAN_LENGTH];
      long start = r.nextLong(N - KvWorkload.SCAN_LENGTH);
      assertThat(s.scan(TreeEntries.keyOf(start), buf)).as(why).isEqualTo(buf.length);
      for (int j = 0; j < buf.length; j++) {
        assertThat(buf[j]).as(why).isEqualTo(start + j);
      }
      assertThat(s.scan(TreeEntries.keyOf(N - 10), buf)).isEqualTo(10);
      assertThat(buf[9]).isEqualTo(N - 1);
      assertThat(s.scan(0, new long[3])).isEqualTo(3);

      KvWorkload.verify(s, N, seed);
      KvWorkload.Timing t = KvWorkload.lookups(s, KvWorkload.draws(r, 1000, N));
      assertThat(t.ops()).isEqualTo(1000);
      assertThat(t.wallNanos()).isPositive();
      KvWorkload.Timing sc = KvWorkload.scans(s, new long[] {0, N - 1, N / 2}, N);
      assertThat(sc.ops()).isEqualTo(100 + 1 + 100);
      assertThat(s.settings()).isNotBlank();

      // Random inserts in batches, then every inserted and built key reads back.
      long[] keys = KvWorkload.newKeys(r, 3_000, N);
      long[] values = new long[keys.length];
      for (int j = 0; j < values.length; j++) {
        values[j] = N + j;
      }
      s.prepareInserts();
      KvWorkload.Timing ins = KvWorkload.inserts(s, keys, values, 0, keys.length, 1000);
      assertThat(ins.ops()).isEqualTo(keys.length);
      KvWorkload.verifyInserts(s, keys, values, keys.length, N, seed);
      s.close();
      assertThatCode(s::close).doesNotThrowAnyException();
    }
  }
}

class IdxkitKvTest extends KvStoreContractTest {
  @Override
  KvStore open(Path dir) {
    return new IdxkitKv(dir, 100);
  }
}

class SqliteKvTest extends KvStoreContractTest {
  @Override
  KvStore open(Path dir) {
    return new SqliteKv(dir, 4L << 20);
  }
}

class MvStoreKvTest extends KvStoreContractTest {
  @Override
  KvStore open(Path dir) {
    return new MvStoreKv(dir, 4L << 20);
  }
}

class RocksKvTest extends KvStoreContractTest {
  @Override
  KvStore open(Path dir) {
    return new RocksKv(dir, 4L << 20);
  }
}

class LmdbKvTest extends KvStoreContractTest {
  @Override
  KvStore open(Path dir) {
    return new LmdbKv(dir);
  }
}

class MapDbKvTest extends KvStoreContractTest {
  @Override
  KvStore open(Path dir) {
    return new MapDbKv(dir);
  }
}
