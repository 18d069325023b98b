package dev.idxkit.core.spi;

import dev.idxkit.core.CorruptPageException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Records longer than {@link HeapPage#maxInlineLength} live in a chain of OVERFLOW pages; the heap
 * slot holds a 12-byte stub, flagged as overflow, with the record's length and first page.
 *
 * <p>Call order: {@link #write} the record (it allocates the chain), insert {@link #stub} into a
 * heap page with {@code overflowStub = true}; to read, {@link #readRecord} (or {@link #read} with
 * the stub's fields); to delete, {@link #free} the chain, then delete the slot.
 *
 * <p>Every page of a chain but the last is full, so a chain for {@code n} bytes has exactly {@code
 * ceil(n / capacity)} pages. Reading checks each page's type, version and byte count against that,
 * and that no page is reached twice, so a damaged chain (wrong page type, too long, too short, a
 * cycle) ends in a {@link CorruptPageException} naming the area and the page, never in a wrong
 * record or an endless loop.
 *
 * <h2>Overflow page (version {@value #FORMAT_VERSION}), little-endian, after the common header</h2>
 *
 * <pre>
 *  24              32        36  37      40
 *  +---------------+---------+---+-------+--------------------------------- ...
 *  | next page     | used    | v | rsvd  | record bytes [40, 40 + used)
 *  +---------------+---------+---+-------+--------------------------------- ...
 *  next  u64 next page of the chain, 0 on the last (page 0 is the area header, never in a chain)
 *  used  u32 record bytes on this page: pageSize - 40 on all but the last
 *  v     u8  overflow format version
 * </pre>
 *
 * <h2>Stub (in the heap slot)</h2>
 *
 * <pre>
 *  0          4                    12
 *  +----------+--------------------+
 *  | length   | first page         |
 *  +----------+--------------------+
 *  length u32 the whole record's length; first page u64
 * </pre>
 */
public final class Overflow {
  public static final int FORMAT_VERSION = 1;
  public static final int HEADER_SIZE = 40;
  public static final int STUB_LENGTH = 12;

  static final int OFF_NEXT = 24;

  /** The page after {@code p} in its chain, 0 at the end (for page accounting). */
  public static long nextPage(Page p) {
    return p.getLong(OFF_NEXT);
  }

  static final int OFF_USED = 32;
  static final int OFF_VERSION = 36;

  private static final VarHandle LE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private Overflow() {}

  /** Record bytes one overflow page holds. */
  public static int capacity(int pageSize) {
    return pageSize - HEADER_SIZE;
  }

  /** Pages a chain for {@code len} bytes takes. */
  public static long pagesFor(int pageSize, int len) {
    return (len + (long) capacity(pageSize) - 1) / capacity(pageSize);
  }

  /**
   * Writes {@code rec[off, off+len)} to a new chain and returns its first page. If allocation fails
   * part way, the pages already taken are freed before the exception propagates.
   */
  public static long write(PageAccess access, byte[] rec, int off, int len) {
    if (len < 1) {
      throw new IllegalArgumentException("len : " + len + " (expected: >= 1)");
    }
    int cap = capacity(access.pageSize());
    long[] taken = new long[(int) pagesFor(access.pageSize(), len)];
    int pages = 0;
    try {
      for (int done = 0; done < len; done += cap) {
        int n = Math.min(cap, len - done);
        Page page = access.allocate(PageType.OVERFLOW);
        taken[pages++] = page.pageNo();
        page.putLong(OFF_NEXT, 0);
        page.putInt(OFF_USED, n);
        page.putU8(OFF_VERSION, FORMAT_VERSION);
        page.putBytes(HEADER_SIZE, rec, off + done, n);
        if (pages > 1) {
          // Fetch the previous page again: a view is not promised to outlive the next allocate.
          access.write(taken[pages - 2]).putLong(OFF_NEXT, page.pageNo());
        }
      }
    } catch (RuntimeException e) {
      for (int i = pages - 1; i >= 0; i--) {
        try {
          access.free(taken[i]);
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
    return taken[0];
  }

  /** The {@code totalLen}-byte record stored in the chain that starts at {@code first}. */
  public static byte[] read(PageAccess access, long first, int totalLen) {
    if (totalLen < 1) {
      throw new IllegalArgumentException("totalLen : " + totalLen + " (expected: >= 1)");
    }
    int cap = capacity(access.pageSize());
    byte[] out = new byte[totalLen];
    Set<Long> seen = new HashSet<>();
    long no = first;
    int done = 0;
    while (true) {
      Page page = chainPage(access, first, no, seen);
      int want = Math.min(cap, totalLen - done);
      int used = page.getInt(OFF_USED);
      if (used != want) {
        throw corrupt(
            access,
            no,
            first,
            "holds "
                + used
                + " bytes (expected: "
                + want
                + ", at byte "
                + done
                + " of "
                + totalLen
                + ")");
      }
      page.getBytes(HEADER_SIZE, out, done, used);
      done += used;
      long next = page.getLong(OFF_NEXT);
      if (done == totalLen) {
        if (next != 0) {
          throw corrupt(
              access,
              no,
              first,
              "links on to page " + next + " after all " + totalLen + " bytes (expected: the end)");
        }
        return out;
      }
      if (next == 0) {
        throw corrupt(
            access, no, first, "ends the chain after " + done + " of " + totalLen + " bytes");
      }
      no = next;
    }
  }

  /** Returns every page of the chain to {@code access}; checks the whole chain before freeing. */
  public static void free(PageAccess access, long first) {
    Set<Long> seen = new HashSet<>();
    long[] chain = new long[8];
    int n = 0;
    for (long no = first; no != 0; ) {
      Page page = chainPage(access, first, no, seen);
      if (n == chain.length) {
        chain = Arrays.copyOf(chain, n * 2);
      }
      chain[n++] = no;
      no = page.getLong(OFF_NEXT);
    }
    for (int i = 0; i < n; i++) {
      access.free(chain[i]);
    }
  }

  private static Page chainPage(PageAccess access, long first, long no, Set<Long> seen) {
    if (!seen.add(no)) {
      throw corrupt(access, no, first, "is reached twice (a cycle in the chain)");
    }
    Page page = access.read(no);
    if (page.type() != PageType.OVERFLOW || page.getU8(OFF_VERSION) != FORMAT_VERSION) {
      throw corrupt(
          access,
          no,
          first,
          "has type "
              + page.type()
              + ", overflow version "
              + page.getU8(OFF_VERSION)
              + " (expected: OVERFLOW, "
              + FORMAT_VERSION
              + ")");
    }
    return page;
  }

  private static CorruptPageException corrupt(
      PageAccess access, long page, long first, String detail) {
    return new CorruptPageException(
        Path.of(access.name()),
        page,
        "overflow chain from page " + first + ": page " + page + " " + detail);
  }

  // ---- stubs ----

  /** The stub for a record of {@code totalLen} bytes whose chain starts at {@code first}. */
  public static byte[] stub(long first, int totalLen) {
    byte[] b = new byte[STUB_LENGTH];
    LE_INT.set(b, 0, totalLen);
    LE_LONG.set(b, 4, first);
    return b;
  }

  public static int stubLength(Page heap, int slot) {
    return heap.getInt(stubOffset(heap, slot));
  }

  public static long stubFirstPage(Page heap, int slot) {
    return heap.getLong(stubOffset(heap, slot) + 4);
  }

  /** The whole record in {@code slot}: the inline bytes, or the overflow chain its stub names. */
  public static byte[] readRecord(PageAccess access, Page heap, int slot) {
    if (!HeapPage.isOverflow(heap, slot)) {
      return HeapPage.read(heap, slot);
    }
    int len = stubLength(heap, slot);
    if (len < 1) {
      throw new CorruptPageException(
          Path.of(access.name()),
          heap.pageNo(),
          "overflow stub in slot " + slot + " says " + len + " bytes (expected: >= 1)");
    }
    return read(access, stubFirstPage(heap, slot), len);
  }

  static int stubOffset(Page heap, int slot) {
    if (!HeapPage.isOverflow(heap, slot)) {
      throw new IllegalArgumentException(
          "slot : " + slot + " of page " + heap.pageNo() + " (expected: an overflow stub)");
    }
    int len = HeapPage.recordLength(heap, slot);
    if (len != STUB_LENGTH) {
      throw new CorruptPageException(
          Path.of("area " + heap.areaId()),
          heap.pageNo(),
          "overflow stub in slot "
              + slot
              + " is "
              + len
              + " bytes (expected: "
              + STUB_LENGTH
              + ")");
    }
    return HeapPage.recordOffset(heap, slot);
  }
}
