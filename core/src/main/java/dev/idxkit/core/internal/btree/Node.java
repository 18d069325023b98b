package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The slotted layout shared by B+tree leaves ({@link dev.idxkit.core.spi.PageType#LEAF}) and
 * branches ({@link dev.idxkit.core.spi.PageType#BRANCH}), as static methods over a {@link Page} so
 * that no object exists per page.
 *
 * <pre>
 *  0          24      26      27      28          32          36     40            48            56
 *  +----------+-------+-------+-------+-----------+-----------+------+-------------+-------------+
 *  | Page hdr | count | level | fmt   | heapStart | garbage   | rsvd | link0       | link1       |
 *  +----------+-------+-------+-------+-----------+-----------+------+-------------+-------------+
 *  56                                                                                   pageSize
 *  +--------+--------+-----+--------------------+------------------------------------------+
 *  | slot 0 | slot 1 | ... |   free space ->  <-| cells, packed downwards from the page end |
 *  +--------+--------+-----+--------------------+------------------------------------------+
 *
 *  count      u16  number of slots (entries in a leaf, separators in a branch)
 *  level      u8   0 for a leaf, the height above the leaves for a branch
 *  fmt        u8   {@link #FORMAT_VERSION}
 *  heapStart  i32  offset of the lowest cell byte; pageSize when there are no cells
 *  garbage    i32  bytes of dead cells between heapStart and pageSize (reclaimed by compaction)
 *  link0      i64  leaf: left sibling page (0 = none);  branch: leftmost child page
 *  link1      i64  leaf: right sibling page (0 = none); branch: 0
 *  slot       u16 cell offset | u16 key length, in key order (read as one LE int: off | len << 16)
 *  leaf cell    = entry bytes
 *  branch cell  = child page (i64 LE) | separator bytes
 * </pre>
 *
 * <p>A branch with {@code count} separators has {@code count + 1} children: child 0 is {@code
 * link0}, child {@code i + 1} is the page in cell {@code i}. Child 0 holds the entries below
 * separator 0, child {@code i + 1} those at or above separator {@code i} and below separator {@code
 * i + 1}. So the child to descend into for a key is the number of separators {@code <= key}.
 *
 * <p>Cells are not kept in key order on the page: inserting moves only the 4-byte slots, and a
 * removed cell becomes garbage until an insert needs the room and {@link #compact} packs the page.
 *
 * <p>The body (slots and cells) is {@code pageSize - 56} bytes. Entries may be a quarter of it
 * ({@link #maxEntryLength}), so any page holds at least three cells of either kind, a split of an
 * overflowing page always leaves both halves within a page, and every branch split has a middle
 * separator to push up.
 */
public final class Node {
  static final int FORMAT_VERSION = 1;

  static final int OFF_COUNT = Page.HEADER_SIZE;
  static final int OFF_LEVEL = 26;
  static final int OFF_FORMAT = 27;
  static final int OFF_HEAP = 28;
  static final int OFF_GARBAGE = 32;
  static final int OFF_LINK0 = 40;
  static final int OFF_LINK1 = 48;
  static final int HEADER_SIZE = 56;
  public static final int SLOT_SIZE = 4;
  public static final int CHILD_SIZE = 8;

  private Node() {}

  public static int bodySize(int pageSize) {
    return pageSize - HEADER_SIZE;
  }

  public static int maxEntryLength(int pageSize) {
    return bodySize(pageSize) / 4;
  }

  /** Writes an empty node header after {@link Page#format}; links are cleared. */
  public static void init(Page p, int level) {
    p.putU16(OFF_COUNT, 0);
    p.putU8(OFF_LEVEL, level);
    p.putU8(OFF_FORMAT, FORMAT_VERSION);
    p.putInt(OFF_HEAP, p.size());
    p.putInt(OFF_GARBAGE, 0);
    p.putInt(36, 0);
    p.putLong(OFF_LINK0, 0);
    p.putLong(OFF_LINK1, 0);
  }

  /** Drops every slot and cell, keeping level and links (a split rebuilds the page in place). */
  static void clear(Page p) {
    p.putU16(OFF_COUNT, 0);
    p.putInt(OFF_HEAP, p.size());
    p.putInt(OFF_GARBAGE, 0);
  }

  // ---- header fields ----

  public static int count(Page p) {
    return p.getU16(OFF_COUNT);
  }

  static int level(Page p) {
    return p.getU8(OFF_LEVEL);
  }

  static boolean isLeaf(Page p) {
    return p.getU8(OFF_LEVEL) == 0;
  }

  static int format(Page p) {
    return p.getU8(OFF_FORMAT);
  }

  static int heapStart(Page p) {
    return p.getInt(OFF_HEAP);
  }

  static int garbage(Page p) {
    return p.getInt(OFF_GARBAGE);
  }

  static long leftSibling(Page p) {
    return p.getLong(OFF_LINK0);
  }

  static long rightSibling(Page p) {
    return p.getLong(OFF_LINK1);
  }

  public static void setLeftSibling(Page p, long pageNo) {
    p.putLong(OFF_LINK0, pageNo);
  }

  public static void setRightSibling(Page p, long pageNo) {
    p.putLong(OFF_LINK1, pageNo);
  }

  public static long firstChild(Page p) {
    return p.getLong(OFF_LINK0);
  }

  public static void setFirstChild(Page p, long pageNo) {
    p.putLong(OFF_LINK0, pageNo);
  }

  // ---- slots and cells ----

  /** The packed slot {@code i}: cell offset in the low 16 bits, key length in the high 16. */
  public static int slot(Page p, int i) {
    return p.getInt(HEADER_SIZE + i * SLOT_SIZE);
  }

  /** Bytes before the key in a cell: the child pointer of a branch cell. */
  static int keyShift(Page p) {
    return isLeaf(p) ? 0 : CHILD_SIZE;
  }

  static int keyOffset(Page p, int i) {
    return (slot(p, i) & 0xFFFF) + keyShift(p);
  }

  static int keyLength(Page p, int i) {
    return slot(p, i) >>> 16;
  }

  /** Child {@code i} of a branch, {@code 0 <= i <= count}. */
  static long child(Page p, int i) {
    return i == 0 ? p.getLong(OFF_LINK0) : p.getLong(slot(p, i - 1) & 0xFFFF);
  }

  /** Slots plus live cells. */
  static int usedBytes(Page p) {
    return count(p) * SLOT_SIZE + p.size() - heapStart(p) - garbage(p);
  }

  /** Room between the slot array and the cells, usable without compaction. */
  static int contiguousFree(Page p) {
    return heapStart(p) - HEADER_SIZE - count(p) * SLOT_SIZE;
  }

  // ---- search (no allocation; compares on page memory) ----

  /**
   * Binary search over the keys: the index of {@code key} if present, else {@code -(insertion
   * point) - 1} as {@link java.util.Arrays#binarySearch}.
   */
  static int search(Page p, byte[] key, int kOff, int kLen) {
    int shift = keyShift(p);
    int lo = 0;
    int hi = count(p) - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int s = p.getInt(HEADER_SIZE + mid * SLOT_SIZE);
      int c = p.compare((s & 0xFFFF) + shift, s >>> 16, key, kOff, kLen);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /** First index whose key is {@code >= key} (count if none). */
  static int lowerBound(Page p, byte[] key, int kOff, int kLen) {
    int r = search(p, key, kOff, kLen);
    return r >= 0 ? r : -(r + 1);
  }

  /** The child of a branch that may hold {@code key}: the number of separators {@code <= key}. */
  static int childIndex(Page p, byte[] key, int kOff, int kLen) {
    int r = search(p, key, kOff, kLen);
    return r >= 0 ? r + 1 : -(r + 1);
  }

  // ---- mutation ----

  /**
   * Inserts a cell at slot {@code i}, compacting the page into {@code scratch} first if the room is
   * there but fragmented. Returns false, changing nothing, when the cell does not fit.
   */
  static boolean insert(Page p, int i, byte[] key, int kOff, int kLen, long child, Page scratch) {
    int cell = kLen + keyShift(p);
    int need = cell + SLOT_SIZE;
    if (contiguousFree(p) < need) {
      if (bodySize(p.size()) - usedBytes(p) < need) {
        return false;
      }
      compact(p, scratch);
    }
    int n = count(p);
    int slotPos = HEADER_SIZE + i * SLOT_SIZE;
    p.move(slotPos, slotPos + SLOT_SIZE, (n - i) * SLOT_SIZE);
    int off = heapStart(p) - cell;
    writeCell(p, off, key, kOff, kLen, child);
    p.putInt(slotPos, off | (kLen << 16));
    p.putInt(OFF_HEAP, off);
    p.putU16(OFF_COUNT, n + 1);
    return true;
  }

  /** Appends a cell after the last slot; the caller has made sure it fits contiguously. */
  public static void append(Page p, byte[] key, int kOff, int kLen, long child) {
    int n = count(p);
    int off = heapStart(p) - kLen - keyShift(p);
    assert off >= HEADER_SIZE + (n + 1) * SLOT_SIZE : "append overflows page " + p.pageNo();
    writeCell(p, off, key, kOff, kLen, child);
    finishAppend(p, n, off, kLen);
  }

  /** Appends a leaf cell read straight from {@code src[srcOff, srcOff + len)}. */
  public static void append(Page p, BytesStore<?, ?> src, long srcOff, int len) {
    int n = count(p);
    int off = heapStart(p) - len;
    assert isLeaf(p) && off >= HEADER_SIZE + (n + 1) * SLOT_SIZE;
    p.putBytes(off, src, srcOff, len);
    finishAppend(p, n, off, len);
  }

  /** Appends cell {@code i} of {@code src} (same kind of node), child pointer included. */
  static void appendFrom(Page dst, Page src, int i) {
    int s = slot(src, i);
    int len = s >>> 16;
    int cell = len + keyShift(src);
    int n = count(dst);
    int off = heapStart(dst) - cell;
    assert off >= HEADER_SIZE + (n + 1) * SLOT_SIZE : "append overflows page " + dst.pageNo();
    dst.copyFrom(src, s & 0xFFFF, off, cell);
    finishAppend(dst, n, off, len);
  }

  /** Appends a branch cell whose separator is copied from {@code keySrc} (another page). */
  static void appendBranchCell(Page dst, Page keySrc, int keyOff, int keyLen, long child) {
    int n = count(dst);
    int off = heapStart(dst) - CHILD_SIZE - keyLen;
    assert !isLeaf(dst) && off >= HEADER_SIZE + (n + 1) * SLOT_SIZE;
    dst.putLong(off, child);
    dst.copyFrom(keySrc, keyOff, off + CHILD_SIZE, keyLen);
    finishAppend(dst, n, off, keyLen);
  }

  private static void finishAppend(Page p, int n, int off, int keyLen) {
    p.putInt(HEADER_SIZE + n * SLOT_SIZE, off | (keyLen << 16));
    p.putInt(OFF_HEAP, off);
    p.putU16(OFF_COUNT, n + 1);
  }

  private static void writeCell(Page p, int off, byte[] key, int kOff, int kLen, long child) {
    if (isLeaf(p)) {
      p.putBytes(off, key, kOff, kLen);
    } else {
      p.putLong(off, child);
      p.putBytes(off + CHILD_SIZE, key, kOff, kLen);
    }
  }

  /** Removes slot {@code i}; its cell becomes garbage (or the heap resets when none is left). */
  static void remove(Page p, int i) {
    int n = count(p);
    int slotPos = HEADER_SIZE + i * SLOT_SIZE;
    int cell = (p.getInt(slotPos) >>> 16) + keyShift(p);
    p.move(slotPos + SLOT_SIZE, slotPos, (n - i - 1) * SLOT_SIZE);
    p.putU16(OFF_COUNT, n - 1);
    if (n == 1) {
      p.putInt(OFF_HEAP, p.size());
      p.putInt(OFF_GARBAGE, 0);
    } else {
      p.putInt(OFF_GARBAGE, garbage(p) + cell);
    }
  }

  /** Packs the live cells against the page end, so all free room is contiguous. */
  static void compact(Page p, Page scratch) {
    int heap = heapStart(p);
    int size = p.size();
    scratch.copyFrom(p, heap, heap, size - heap);
    int shift = keyShift(p);
    int top = size;
    int n = count(p);
    for (int i = 0; i < n; i++) {
      int slotPos = HEADER_SIZE + i * SLOT_SIZE;
      int s = p.getInt(slotPos);
      int len = s >>> 16;
      top -= len + shift;
      p.copyFrom(scratch, s & 0xFFFF, top, len + shift);
      p.putInt(slotPos, top | (len << 16));
    }
    p.putInt(OFF_HEAP, top);
    p.putInt(OFF_GARBAGE, 0);
  }

  // ---- assert-only invariants (tests run with -ea) ----

  /** Keys strictly increasing and the space accounting consistent; for {@code assert}. */
  public static boolean assertWellFormed(Page p) {
    int n = count(p);
    int shift = keyShift(p);
    int cells = 0;
    for (int i = 0; i < n; i++) {
      int s = slot(p, i);
      cells += (s >>> 16) + shift;
      if (i > 0) {
        int t = slot(p, i - 1);
        if (p.compare((t & 0xFFFF) + shift, t >>> 16, p, (s & 0xFFFF) + shift, s >>> 16) >= 0) {
          throw new AssertionError("page " + p.pageNo() + ": keys " + (i - 1) + ", " + i);
        }
      }
    }
    if (cells != p.size() - heapStart(p) - garbage(p)) {
      throw new AssertionError("page " + p.pageNo() + ": cell bytes " + cells + " vs header");
    }
    return true;
  }
}
