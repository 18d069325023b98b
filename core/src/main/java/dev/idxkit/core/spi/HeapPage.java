package dev.idxkit.core.spi;

import dev.idxkit.core.CorruptPageException;
import java.nio.file.Path;
import java.util.Arrays;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * A slotted heap page: records of one table, addressed by slot number so that a RID (page, slot)
 * never changes while its record lives, however records move inside the page.
 *
 * <p>The slot array grows from the header towards the page end; record data grows from the page end
 * towards the header; the gap between them is free. Deleting or shrinking a record leaves a hole
 * ("garbage") inside the data area. An insert or growing update that does not fit the gap but would
 * fit gap + garbage first compacts: live records slide to the page end in offset order and their
 * slots are rewritten, never renumbered. Deleted slots are reused by later inserts (lowest first)
 * and dead slots at the end of the array are dropped, so a page that empties returns to its initial
 * state.
 *
 * <h2>Format (heap version {@value #FORMAT_VERSION}), little-endian, after the common header</h2>
 *
 * <pre>
 *  24      26      28          32          36  37      40
 *  +-------+-------+-----------+-----------+---+-------+--------+--------+--- ...
 *  | slots | live  | dataStart | garbage   | v | rsvd  | slot 0 | slot 1 |
 *  +-------+-------+-----------+-----------+---+-------+--------+--------+--- ...
 *       ... free gap ... | record data: [dataStart, pageSize), live records and holes |
 *
 *  slots      u16 length of the slot array (live and deleted slots)
 *  live       u16 live records
 *  dataStart  u32 lowest byte of record data (pageSize when empty: 65536 needs more than u16)
 *  garbage    u32 bytes in [dataStart, pageSize) owned by no live record
 *  v          u8  heap format version
 *
 *  slot (4 bytes)   0       2                               4
 *                   +-------+-+-----------------------------+
 *                   | off   |o| length (15 bits)            |
 *                   +-------+-+-----------------------------+
 *  off     u16 record offset in the page; 0 = deleted slot (no record starts in the header).
 *          u16 is enough: a record is at least 1 byte, so it starts at most at 65535
 *  o       set: the record is an overflow stub ({@link Overflow})
 *  length  up to 32767, above the largest inline record of a 64 KiB page
 * </pre>
 *
 * <p>The largest inline record is a quarter of the page body less a slot ({@link
 * #maxInlineLength}): 1010 bytes on 4 KiB pages, 2034 on 8 KiB, 16374 on 64 KiB. Every page then
 * holds at least four records, at most a quarter of a page is lost to a record that does not fit,
 * and the limit matches the B+tree's quarter-page key limit. Longer records go to {@link Overflow}
 * pages (PostgreSQL's TOAST threshold is the same quarter page).
 *
 * <p>All methods are static over a {@link Page} view; the caller holds whatever makes the page
 * writable (a transaction, the bulk loader's private page).
 */
public final class HeapPage {
  public static final int FORMAT_VERSION = 1;
  public static final int HEADER_SIZE = 40;
  public static final int SLOT_SIZE = 4;

  static final int OFF_SLOTS = 24;
  static final int OFF_LIVE = 26;
  static final int OFF_DATA_START = 28;
  static final int OFF_GARBAGE = 32;
  static final int OFF_VERSION = 36;

  static final int OVERFLOW_FLAG = 0x8000;
  // u16 fields are stored in the platform's order (Page): a slot read as one int has its offset in
  // the low half on a little-endian machine, in the high half on a big-endian one.
  private static final boolean LITTLE_ENDIAN =
      java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;
  private static final int LENGTH_MASK = 0x7FFF;
  private static final int MAX_SLOTS = 0xFFFF; // RID slot field is 16 bits

  private HeapPage() {}

  /** Largest record stored inline on a page of this size; longer ones overflow. */
  public static int maxInlineLength(int pageSize) {
    return (pageSize - HEADER_SIZE) / 4 - SLOT_SIZE;
  }

  /** Makes a freshly formatted HEAP page an empty heap page. */
  public static void init(Page p) {
    if (p.type() != PageType.HEAP) {
      throw new IllegalArgumentException(
          "page " + p.pageNo() + " type : " + p.type() + " (expected: HEAP)");
    }
    p.putU16(OFF_SLOTS, 0);
    p.putU16(OFF_LIVE, 0);
    p.putInt(OFF_DATA_START, p.size());
    p.putInt(OFF_GARBAGE, 0);
    p.putU8(OFF_VERSION, FORMAT_VERSION);
  }

  public static int slotCount(Page p) {
    return p.getU16(OFF_SLOTS);
  }

  public static int liveCount(Page p) {
    return p.getU16(OFF_LIVE);
  }

  public static boolean isEmpty(Page p) {
    return liveCount(p) == 0;
  }

  /** Unused bytes, in the gap and in holes; an insert needs its length plus a slot if none free. */
  public static int freeSpace(Page p) {
    return dataStart(p) - slotEnd(slotCount(p)) + garbage(p);
  }

  /** Whether {@link #insert} of {@code len} bytes would succeed now (possibly compacting). */
  public static boolean fits(Page p, int len) {
    checkLength(p, len);
    int slot = freeSlot(p);
    int need = len + (slot == slotCount(p) ? SLOT_SIZE : 0);
    return slot < MAX_SLOTS && freeSpace(p) >= need;
  }

  public static boolean isLive(Page p, int slot) {
    return slot >= 0 && slot < slotCount(p) && p.getU16(slotAt(slot)) != 0;
  }

  /** Whether the live record in {@code slot} is an overflow stub rather than the record. */
  public static boolean isOverflow(Page p, int slot) {
    checkLive(p, slot);
    return (p.getU16(slotAt(slot) + 2) & OVERFLOW_FLAG) != 0;
  }

  /** Offset of the record in the page, checked to lie in the data area. */
  public static int recordOffset(Page p, int slot) {
    checkLive(p, slot);
    int off = p.getU16(slotAt(slot));
    int len = p.getU16(slotAt(slot) + 2) & LENGTH_MASK;
    checkBounds(p, slot, off, len, dataStart(p));
    return off;
  }

  /**
   * Slot {@code slot} (below {@link #slotCount}) as one int, for a reader that walks every slot of
   * a page with one read each (the index rebuild's scan): the record's offset in the low 16 bits
   * (0: a deleted slot), its length and overflow flag in the high 16, whatever the platform's byte
   * order. Decode with {@link #wordOffset}, {@link #wordLength}, {@link #wordIsOverflow}, and check
   * a live slot with {@link #checkBounds} before reading its record.
   */
  public static int slotWord(Page p, int slot) {
    return word(p.getInt(slotAt(slot)));
  }

  /**
   * {@link #slotWord} of a page in native memory at {@code pageAddress}, whose slot array {@link
   * #checkSlotArray} found within the page.
   */
  public static int slotWordAt(long pageAddress, int slot) {
    return word(UnsafeMemory.MEMORY.readInt(pageAddress + slotAt(slot)));
  }

  /** A slot's two u16 fields read as one int, offset in the low half whatever the byte order. */
  private static int word(int slotInt) {
    return LITTLE_ENDIAN ? slotInt : (slotInt << 16) | (slotInt >>> 16);
  }

  /**
   * Throws {@link CorruptPageException}, naming the file of {@code pages} and the page, unless a
   * slot array of {@code slots} slots fits page {@code p}.
   */
  public static void checkSlotArray(Page p, int slots, PageAccess pages) {
    if (slotEnd(slots) > p.size()) {
      throw new CorruptPageException(
          Path.of(pages.name()),
          p.pageNo(),
          slots + " slots end at byte " + slotEnd(slots) + ", past the page's " + p.size());
    }
  }

  public static int wordOffset(int word) {
    return word & 0xFFFF;
  }

  public static int wordLength(int word) {
    return (word >>> 16) & LENGTH_MASK;
  }

  public static boolean wordIsOverflow(int word) {
    return (word & (OVERFLOW_FLAG << 16)) != 0;
  }

  /** Lowest byte of record data ({@code pageSize} when the page is empty). */
  public static int dataStart(Page p) {
    return p.getInt(OFF_DATA_START);
  }

  /**
   * Throws {@link CorruptPageException} unless the record of {@code slot} at {@code [off, off +
   * len)} lies in the data area that starts at {@code dataStart}.
   */
  public static void checkBounds(Page p, int slot, int off, int len, int dataStart) {
    if (off < dataStart || off + len > p.size()) {
      throw corrupt(
          p,
          "slot "
              + slot
              + " at ["
              + off
              + ", "
              + (off + len)
              + ") (expected: within ["
              + dataStart
              + ", "
              + p.size()
              + "))");
    }
  }

  public static int recordLength(Page p, int slot) {
    checkLive(p, slot);
    return p.getU16(slotAt(slot) + 2) & LENGTH_MASK;
  }

  /** A copy of the bytes in {@code slot} (the stub itself for an overflow record). */
  public static byte[] read(Page p, int slot) {
    return p.getBytes(recordOffset(p, slot), recordLength(p, slot));
  }

  public static int insert(Page p, byte[] rec, int off, int len) {
    return insert(p, rec, off, len, false);
  }

  /**
   * Stores {@code rec[off, off+len)} and returns its slot, or -1 when the page cannot hold it even
   * after compaction. A deleted slot is reused before the array grows.
   */
  public static int insert(Page p, byte[] rec, int off, int len, boolean overflowStub) {
    checkLength(p, len);
    int count = slotCount(p);
    int slot = freeSlot(p);
    boolean newSlot = slot == count;
    if (newSlot && slot >= MAX_SLOTS) {
      return -1;
    }
    int slotBytes = newSlot ? SLOT_SIZE : 0;
    int gap = dataStart(p) - slotEnd(count) - slotBytes;
    if (gap < len) {
      if (gap + garbage(p) < len) {
        return -1;
      }
      compact(p);
    }
    int at = dataStart(p) - len;
    p.putBytes(at, rec, off, len);
    p.putInt(OFF_DATA_START, at);
    setSlot(p, slot, at, len, overflowStub);
    if (newSlot) {
      p.putU16(OFF_SLOTS, count + 1);
    }
    p.putU16(OFF_LIVE, liveCount(p) + 1);
    return slot;
  }

  /**
   * Writes the header counts of a fresh page that {@link HeapAppender} filled by appending: {@code
   * slots} records, all live, in slots {@code 0..slots-1} with data from {@code dataStart} to the
   * page end and no holes, as that many {@link #insert}s would have left it.
   */
  static void setAppended(Page p, int slots, int dataStart) {
    p.putU16(OFF_SLOTS, slots);
    p.putU16(OFF_LIVE, slots);
    p.putInt(OFF_DATA_START, dataStart);
  }

  /** Deletes the record in {@code slot}; an overflow stub's chain must be freed by the caller. */
  public static void delete(Page p, int slot) {
    int off = recordOffset(p, slot);
    int len = recordLength(p, slot);
    if (off == dataStart(p)) {
      p.putInt(OFF_DATA_START, off + len); // the lowest record: the gap simply grows
    } else {
      p.putInt(OFF_GARBAGE, garbage(p) + len);
    }
    p.putInt(slotAt(slot), 0);
    int live = liveCount(p) - 1;
    p.putU16(OFF_LIVE, live);
    if (live == 0) {
      init(p); // nothing to keep: forget holes and slots at once
      return;
    }
    int count = slotCount(p);
    while (count > 0 && p.getU16(slotAt(count - 1)) == 0) {
      count--;
    }
    p.putU16(OFF_SLOTS, count);
  }

  public static boolean update(Page p, int slot, byte[] rec, int off, int len) {
    return update(p, slot, rec, off, len, false);
  }

  /**
   * Replaces the record in {@code slot}, keeping the slot. Returns false, with the page unchanged,
   * when the new record does not fit even after compaction; the caller then moves the record (or
   * stores it on overflow pages and puts a stub here).
   */
  public static boolean update(
      Page p, int slot, byte[] rec, int off, int len, boolean overflowStub) {
    checkLength(p, len);
    int oldOff = recordOffset(p, slot);
    int oldLen = recordLength(p, slot);
    if (len <= oldLen) {
      p.putBytes(oldOff, rec, off, len);
      p.putInt(OFF_GARBAGE, garbage(p) + oldLen - len);
      setSlot(p, slot, oldOff, len, overflowStub);
      return true;
    }
    int gap = dataStart(p) - slotEnd(slotCount(p));
    if (gap < len) {
      if (gap + garbage(p) + oldLen < len) {
        return false;
      }
      // Free the old bytes first so that compaction reclaims them; the slot stays reserved.
      p.putInt(slotAt(slot), 0);
      p.putInt(OFF_GARBAGE, garbage(p) + oldLen);
      compact(p);
    } else {
      p.putInt(OFF_GARBAGE, garbage(p) + oldLen);
    }
    int at = dataStart(p) - len;
    p.putBytes(at, rec, off, len);
    p.putInt(OFF_DATA_START, at);
    setSlot(p, slot, at, len, overflowStub);
    return true;
  }

  /**
   * Slides every live record to the page end, closing all holes; slots keep their numbers. Records
   * are moved highest offset first, so each moves up into space already vacated (memmove).
   */
  public static void compact(Page p) {
    int count = slotCount(p);
    long[] byOffset = new long[liveCount(p)];
    int n = 0;
    for (int s = 0; s < count; s++) {
      int off = p.getU16(slotAt(s));
      if (off != 0) {
        byOffset[n++] = (long) off << 16 | s;
      }
    }
    Arrays.sort(byOffset, 0, n);
    int top = p.size();
    for (int i = n - 1; i >= 0; i--) {
      int s = (int) (byOffset[i] & 0xFFFF);
      int off = (int) (byOffset[i] >>> 16);
      int len = p.getU16(slotAt(s) + 2) & LENGTH_MASK;
      top -= len;
      p.move(off, top, len);
      p.putU16(slotAt(s), top);
    }
    p.putInt(OFF_DATA_START, top);
    p.putInt(OFF_GARBAGE, 0);
  }

  /**
   * Checks every invariant of the page (version, bounds, counts, no overlapping records, bytes
   * accounted for) and throws {@link CorruptPageException} naming {@code file} on the first that
   * fails. For {@code check} and tests; the operations above trust the page.
   */
  public static void verify(Page p, String file) {
    Path path = Path.of(file);
    int version = p.getU8(OFF_VERSION);
    if (p.type() != PageType.HEAP || version != FORMAT_VERSION) {
      throw new CorruptPageException(
          path,
          p.pageNo(),
          "type "
              + p.type()
              + ", heap version "
              + version
              + " (expected: HEAP, "
              + FORMAT_VERSION
              + ")");
    }
    int count = slotCount(p);
    int dataStart = dataStart(p);
    if (dataStart < slotEnd(count) || dataStart > p.size()) {
      throw new CorruptPageException(
          path,
          p.pageNo(),
          "data start "
              + dataStart
              + " (expected: "
              + slotEnd(count)
              + ".."
              + p.size()
              + " for "
              + count
              + " slots)");
    }
    long[] ranges = new long[count];
    int live = 0;
    long used = 0;
    for (int s = 0; s < count; s++) {
      int off = p.getU16(slotAt(s));
      int len = p.getU16(slotAt(s) + 2) & LENGTH_MASK;
      if (off == 0) {
        continue;
      }
      if (off < dataStart || off + len > p.size() || len == 0) {
        throw new CorruptPageException(
            path,
            p.pageNo(),
            "slot "
                + s
                + " at ["
                + off
                + ", "
                + (off + len)
                + ") (expected: within ["
                + dataStart
                + ", "
                + p.size()
                + "), not empty)");
      }
      ranges[live++] = (long) off << 32 | (off + len);
      used += len;
    }
    Arrays.sort(ranges, 0, live);
    for (int i = 1; i < live; i++) {
      if ((ranges[i] >>> 32) < (ranges[i - 1] & 0xFFFF_FFFFL)) {
        throw new CorruptPageException(
            path, p.pageNo(), "records overlap at offset " + (ranges[i] >>> 32));
      }
    }
    if (live != liveCount(p) || used + garbage(p) != p.size() - dataStart) {
      throw new CorruptPageException(
          path,
          p.pageNo(),
          "live "
              + liveCount(p)
              + ", garbage "
              + garbage(p)
              + " (expected: live "
              + live
              + ", garbage "
              + (p.size() - dataStart - used)
              + ")");
    }
  }

  // ---- internals ----

  private static int garbage(Page p) {
    return p.getInt(OFF_GARBAGE);
  }

  private static int slotAt(int slot) {
    return HEADER_SIZE + SLOT_SIZE * slot;
  }

  private static int slotEnd(int count) {
    return HEADER_SIZE + SLOT_SIZE * count;
  }

  /** The lowest deleted slot, or the slot count when none is deleted. */
  private static int freeSlot(Page p) {
    int count = slotCount(p);
    if (liveCount(p) == count) {
      return count;
    }
    for (int s = 0; s < count; s++) {
      if (p.getU16(slotAt(s)) == 0) {
        return s;
      }
    }
    return count;
  }

  private static void setSlot(Page p, int slot, int off, int len, boolean overflowStub) {
    p.putU16(slotAt(slot), off);
    p.putU16(slotAt(slot) + 2, len | (overflowStub ? OVERFLOW_FLAG : 0));
  }

  private static void checkLength(Page p, int len) {
    int max = maxInlineLength(p.size());
    if (len < 1 || len > max) {
      throw new IllegalArgumentException(
          "record length : "
              + len
              + " (expected: 1.."
              + max
              + " on "
              + p.size()
              + "-byte pages; longer records overflow)");
    }
  }

  private static void checkLive(Page p, int slot) {
    if (!isLive(p, slot)) {
      throw new IllegalArgumentException(
          "slot : "
              + slot
              + " (expected: a live slot of page "
              + p.pageNo()
              + ", which has "
              + slotCount(p)
              + " slots)");
    }
  }

  private static CorruptPageException corrupt(Page p, String detail) {
    return new CorruptPageException(Path.of("area " + p.areaId()), p.pageNo(), detail);
  }
}
