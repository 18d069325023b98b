package dev.idxkit.core.internal.btree;

import java.util.Arrays;

/**
 * An immutable sorted run of buffered changes, stored flat: the entries' bytes back to back in one
 * array, their end offsets, and one byte per change (1 insert, 0 delete). Entries are unique and in
 * unsigned byte order. A run only loses its lowest entries ({@link #dropThrough}), which moves its
 * start.
 *
 * <p>Flat storage is what makes the buffer cheap: merging two runs reads both arrays front to back
 * and writes a third the same way, where a tree map of the same changes would chase a pointer per
 * level, each a cache miss once the map outgrows the caches.
 */
final class SortedRun {
  final byte[] data;
  // ends[i] is where entry i ends; entry i starts at ends[i - 1] (0 for i == 0).
  final int[] ends;
  final byte[] inserts;
  final int count;
  private int start;

  SortedRun(byte[] data, int[] ends, byte[] inserts, int count) {
    this.data = data;
    this.ends = ends;
    this.inserts = inserts;
    this.count = count;
  }

  int start() {
    return start;
  }

  /** Entries not dropped. */
  int live() {
    return count - start;
  }

  int from(int i) {
    return i == 0 ? 0 : ends[i - 1];
  }

  int to(int i) {
    return ends[i];
  }

  boolean insert(int i) {
    return inserts[i] != 0;
  }

  byte[] entry(int i) {
    return Arrays.copyOfRange(data, from(i), to(i));
  }

  int compare(int i, byte[] key) {
    return Arrays.compareUnsigned(data, from(i), to(i), key, 0, key.length);
  }

  /** Heap bytes held by the live entries (their share of the arrays): bytes, offsets, kinds. */
  long bytes() {
    return count == 0 ? 0 : (data.length + 5L * count) * live() / count;
  }

  /** The first live index whose entry is {@code >= key} ({@code > key} if {@code after}). */
  int lowerBound(byte[] key, boolean after) {
    int lo = start;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = compare(mid, key);
      if (c < 0 || after && c == 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The live index of {@code key}, or -1. */
  int find(byte[] key) {
    int i = lowerBound(key, false);
    return i < count && compare(i, key) == 0 ? i : -1;
  }

  /** Drops every entry up to {@code last}, inclusive. */
  void dropThrough(byte[] last) {
    start = lowerBound(last, true);
  }

  /** Builds a run; entries must be added in strictly increasing order. */
  static final class Builder {
    private byte[] data;
    private int[] ends;
    private byte[] inserts;
    private int count;
    private int len;

    Builder(int entries, int bytes) {
      data = new byte[Math.max(16, bytes)];
      ends = new int[Math.max(4, entries)];
      inserts = new byte[ends.length];
    }

    void add(byte[] src, int off, int n, boolean insert) {
      if (len + n > data.length) {
        data = Arrays.copyOf(data, Math.max(data.length * 2, len + n));
      }
      if (count == ends.length) {
        ends = Arrays.copyOf(ends, count * 2);
        inserts = Arrays.copyOf(inserts, count * 2);
      }
      System.arraycopy(src, off, data, len, n);
      len += n;
      ends[count] = len;
      inserts[count] = (byte) (insert ? 1 : 0);
      count++;
    }

    int count() {
      return count;
    }

    SortedRun build() {
      return new SortedRun(
          Arrays.copyOf(data, len),
          Arrays.copyOf(ends, count),
          Arrays.copyOf(inserts, count),
          count);
    }
  }

  /**
   * Merges an older run with a newer one. Equal entries compose: an insert and a delete of the same
   * entry cancel (the newer undid the older), so neither is kept.
   *
   * @throws IllegalStateException when both runs hold the same change of an entry
   */
  static SortedRun merge(SortedRun older, SortedRun newer) {
    Builder b = new Builder(older.live() + newer.live(), older.data.length + newer.data.length);
    int i = older.start;
    int j = newer.start;
    while (i < older.count && j < newer.count) {
      int c =
          Arrays.compareUnsigned(
              older.data, older.from(i), older.to(i), newer.data, newer.from(j), newer.to(j));
      if (c < 0) {
        b.add(older.data, older.from(i), older.to(i) - older.from(i), older.insert(i));
        i++;
      } else if (c > 0) {
        b.add(newer.data, newer.from(j), newer.to(j) - newer.from(j), newer.insert(j));
        j++;
      } else {
        if (older.insert(i) == newer.insert(j)) {
          throw new IllegalStateException(
              "entry "
                  + (older.insert(i) ? "inserted" : "deleted")
                  + " twice: "
                  + Keys.hex(older.data, older.from(i), older.to(i) - older.from(i)));
        }
        i++;
        j++;
      }
    }
    for (; i < older.count; i++) {
      b.add(older.data, older.from(i), older.to(i) - older.from(i), older.insert(i));
    }
    for (; j < newer.count; j++) {
      b.add(newer.data, newer.from(j), newer.to(j) - newer.from(j), newer.insert(j));
    }
    return b.build();
  }
}
