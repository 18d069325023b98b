package dev.idxkit.core.internal.log;

import dev.idxkit.core.spi.Page;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.UnsafeMemory;

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
 * <p>A page that {@link Page#trackChanges tracks its changes} (a transaction's copy, made from the
 * very image it is compared with) is compared only in the blocks written since the copy: the others
 * are equal by construction. A leaf insert writes a few blocks of 128, so the commit reads a few
 * hundred bytes instead of 16 KiB. With assertions on, the result is checked against the whole-page
 * comparison.
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
  private int runStart; // first word of the range being built, or -1
  private int lastDiff; // last differing word of that range
  // Native addresses of the two pages being compared, or 0 to read them through Page.
  private long beforeAddress;
  private long afterAddress;
  // Compare with a zeroed page (computeAgainstZero): no before page is read.
  private boolean zeroBase;

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
    // Pages in direct memory (every page a commit diffs) are read by address: Page.getLong goes
    // through Chronicle's bounds checks and an interface call per word.
    zeroBase = false;
    beforeAddress = address(before);
    afterAddress = beforeAddress == 0 ? 0 : address(after);
    return scan(before, after);
  }

  /**
   * Finds the ranges where {@code page} is not zero: its change from a zeroed page, what a page
   * formatted by a transaction logs ({@link RedoRecord#writeFresh}). Returns the number of ranges.
   */
  public int computeAgainstZero(Page page) {
    zeroBase = true;
    beforeAddress = 0;
    afterAddress = address(page);
    return scan(null, page);
  }

  private int scan(Page before, Page after) {
    if (after.tracksChanges()) {
      computeTracked(before, after);
      assert sameAsFullScan(before, after) : "page " + after.pageNo() + " changed untracked";
    } else {
      computeFull(before, after);
    }
    return count;
  }

  // Every word of a page: for pages that do not track their changes.
  private void computeFull(Page before, Page after) {
    count = 0;
    changed = 0;
    int words = after.size() >>> 3;
    runStart = -1;
    lastDiff = -1;
    for (int w = 0; w < words; w++) {
      compareWord(before, after, w);
    }
    finish();
  }

  // Only the blocks written since the page was copied from before: the others are equal to it.
  private void computeTracked(Page before, Page after) {
    count = 0;
    changed = 0;
    runStart = -1;
    lastDiff = -1;
    int wordsPerBlock = Page.CHANGE_BLOCK >>> 3;
    for (int b = after.nextChangedBlock(0); b >= 0; b = after.nextChangedBlock(b + 1)) {
      int w = b * wordsPerBlock;
      for (int end = w + wordsPerBlock; w < end; w++) {
        compareWord(before, after, w);
      }
    }
    finish();
  }

  private static long address(Page p) {
    BytesStore<?, ?> s = p.store();
    return s.isDirectMemory() ? s.addressForRead(p.base()) : 0;
  }

  private void compareWord(Page before, Page after, int w) {
    int off = w << 3;
    boolean differs;
    if (zeroBase) {
      differs =
          (afterAddress != 0
                  ? UnsafeMemory.MEMORY.readLong(afterAddress + off)
                  : after.getLong(off))
              != 0;
    } else {
      differs =
          afterAddress != 0
              ? UnsafeMemory.MEMORY.readLong(beforeAddress + off)
                  != UnsafeMemory.MEMORY.readLong(afterAddress + off)
              : before.getLong(off) != after.getLong(off);
    }
    if (differs) {
      if (runStart < 0) {
        runStart = w;
      } else if (w - lastDiff - 1 > MERGE_GAP_WORDS) {
        add(runStart, lastDiff);
        runStart = w;
      }
      lastDiff = w;
    }
  }

  private void finish() {
    if (runStart >= 0) {
      add(runStart, lastDiff);
    }
  }

  // assert-only: the tracked result equals the whole-page comparison.
  private boolean sameAsFullScan(Page before, Page after) {
    int n = count;
    int[] o = java.util.Arrays.copyOf(offsets, n);
    int[] l = java.util.Arrays.copyOf(lengths, n);
    computeFull(before, after);
    return n == count
        && java.util.Arrays.equals(o, 0, n, offsets, 0, n)
        && java.util.Arrays.equals(l, 0, n, lengths, 0, n);
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
