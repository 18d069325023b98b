package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.jmh.btree.TreeEntries;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The checks of the {@code compare} experiment fail on a store that answers wrong. */
class KvWorkloadTest {
  static final long N = 5_000;

  /** A correct in-memory model, and hooks to break it in one place. */
  static class ModelStore implements KvStore {
    final TreeMap<Long, Long> map = new TreeMap<>();

    @Override
    public String name() {
      return "model";
    }

    @Override
    public String settings() {
      return "TreeMap";
    }

    @Override
    public void build(long n) {
      for (long i = 0; i < n; i++) {
        map.put(TreeEntries.keyOf(i), i);
      }
    }

    @Override
    public long get(long key) {
      Long v = map.get(key);
      return v == null ? -1 : v;
    }

    @Override
    public int scan(long from, long[] values) {
      int n = 0;
      for (long v : map.tailMap(from, true).values()) {
        if (n == values.length) {
          break;
        }
        values[n++] = v;
      }
      return n;
    }

    @Override
    public void insertBatch(long[] keys, long[] values, int from, int to) {
      for (int i = from; i < to; i++) {
        map.put(keys[i], values[i]);
      }
    }

    @Override
    public void close() {}
  }

  @Test
  void newKeysAreDistinctAbsentAndSpread() throws Exception {
    long[] keys = KvWorkload.newKeys(new SplittableRandom(3), 10_000, N);
    Set<Long> seen = new HashSet<>();
    ModelStore s = new ModelStore();
    s.build(N);
    int upperHalf = 0;
    for (long k : keys) {
      assertThat(seen.add(k)).as("distinct: %d", k).isTrue();
      assertThat(s.get(k)).as("absent: %d", k).isEqualTo(-1);
      assertThat(k).isBetween(1L, TreeEntries.keyOf(N));
      upperHalf += k >= TreeEntries.keyOf(N / 2) ? 1 : 0;
    }
    assertThat(upperHalf).isBetween(4_500, 5_500);
  }

  @Test
  void insertsAreCheckedAfterwards() throws Exception {
    ModelStore s = new ModelStore();
    s.build(N);
    long[] keys = KvWorkload.newKeys(new SplittableRandom(4), 2_500, N);
    long[] values = new long[keys.length];
    for (int j = 0; j < values.length; j++) {
      values[j] = N + j;
    }
    KvWorkload.Timing t = KvWorkload.inserts(s, keys, values, 0, keys.length, 1000);
    assertThat(t.ops()).isEqualTo(keys.length);
    KvWorkload.verifyInserts(s, keys, values, keys.length, N, 5);
    s.map.remove(keys[1234]);
    assertThatThrownBy(() -> KvWorkload.verifyInserts(s, keys, values, keys.length, N, 5))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("model: get(" + keys[1234] + ") of inserted key 1234 : -1");
  }

  @Test
  void aCorrectStorePasses() throws Exception {
    ModelStore s = new ModelStore();
    s.build(N);
    KvWorkload.verify(s, N, 1);
    KvWorkload.lookups(s, new long[] {0, 1, N - 1});
    KvWorkload.scans(s, new long[] {0, N - 1}, N);
  }

  @Test
  void aWrongValueFailsTheLookups() throws Exception {
    ModelStore s = new ModelStore();
    s.build(N);
    s.map.put(TreeEntries.keyOf(7), 8L);
    assertThatThrownBy(() -> KvWorkload.lookups(s, new long[] {3, 7}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("model: get(keyOf(7)) : 8 (expected: 7)");
  }

  @Test
  void aMissingEntryFailsTheScans() throws Exception {
    ModelStore s = new ModelStore();
    s.build(N);
    s.map.remove(TreeEntries.keyOf(50));
    assertThatThrownBy(() -> KvWorkload.scans(s, new long[] {0}, N))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("model: scan from key 0, entry 50 : value 51 (expected: value 50)");
  }

  @Test
  void verifyFindsAnExtraKeyBetweenTwoPresentOnes() throws Exception {
    ModelStore s = new ModelStore();
    s.build(N);
    // A key that is not a multiple of the stride: every scan from an absent key would see it.
    for (long i = 0; i < N; i++) {
      s.map.put(TreeEntries.keyOf(i) + 1, -5L);
    }
    assertThatThrownBy(() -> KvWorkload.verify(s, N, 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("model: get(")
        .hasMessageContaining("of an absent key : -5 (expected: -1)");
  }

  @Test
  void verifyFindsAShortMap() throws Exception {
    ModelStore s = new ModelStore();
    s.build(N - 1);
    assertThatThrownBy(() -> KvWorkload.verify(s, N, 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("model: get(keyOf(" + (N - 1) + ")) : -1 (expected: " + (N - 1) + ")");
  }
}
