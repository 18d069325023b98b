package dev.idxkit.core.internal.io;

import java.util.Arrays;

/**
 * One bit per page number, growing as higher pages are marked, for facts about pages that only save
 * work when known: a page's checksum was verified, a scan already asked the kernel to read it.
 * Readers take no lock. Races between markers may drop a bit (a marker can set it in an array
 * another marker is replacing with a longer copy); the work is then done once more, which is why
 * only such facts may be kept here.
 */
final class PageBits {
  private volatile long[] words = new long[0];

  boolean get(long page) {
    long[] w = words;
    int i = (int) (page >>> 6);
    return i < w.length && (w[i] & (1L << page)) != 0;
  }

  void set(long page) {
    long[] w = room((int) (page >>> 6));
    w[(int) (page >>> 6)] |= 1L << page;
  }

  /** Marks pages {@code [first, first + count)}. */
  void set(long first, long count) {
    if (count <= 0) {
      return;
    }
    long last = first + count - 1;
    long[] w = room((int) (last >>> 6));
    for (long p = first; p <= last; ) {
      int i = (int) (p >>> 6);
      long to = Math.min(last, ((long) i << 6) + 63); // the last page of this word in the range
      long bits = -1L >>> (63 - (to - p)); // to - p + 1 ones
      w[i] |= bits << p;
      p = to + 1;
    }
  }

  private long[] room(int word) {
    long[] w = words;
    if (word >= w.length) {
      synchronized (this) {
        w = words;
        if (word >= w.length) {
          w = Arrays.copyOf(w, Math.max(word + 1, w.length * 2));
          words = w;
        }
      }
    }
    return w;
  }
}
