package dev.idxkit.core.internal.log;

import dev.idxkit.core.spi.Page;

/**
 * Which bytes of a page changed: the ranges where a page's new image differs from its previous
 * committed one, the raw material of a {@link RedoRecord} delta.
 *
 * <p>Algorithm: both images are compared one aligned 8-byte word at a time (a page size is a power
 * of two of at least 4 KiB, so it holds a whole number of words); each run of consecutive differing
 * words is a range; two ranges separated by at most {@value #MERGE_GAP_WORDS} equal word are merged
 * into one. A range costs a 4-byte header in the record, so merging across one 8-byte word costs at
 * most 4 bytes more and saves a range to copy at replay; longer gaps are left apart. Ranges are
 * word-aligned, which is what lets the record store offsets and lengths in words.
 *
 * <p>Worked example, 4 words shown: before {@code AAAA BBBB CCCC DDDD}, after {@code AAAA XXXX CCCC
 * YYYY}: words 1 and 3 differ, the gap between them is one word, so one range [8, 32) results.
 *
 * <p>What a B+tree leaf insert changes, for scale: the page header (checksum, LSN), the node's
 * count and free pointer, the slot array from the insertion point on, and the new entry's bytes;
 * typically three ranges and a few hundred bytes of an 8 KiB page.
 *
 * <p>Call order: {@link #compute} (any number of times; the instance keeps the last result), then
 * {@link #count}, {@link #offset}, {@link #length} and {@link #changedBytes}. Not thread-safe; one
 * per writer. Memory: two int arrays that grow to the number of ranges found (at most half the
 * page's words).
 */
public final class PageDiff {
  /** Equal words between two changed runs that still merge them into one range. */
  public static final int MERGE_GAP_WORDS = 1;

  private int[] offsets = new int[64];
  private int[] lengths = new int[64];
  private int count;
  private int changed;

  /**
   * Finds the ranges where {@code after} differs from {@code before}; both are pages of the same
   * size. Returns the number of ranges (0 when the images are equal).
   */
  public int compute(Page before, Page after) {
    int size = after.size();
    if (before.size() != size) {
      throw new IllegalArgumentException(
          "page sizes : " + before.size() + " and " + size + " (expected: equal)");
    }
    count = 0;
    changed = 0;
    int words = size >>> 3;
    int runStart = -1; // first word of the range being built
    int lastDiff = -1; // last differing word of that range
    for (int w = 0; w < words; w++) {
      int off = w << 3;
      if (before.getLong(off) != after.getLong(off)) {
        if (runStart < 0) {
          runStart = w;
        } else if (w - lastDiff - 1 > MERGE_GAP_WORDS) {
          add(runStart, lastDiff);
          runStart = w;
        }
        lastDiff = w;
      }
    }
    if (runStart >= 0) {
      add(runStart, lastDiff);
    }
    return count;
  }

  private void add(int firstWord, int lastWord) {
    if (count == offsets.length) {
      offsets = java.util.Arrays.copyOf(offsets, count * 2);
      lengths = java.util.Arrays.copyOf(lengths, count * 2);
    }
    offsets[count] = firstWord << 3;
    lengths[count] = (lastWord - firstWord + 1) << 3;
    changed += lengths[count];
    count++;
  }

  /** Ranges found by the last {@link #compute}. */
  public int count() {
    return count;
  }

  /** Byte offset in the page of range {@code i}; a multiple of 8. */
  public int offset(int i) {
    return offsets[i];
  }

  /** Byte length of range {@code i}; a multiple of 8. */
  public int length(int i) {
    return lengths[i];
  }

  /** Bytes covered by all ranges of the last {@link #compute}. */
  public int changedBytes() {
    return changed;
  }
}
