package dev.idxkit.core.internal.meta;

import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * The free pages of one area as maximal runs (start → length), so freeing a rebuilt index of a
 * hundred thousand contiguous pages costs one entry, and bulk writers can take contiguous runs.
 *
 * <p>Not thread-safe: owned by the database's single writer. {@link #copy()} gives a snapshot for
 * serialization or for a bulk session's private allocator.
 */
public final class FreeList {
  private final TreeMap<Long, Long> runs = new TreeMap<>();
  private long pages;

  public long pageCount() {
    return pages;
  }

  public int runCount() {
    return runs.size();
  }

  public boolean isEmpty() {
    return runs.isEmpty();
  }

  public boolean contains(long page) {
    Map.Entry<Long, Long> e = runs.floorEntry(page);
    return e != null && page < e.getKey() + e.getValue();
  }

  /** Adds one page; freeing a page twice is a bug in the caller and is refused. */
  public void add(long page) {
    addRun(page, 1);
  }

  /**
   * Adds {@code pages[from, to)}, sorted ascending, one {@link #addRun} per stretch of consecutive
   * pages instead of one map update per page (a rebuild frees an old tree's pages, which lie mostly
   * in long runs). A page already free, or given twice, is refused as by {@link #add}; the pages
   * before it are added by then.
   */
  public void addSorted(long[] pages, int from, int to) {
    for (int i = from, j; i < to; i = j) {
      for (j = i + 1; j < to && pages[j] == pages[j - 1] + 1; j++) {
        // extends the stretch
      }
      addRun(pages[i], j - i);
    }
  }

  /** Adds {@code [start, start+length)}, merging with neighbouring runs. */
  public void addRun(long start, long length) {
    if (length <= 0) {
      return;
    }
    Map.Entry<Long, Long> below = runs.floorEntry(start + length - 1);
    if (below != null && below.getKey() + below.getValue() > start) {
      throw new IllegalStateException(
          "page run " + start + "+" + length + " is already (partly) free");
    }
    long s = start;
    long len = length;
    Map.Entry<Long, Long> before = runs.lowerEntry(start);
    if (before != null && before.getKey() + before.getValue() == start) {
      s = before.getKey();
      len += before.getValue();
      runs.remove(before.getKey());
    }
    Long afterLen = runs.remove(start + length);
    if (afterLen != null) {
      len += afterLen;
    }
    runs.put(s, len);
    pages += length;
  }

  /** Takes the lowest free page, or -1. */
  public long takeFirst() {
    Map.Entry<Long, Long> e = runs.pollFirstEntry();
    if (e == null) {
      return -1;
    }
    if (e.getValue() > 1) {
      runs.put(e.getKey() + 1, e.getValue() - 1);
    }
    pages--;
    return e.getKey();
  }

  /** Removes a specific page (replaying a logged allocation). Returns false if it was not free. */
  public boolean remove(long page) {
    Map.Entry<Long, Long> e = runs.floorEntry(page);
    if (e == null || page >= e.getKey() + e.getValue()) {
      return false;
    }
    long s = e.getKey();
    long len = e.getValue();
    runs.remove(s);
    if (page > s) {
      runs.put(s, page - s);
    }
    if (page + 1 < s + len) {
      runs.put(page + 1, s + len - page - 1);
    }
    pages--;
    return true;
  }

  /**
   * Takes up to {@code max} contiguous pages from the first run: {@code {start, length}}, or null
   * when empty. Bulk writers use it to write several pages in one I/O.
   */
  public long[] takeRun(int max) {
    Map.Entry<Long, Long> e = runs.pollFirstEntry();
    if (e == null) {
      return null;
    }
    long n = Math.min(max, e.getValue());
    if (e.getValue() > n) {
      runs.put(e.getKey() + n, e.getValue() - n);
    }
    pages -= n;
    return new long[] {e.getKey(), n};
  }

  /** Pages at or above {@code hwm} are cut off (the area shrank). Returns how many were dropped. */
  public long dropFrom(long hwm) {
    long dropped = 0;
    Map.Entry<Long, Long> e;
    while ((e = runs.lastEntry()) != null && e.getKey() + e.getValue() > hwm) {
      runs.remove(e.getKey());
      long keep = Math.max(0, hwm - e.getKey());
      if (keep > 0) {
        runs.put(e.getKey(), keep);
      }
      dropped += e.getValue() - keep;
    }
    pages -= dropped;
    return dropped;
  }

  /** Calls {@code run} with each run as (start, length). */
  public void forEachRun(RunConsumer run) {
    for (Map.Entry<Long, Long> e : runs.entrySet()) {
      run.accept(e.getKey(), e.getValue());
    }
  }

  public void forEachPage(LongConsumer page) {
    for (Map.Entry<Long, Long> e : runs.entrySet()) {
      for (long p = e.getKey(), end = p + e.getValue(); p < end; p++) {
        page.accept(p);
      }
    }
  }

  public FreeList copy() {
    FreeList c = new FreeList();
    c.runs.putAll(runs);
    c.pages = pages;
    return c;
  }

  public Iterator<Map.Entry<Long, Long>> runs() {
    return runs.entrySet().iterator();
  }

  /** Receives a run of free pages. */
  @FunctionalInterface
  public interface RunConsumer {
    void accept(long start, long length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FreeList f && f.runs.equals(runs);
  }

  @Override
  public int hashCode() {
    return runs.hashCode();
  }

  @Override
  public String toString() {
    return "FreeList" + runs;
  }
}
