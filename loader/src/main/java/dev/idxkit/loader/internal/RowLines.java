package dev.idxkit.loader.internal;

import dev.idxkit.core.Rid;
import java.util.Arrays;

/**
 * Which input line each row of this run came from, by RID: so that a duplicate key found after the
 * rows are in the table (the deferred build) or by an insert (live mode) can be reported as "line 7
 * repeats the key of line 2" rather than by RID.
 *
 * <h2>Algorithm</h2>
 *
 * Rows arrive in input order. Consecutive rows whose RIDs are consecutive slots of one page and
 * whose lines are consecutive are one <em>segment</em> {@code (first RID, first line, count)}; a
 * new page, a rejected line between two rows or a record over several lines starts a new one. A
 * bulk load fills pages slot after slot, so there is about one segment per heap page (about 100
 * rows): a few bytes per page, not per row. A lookup sorts the segments by RID once (the first
 * lookup after an append) and binary-searches them.
 *
 * <p>Example: rows at lines 2, 3, 4 in page 9 slots 0-2, line 5 rejected, line 6 in slot 3, then
 * page 10: segments {@code (9:0, 2, 3)}, {@code (9:3, 6, 1)}, {@code (10:0, 7, ...)}.
 *
 * <p>Only this run's rows are known: a row loaded before a resume, or in the table before the load,
 * has no line ({@link #line} returns -1). Thread: the loading thread only.
 */
public final class RowLines {
  private long[] firstRid = new long[64];
  private long[] firstLine = new long[64];
  private int[] count = new int[64];
  private int segments;
  private int[] sorted;

  /** Records that the row at {@code rid} came from input line {@code line}. */
  public void add(long rid, long line) {
    if (segments > 0) {
      int s = segments - 1;
      long last = firstRid[s];
      int n = count[s];
      if (Rid.page(rid) == Rid.page(last)
          && Rid.slot(rid) == Rid.slot(last) + n
          && line == firstLine[s] + n) {
        count[s] = n + 1;
        return;
      }
    }
    if (segments == firstRid.length) {
      int cap = segments * 2;
      firstRid = Arrays.copyOf(firstRid, cap);
      firstLine = Arrays.copyOf(firstLine, cap);
      count = Arrays.copyOf(count, cap);
    }
    firstRid[segments] = rid;
    firstLine[segments] = line;
    count[segments] = 1;
    segments++;
    sorted = null;
  }

  /** The input line of the row at {@code rid}, or -1 if this run did not load it. */
  public long line(long rid) {
    if (sorted == null) {
      sorted = sortByRid();
    }
    long page = Rid.page(rid);
    int slot = Rid.slot(rid);
    int lo = 0;
    int hi = segments - 1;
    int found = -1;
    while (lo <= hi) { // the last segment starting at or before rid
      int mid = (lo + hi) >>> 1;
      long r = firstRid[sorted[mid]];
      if (Rid.page(r) < page || Rid.page(r) == page && Rid.slot(r) <= slot) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (found < 0) {
      return -1;
    }
    int s = sorted[found];
    long r = firstRid[s];
    int offset = slot - Rid.slot(r);
    return Rid.page(r) == page && offset < count[s] ? firstLine[s] + offset : -1;
  }

  private int[] sortByRid() {
    Integer[] order = new Integer[segments];
    for (int i = 0; i < segments; i++) {
      order[i] = i;
    }
    // Page then slot (a RID's packing puts the page in the high bits, but compare explicitly).
    Arrays.sort(
        order,
        (a, b) -> {
          int c = Long.compare(Rid.page(firstRid[a]), Rid.page(firstRid[b]));
          if (c != 0) {
            return c;
          }
          return Integer.compare(Rid.slot(firstRid[a]), Rid.slot(firstRid[b]));
        });
    int[] out = new int[segments];
    for (int i = 0; i < segments; i++) {
      out[i] = order[i];
    }
    return out;
  }
}
