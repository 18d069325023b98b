package dev.idxkit.core.spi;

import java.util.Arrays;

/**
 * An immutable sorted set of pages kept as runs {@code [start, start+length)}: the heap pages of a
 * table. Loaders add long runs; transactions add and remove single pages. Updates copy the array
 * (tables have few runs), which is what lets readers hold a snapshot without locks.
 */
public final class PageRuns {
  public static final PageRuns EMPTY = new PageRuns(new long[0]);

  // Pairs: starts[2i] = start, [2i+1] = length; sorted, non-overlapping, non-adjacent.
  private final long[] runs;
  private final long pages;

  private PageRuns(long[] runs) {
    this.runs = runs;
    long n = 0;
    for (int i = 1; i < runs.length; i += 2) {
      n += runs[i];
    }
    this.pages = n;
  }

  public long pageCount() {
    return pages;
  }

  public int runCount() {
    return runs.length / 2;
  }

  public long runStart(int i) {
    return runs[2 * i];
  }

  public long runLength(int i) {
    return runs[2 * i + 1];
  }

  public boolean contains(long page) {
    int i = find(page);
    return i >= 0 && page < runs[2 * i] + runs[2 * i + 1];
  }

  /** The highest page, or -1 when empty. */
  public long last() {
    return runs.length == 0 ? -1 : runs[runs.length - 2] + runs[runs.length - 1] - 1;
  }

  /** The first page greater than {@code page} (any value, -1 for the first page), or -1. */
  public long next(long page) {
    int i = find(page + 1);
    if (i >= 0 && page + 1 < runs[2 * i] + runs[2 * i + 1]) {
      return page + 1;
    }
    int j = i + 1;
    return 2 * j < runs.length ? runs[2 * j] : -1;
  }

  public PageRuns add(long page) {
    return addRun(page, 1);
  }

  /**
   * A new set with {@code [start, start+length)} added; the run must not overlap existing pages.
   */
  public PageRuns addRun(long start, long length) {
    if (length <= 0) {
      return this;
    }
    int i = find(start + length - 1);
    if (i >= 0 && runs[2 * i] + runs[2 * i + 1] > start) {
      throw new IllegalStateException("pages " + start + "+" + length + " already in the set");
    }
    long[] out = new long[runs.length + 2];
    int o = 0;
    boolean placed = false;
    for (int k = 0; k < runs.length; k += 2) {
      if (!placed && runs[k] > start) {
        o = append(out, o, start, length);
        placed = true;
      }
      o = append(out, o, runs[k], runs[k + 1]);
    }
    if (!placed) {
      o = append(out, o, start, length);
    }
    return new PageRuns(Arrays.copyOf(out, o));
  }

  /** A new set without {@code page}; the page must be in the set. */
  public PageRuns remove(long page) {
    int i = find(page);
    if (i < 0 || page >= runs[2 * i] + runs[2 * i + 1]) {
      throw new IllegalStateException("page " + page + " is not in the set");
    }
    long s = runs[2 * i];
    long len = runs[2 * i + 1];
    long[] out = new long[runs.length + 2];
    System.arraycopy(runs, 0, out, 0, 2 * i);
    int o = 2 * i;
    if (page > s) {
      out[o++] = s;
      out[o++] = page - s;
    }
    if (page + 1 < s + len) {
      out[o++] = page + 1;
      out[o++] = s + len - page - 1;
    }
    System.arraycopy(runs, 2 * i + 2, out, o, runs.length - 2 * i - 2);
    o += runs.length - 2 * i - 2;
    return new PageRuns(Arrays.copyOf(out, o));
  }

  /** The raw run pairs, for serialization. */
  public long[] toArray() {
    return runs.clone();
  }

  public static PageRuns ofArray(long[] pairs) {
    for (int k = 0; k < pairs.length; k += 2) {
      if (pairs[k] < 0 || pairs[k + 1] <= 0 || (k > 0 && pairs[k] <= pairs[k - 2] + pairs[k - 1])) {
        throw new IllegalArgumentException("page runs not sorted and disjoint at run " + k / 2);
      }
    }
    return new PageRuns(pairs.clone());
  }

  /** Index of the run with the greatest start <= page, or -1. */
  private int find(long page) {
    int lo = 0;
    int hi = runs.length / 2 - 1;
    int ans = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (runs[2 * mid] <= page) {
        ans = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return ans;
  }

  private static int append(long[] out, int o, long start, long length) {
    if (o > 0 && out[o - 2] + out[o - 1] == start) {
      out[o - 1] += length;
      return o;
    }
    out[o] = start;
    out[o + 1] = length;
    return o + 2;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PageRuns p && Arrays.equals(p.runs, runs);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(runs);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("[");
    for (int k = 0; k < runs.length; k += 2) {
      b.append(k == 0 ? "" : ", ").append(runs[k]).append('+').append(runs[k + 1]);
    }
    return b.append(']').toString();
  }
}
