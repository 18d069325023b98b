package dev.idxkit.core.internal.btree;

import dev.idxkit.core.spi.Page;

/**
 * The slotted layout shared by B+tree leaves ({@link dev.idxkit.core.spi.PageType#LEAF}) and
 * branches ({@link dev.idxkit.core.spi.PageType#BRANCH}), in two node formats told apart by each
 * page's format byte, as static methods over a {@link Page} so that no object exists per page.
 *
 * <pre>
 *  Node header, both formats (after the 24-byte page header):
 *  0          24      26      27      28          32          36       38     40        48        56
 *  +----------+-------+-------+-------+-----------+-----------+--------+------+---------+---------+
 *  | Page hdr | count | level | fmt   | heapStart | garbage   | pfxLen | rsvd | link0   | link1   |
 *  +----------+-------+-------+-------+-----------+-----------+--------+------+---------+---------+
 *  count      u16  number of slots (entries in a leaf, separators in a branch)
 *  level      u8   0 for a leaf, the height above the leaves for a branch
 *  fmt        u8   {@link #FORMAT_1} or {@link #FORMAT_2}
 *  heapStart  i32  offset of the lowest cell byte; pageSize when there are no cells
 *  garbage    i32  bytes of dead cells between heapStart and pageSize (reclaimed by compaction)
 *  pfxLen     u16  format 2: length of the page prefix; format 1: 0
 *  link0      i64  leaf: left sibling page (0 = none);  branch: leftmost child page
 *  link1      i64  leaf: right sibling page (0 = none); branch: 0
 *
 *  Format 1 (every page written before format 2; still read, and changed in place):
 *  56                                                                                   pageSize
 *  +--------+--------+-----+--------------------+------------------------------------------+
 *  | slot 0 | slot 1 | ... |   free space ->  <-| cells, packed downwards from the page end |
 *  +--------+--------+-----+--------------------+------------------------------------------+
 *  slot         4 bytes, one LE int: u16 cell offset | u16 key length << 16
 *  leaf cell    = entry bytes
 *  branch cell  = child page (i64 LE) | separator bytes
 *
 *  Format 2 (written by the bottom-up builder and by every rebuild of a page: split, merge):
 *  56               56 + P                                                              pageSize
 *  +----------------+--------+--------+-----+--------------------+-------------------------+
 *  | prefix, padded | slot 0 | slot 1 | ... |   free space ->  <-| cells                   |
 *  +----------------+--------+--------+-----+--------------------+-------------------------+
 *  prefix       the pfxLen bytes every key of the page starts with; P = pfxLen rounded up to 8
 *  slot         8 bytes, one LE long: u16 cell offset | u16 suffix length << 16 | u32 head << 32
 *  head         the first 4 bytes of the suffix read as a big-endian number, zero-padded
 *  leaf cell    = suffix: the entry without the prefix
 *  branch cell  = child page (i64 LE) | suffix of the separator
 * </pre>
 *
 * <p>Why format 2: a lookup's binary search in format 1 reads the cell each probed slot points to,
 * and in a tree larger than the CPU caches every one of those reads is a cache miss (half of a
 * lookup's time on 10 M keys). In format 2 the search compares heads, which sit in the slot array
 * it reads anyway, and reads a cell only when a head ties with the probe's ({@link NodeSearch}).
 * Taking the heads after the prefix makes them discriminate (within one leaf, the leading bytes of
 * the keys are mostly the same), and storing each key without the prefix pays for the wider slot.
 *
 * <p>Worked example: a leaf of 16-byte entries (BIGINT key, sign bit flipped, then an 8-byte RID)
 * holding keys 80000 to 83264 in steps of 8. Every entry starts {@code 80 00 00 00 00 01}, so
 * pfxLen = 6 (P = 8); entry {@code 80 00 00 00 00 01 38 80 | 00 00 00 00 00 00 27 10} (key 80000,
 * RID 10000) is stored as the 10-byte cell {@code 38 80 00 00 00 00 00 00 27 10} with head {@code
 * 0x38800000}. An entry takes 8 + 10 bytes instead of format 1's 4 + 16.
 *
 * <p>The prefix is whatever the page's keys share, not a property of the key range the page covers:
 * a key routed to the page may not share it (it then sorts below or above every key of the page).
 * {@link #insert} refuses such a key, and the caller rebuilds the page with a shorter prefix or
 * splits it ({@link Splitter}); deletes never change the prefix, which stays shared by what is
 * left.
 *
 * <p>A branch with {@code count} separators has {@code count + 1} children: child 0 is {@code
 * link0}, child {@code i + 1} is the page in cell {@code i}. Child 0 holds the entries below
 * separator 0, child {@code i + 1} those at or above separator {@code i} and below separator {@code
 * i + 1}. So the child to descend into for a key is the number of separators {@code <= key}.
 *
 * <p>Cells are not kept in key order on the page: inserting moves only the slots, and a removed
 * cell becomes garbage until an insert needs the room and {@link #compact} packs the page.
 *
 * <p>The body (prefix, slots and cells) is {@code pageSize - 56} bytes. Entries may be a quarter of
 * it ({@link #maxEntryLength}), so any page holds at least three cells of either kind, a split of
 * an overflowing page always leaves both halves within a page, and every branch split has a middle
 * separator to push up.
 */
public final class Node {
  /** Whole keys in cells, 4-byte slots. */
  public static final int FORMAT_1 = 1;

  /** Page prefix, 8-byte slots with heads, key suffixes in cells. */
  public static final int FORMAT_2 = 2;

  /** The format of every page built or rebuilt now. */
  public static final int CURRENT_FORMAT = FORMAT_2;

  static final int OFF_COUNT = Page.HEADER_SIZE;
  static final int OFF_LEVEL = 26;
  static final int OFF_FORMAT = 27;
  static final int OFF_HEAP = 28;
  static final int OFF_GARBAGE = 32;
  static final int OFF_PREFIX = 36;
  static final int OFF_LINK0 = 40;
  static final int OFF_LINK1 = 48;
  static final int HEADER_SIZE = 56;
  public static final int CHILD_SIZE = 8;
  static final int HEAD_SIZE = 4;

  private Node() {}

  public static int bodySize(int pageSize) {
    return pageSize - HEADER_SIZE;
  }

  public static int maxEntryLength(int pageSize) {
    return bodySize(pageSize) / 4;
  }

  /** Bytes per slot in pages of {@code format}. */
  public static int slotSize(int format) {
    return format == FORMAT_2 ? 8 : 4;
  }

  /** Writes an empty node header of the current format after {@link Page#format}. */
  public static void init(Page p, int level) {
    init(p, level, CURRENT_FORMAT);
  }

  /** Writes an empty node header of {@code format} after {@link Page#format}; links cleared. */
  public static void init(Page p, int level, int format) {
    if (format != FORMAT_1 && format != FORMAT_2) {
      throw new IllegalArgumentException(
          "node format : " + format + " (expected: " + FORMAT_1 + " or " + FORMAT_2 + ")");
    }
    p.putU16(OFF_COUNT, 0);
    p.putU8(OFF_LEVEL, level);
    p.putU8(OFF_FORMAT, format);
    p.putInt(OFF_HEAP, p.size());
    p.putInt(OFF_GARBAGE, 0);
    p.putInt(OFF_PREFIX, 0);
    p.putLong(OFF_LINK0, 0);
    p.putLong(OFF_LINK1, 0);
  }

  /**
   * Drops every slot and cell and makes the page a {@code format} page whose prefix is the first
   * {@code prefixLen} bytes of {@code key[kOff..)} (0 for format 1), keeping level and links: a
   * rebuild writes the page again in place. The prefix must fit the page: {@code prefixLen <=}
   * {@link #maxEntryLength}.
   */
  static void reset(Page p, int format, byte[] key, int kOff, int prefixLen) {
    assert format == FORMAT_2 || prefixLen == 0;
    p.putU16(OFF_COUNT, 0);
    p.putU8(OFF_FORMAT, format);
    p.putInt(OFF_HEAP, p.size());
    p.putInt(OFF_GARBAGE, 0);
    p.putU16(OFF_PREFIX, prefixLen);
    if (prefixLen > 0) {
      p.putBytes(HEADER_SIZE, key, kOff, prefixLen);
    }
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

  static boolean knownFormat(int format) {
    return format == FORMAT_1 || format == FORMAT_2;
  }

  static int heapStart(Page p) {
    return p.getInt(OFF_HEAP);
  }

  static int garbage(Page p) {
    return p.getInt(OFF_GARBAGE);
  }

  /** Bytes every key of the page starts with, stored once at {@link #HEADER_SIZE}. */
  static int prefixLength(Page p) {
    return format(p) == FORMAT_2 ? p.getU16(OFF_PREFIX) : 0;
  }

  /** The prefix area of a format 2 page: {@code prefixLen} rounded up to 8 bytes. */
  static int prefixArea(int prefixLen) {
    return (prefixLen + 7) & ~7;
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

  /** Offset of slot 0. */
  static int slotBase(Page p) {
    return format(p) == FORMAT_2 ? HEADER_SIZE + prefixArea(p.getU16(OFF_PREFIX)) : HEADER_SIZE;
  }

  /** Offset of slot {@code i}. */
  static int slotPos(Page p, int i) {
    return format(p) == FORMAT_2
        ? HEADER_SIZE + prefixArea(p.getU16(OFF_PREFIX)) + (i << 3)
        : HEADER_SIZE + (i << 2);
  }

  /**
   * Slot {@code i} without its head: cell offset in the low 16 bits, length of the key bytes in the
   * cell (the whole key in format 1, the suffix in format 2) in the high 16.
   */
  public static int slot(Page p, int i) {
    return p.getInt(slotPos(p, i));
  }

  /** Bytes before the key in a cell: the child pointer of a branch cell. */
  static int keyShift(Page p) {
    return isLeaf(p) ? 0 : CHILD_SIZE;
  }

  /** Offset of the key bytes in cell {@code i} (the suffix in format 2). */
  static int suffixOffset(Page p, int i) {
    return (slot(p, i) & 0xFFFF) + keyShift(p);
  }

  /** Key bytes in cell {@code i}: the whole key in format 1, the suffix in format 2. */
  static int suffixLength(Page p, int i) {
    return slot(p, i) >>> 16;
  }

  /** Length of key {@code i}: prefix and suffix. */
  static int keyLength(Page p, int i) {
    return prefixLength(p) + suffixLength(p, i);
  }

  /** Child {@code i} of a branch, {@code 0 <= i <= count}. */
  static long child(Page p, int i) {
    return i == 0 ? p.getLong(OFF_LINK0) : p.getLong(slot(p, i - 1) & 0xFFFF);
  }

  /** Prefix area, slots and live cells. */
  static int usedBytes(Page p) {
    int f = format(p);
    int area = f == FORMAT_2 ? prefixArea(p.getU16(OFF_PREFIX)) : 0;
    return area + count(p) * slotSize(f) + p.size() - heapStart(p) - garbage(p);
  }

  /** Room between the slot array and the cells, usable without compaction. */
  static int contiguousFree(Page p) {
    return heapStart(p) - slotPos(p, count(p));
  }

  /** Sum of the lengths of the page's keys, prefixes included. */
  static long keyBytesTotal(Page p) {
    int n = count(p);
    return p.size()
        - heapStart(p)
        - garbage(p)
        - (long) n * keyShift(p)
        + (long) n * prefixLength(p);
  }

  /**
   * Body bytes that {@code count} keys of {@code keyBytes} bytes in all take in a page of {@code
   * format} with a prefix of {@code prefixLen} (0 in format 1): prefix area, slots and cells.
   */
  public static long bytesFor(int format, boolean leaf, int count, long keyBytes, int prefixLen) {
    int perCell = slotSize(format) + (leaf ? 0 : CHILD_SIZE);
    if (format != FORMAT_2) {
      return (long) count * perCell + keyBytes;
    }
    return prefixArea(prefixLen) + (long) count * (perCell - prefixLen) + keyBytes;
  }

  /**
   * The prefix length, at most {@code longest} (what the keys share), that makes {@code count} keys
   * take the fewest bytes in a format 2 page. Usually {@code longest}; for a handful of keys the
   * prefix area's padding can outweigh what a longer prefix saves. No longer prefix length ever
   * costs fewer bytes than the one returned, which a split relies on (see {@link Splitter}).
   */
  public static int bestPrefix(int longest, int count) {
    if (count >= 8) {
      return longest; // each byte of prefix saves count bytes, the padding costs 7 at most
    }
    int down = longest & ~7;
    long atLongest = prefixArea(longest) - (long) count * longest;
    long atDown = down - (long) count * down;
    return atLongest <= atDown ? longest : down;
  }

  /** The head stored in slot {@code i} of a format 2 page. */
  static int storedHead(Page p, int i) {
    return p.getInt(slotPos(p, i) + 4);
  }

  // ---- search (no allocation; compares on page memory) ----

  /**
   * The index of {@code key} if present, else {@code -(insertion point) - 1} as {@link
   * java.util.Arrays#binarySearch}; see {@link NodeSearch}.
   */
  static int search(Page p, byte[] key, int kOff, int kLen) {
    return NodeSearch.search(p, key, kOff, kLen);
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
   * there but fragmented. Returns false, changing nothing, when the cell does not fit, or when the
   * page is in format 2 and {@code key} does not start with its prefix: the caller then rebuilds
   * the page ({@link Splitter}).
   */
  static boolean insert(Page p, int i, byte[] key, int kOff, int kLen, long child, Page scratch) {
    int format = format(p);
    int pfx = prefixLength(p);
    if (pfx > 0 && Keys.comparePrefix(p, pfx, key, kOff, kLen) != 0) {
      return false;
    }
    int cell = kLen - pfx + keyShift(p);
    int slotSize = slotSize(format);
    int need = cell + slotSize;
    if (contiguousFree(p) < need) {
      if (bodySize(p.size()) - usedBytes(p) < need) {
        return false;
      }
      compact(p, scratch);
    }
    int n = count(p);
    int slotPos = slotPos(p, i);
    p.move(slotPos, slotPos + slotSize, (n - i) * slotSize);
    int off = heapStart(p) - cell;
    writeCell(p, off, key, kOff + pfx, kLen - pfx, child);
    writeSlot(p, format, slotPos, off, key, kOff + pfx, kLen - pfx);
    p.putInt(OFF_HEAP, off);
    p.putU16(OFF_COUNT, n + 1);
    return true;
  }

  /**
   * Appends key {@code key[kOff, kOff + kLen)} (with {@code child}, for a branch) after the last
   * slot. The caller has made sure it fits contiguously and that the key starts with the page
   * prefix.
   */
  public static void append(Page p, byte[] key, int kOff, int kLen, long child) {
    int format = format(p);
    int pfx = prefixLength(p);
    int n = count(p);
    int slotPos = slotPos(p, n);
    int off = heapStart(p) - (kLen - pfx) - keyShift(p);
    assert off >= slotPos + slotSize(format) : "append overflows page " + p.pageNo();
    assert pfx == 0 || Keys.comparePrefix(p, pfx, key, kOff, kLen) == 0 : "key outside the prefix";
    writeCell(p, off, key, kOff + pfx, kLen - pfx, child);
    writeSlot(p, format, slotPos, off, key, kOff + pfx, kLen - pfx);
    p.putInt(OFF_HEAP, off);
    p.putU16(OFF_COUNT, n + 1);
  }

  private static void writeSlot(
      Page p, int format, int slotPos, int off, byte[] suffix, int sOff, int sLen) {
    if (format == FORMAT_2) {
      long head = Keys.head(suffix, sOff, sLen) & 0xFFFF_FFFFL;
      p.putLong(slotPos, off | ((long) sLen << 16) | (head << 32));
    } else {
      p.putInt(slotPos, off | (sLen << 16));
    }
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
    int slotSize = slotSize(format(p));
    int slotPos = slotPos(p, i);
    int cell = (p.getInt(slotPos) >>> 16) + keyShift(p);
    p.move(slotPos + slotSize, slotPos, (n - i - 1) * slotSize);
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
    int slotSize = slotSize(format(p));
    int top = size;
    int n = count(p);
    int slotPos = slotPos(p, 0);
    for (int i = 0; i < n; i++, slotPos += slotSize) {
      // The low four bytes of a slot in either format: offset | length; a head stays as it is.
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

  /** Keys strictly increasing, heads right and the space accounting consistent; for asserts. */
  public static boolean assertWellFormed(Page p) {
    int n = count(p);
    int shift = keyShift(p);
    int cells = 0;
    for (int i = 0; i < n; i++) {
      int s = slot(p, i);
      cells += (s >>> 16) + shift;
      if (i > 0) {
        // Keys of one page share its prefix: their order is their suffixes' order.
        int t = slot(p, i - 1);
        if (p.compare((t & 0xFFFF) + shift, t >>> 16, p, (s & 0xFFFF) + shift, s >>> 16) >= 0) {
          throw new AssertionError("page " + p.pageNo() + ": keys " + (i - 1) + ", " + i);
        }
      }
      if (format(p) == FORMAT_2
          && storedHead(p, i) != Keys.head(p, (s & 0xFFFF) + shift, s >>> 16)) {
        throw new AssertionError("page " + p.pageNo() + ": head of slot " + i);
      }
    }
    if (cells != p.size() - heapStart(p) - garbage(p)) {
      throw new AssertionError("page " + p.pageNo() + ": cell bytes " + cells + " vs header");
    }
    return true;
  }
}
