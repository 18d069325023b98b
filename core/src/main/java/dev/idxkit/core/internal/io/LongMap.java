package dev.idxkit.core.internal.io;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A map from non-negative long keys to objects: open addressing with linear probing, no boxing, two
 * parallel arrays. The page lookups of every transaction and of every read of a page still in the
 * log go through one of these, so they must not allocate or chase pointers.
 *
 * <p>Keys are stored plus one, so zero marks an empty slot. Removal shifts the following entries
 * back (no tombstones). Load factor at most 1/2. Not thread-safe; the store guards it.
 */
public final class LongMap<V> {
  private long[] keys;
  private Object[] vals;
  private int size;
  private int mask;

  public LongMap() {
    this(16);
  }

  public LongMap(int capacity) {
    int cap = Integer.highestOneBit(Math.max(4, capacity - 1)) << 1;
    keys = new long[cap];
    vals = new Object[cap];
    mask = cap - 1;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  @SuppressWarnings("unchecked")
  public V get(long key) {
    long k = key + 1;
    for (int i = slot(k); ; i = (i + 1) & mask) {
      long s = keys[i];
      if (s == k) {
        return (V) vals[i];
      }
      if (s == 0) {
        return null;
      }
    }
  }

  public boolean containsKey(long key) {
    return get(key) != null;
  }

  /** Puts a non-null value; returns the value it replaced, or null. */
  @SuppressWarnings("unchecked")
  public V put(long key, V value) {
    if (key < 0 || value == null) {
      throw new IllegalArgumentException("key " + key + " / value " + value);
    }
    long k = key + 1;
    int i = slot(k);
    for (; keys[i] != 0; i = (i + 1) & mask) {
      if (keys[i] == k) {
        V old = (V) vals[i];
        vals[i] = value;
        return old;
      }
    }
    keys[i] = k;
    vals[i] = value;
    if (++size * 2 > keys.length) {
      grow();
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  public V remove(long key) {
    long k = key + 1;
    int i = slot(k);
    while (keys[i] != k) {
      if (keys[i] == 0) {
        return null;
      }
      i = (i + 1) & mask;
    }
    V old = (V) vals[i];
    // Shift later entries of the probe run back so lookups never stop at a hole too early.
    int hole = i;
    for (int j = (i + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
      int home = slot(keys[j]);
      boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        keys[hole] = keys[j];
        vals[hole] = vals[j];
        hole = j;
      }
    }
    keys[hole] = 0;
    vals[hole] = null;
    size--;
    return old;
  }

  public void clear() {
    Arrays.fill(keys, 0);
    Arrays.fill(vals, null);
    size = 0;
  }

  @SuppressWarnings("unchecked")
  public void forEachValue(Consumer<V> action) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != 0) {
        action.accept((V) vals[i]);
      }
    }
  }

  /** The keys, unordered. */
  public long[] keys() {
    long[] out = new long[size];
    int n = 0;
    for (long k : keys) {
      if (k != 0) {
        out[n++] = k - 1;
      }
    }
    return out;
  }

  private int slot(long k) {
    long h = k * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  @SuppressWarnings("unchecked")
  private void grow() {
    long[] oldKeys = keys;
    Object[] oldVals = vals;
    keys = new long[oldKeys.length * 2];
    vals = new Object[oldKeys.length * 2];
    mask = keys.length - 1;
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != 0) {
        put(oldKeys[i] - 1, (V) oldVals[i]);
      }
    }
  }
}
