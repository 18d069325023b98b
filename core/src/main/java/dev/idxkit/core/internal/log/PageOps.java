package dev.idxkit.core.internal.log;

import dev.idxkit.core.spi.Page;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The operations a transaction did to one page, in order, recorded as it does them: the body of an
 * OPS {@link RedoRecord}. A B+tree leaf insert moves the slots after the insertion point up by one
 * and writes the slot, the entry and two header fields; as bytes that differ from the page before
 * (a DELTA), that is every slot after the insertion point, half the slot array on average (some 800
 * bytes of a full 8 KiB leaf, more when several inserts hit one leaf in a transaction); as
 * operations it is one MOVE of 7 bytes and four PUTs of some 40 bytes in all.
 *
 * <p>Call order: a transaction's copy of a page {@link Page#recordWrites records its writes} here
 * from the moment it is copied; at commit, after the page is stamped with its LSN, the log writes
 * {@link #bytes()} as the record's body unless {@link #overflowed()} (then it diffs the page, as
 * before: a page rewritten wholesale, by a split or a compaction, is as small that way). {@link
 * #reset} makes it ready for the next page. Replay: {@link #check} every operation of a body
 * against the page size, then {@link #apply} them in order to the image they were recorded on.
 *
 * <p>Encoding (little-endian), one after the other:
 *
 * <pre>
 *   PUT   u8 1 | u16 offset | u16 length | length bytes     the bytes written at offset
 *   MOVE  u8 2 | u16 from   | u16 to     | u16 length       memmove within the page
 *   ZERO  u8 3 | u16 offset | u16 length                    zeroed
 *
 *   a leaf insert at slot 17 of 300 (8 KiB page, 16-byte entry):
 *   [MOVE 124 -> 128, 1132][PUT 124, 4: slot][PUT 7936, 16: entry][PUT 28, 4: heap][PUT 24, 2: count]
 *   7 + 9 + 21 + 9 + 7 = 53 bytes, and the commit adds [PUT 16, 8: lsn]
 * </pre>
 *
 * <p>Memory: up to {@code limit} bytes, a quarter of the page: past it, a record of operations
 * would be no smaller than a diff, so recording stops and the page is diffed at commit.
 */
public final class PageOps implements Page.Writes {
  static final byte PUT = 1;
  static final byte MOVE = 2;
  static final byte ZERO = 3;
  private static final int PUT_HEADER = 5;
  private static final int MOVE_SIZE = 7;
  private static final int ZERO_SIZE = 5;

  private final int limit;
  private byte[] buf = new byte[256];
  private int length;
  private int count;
  private boolean overflowed;

  /** Operations of pages of {@code pageSize} bytes. */
  public PageOps(int pageSize) {
    this.limit = pageSize / 4;
  }

  /** Forgets every operation recorded. */
  public void reset() {
    length = 0;
    count = 0;
    overflowed = false;
  }

  /** Whether recording stopped at the limit (the page must be diffed instead). */
  public boolean overflowed() {
    return overflowed;
  }

  /** Bytes of the operations recorded: the body of an OPS record. */
  public int length() {
    return length;
  }

  /** Operations recorded. */
  public int count() {
    return count;
  }

  /** The recorded operations, {@code [0, length())}. */
  public byte[] bytes() {
    return buf;
  }

  @Override
  public void put(Page page, int off, int len) {
    if (room(PUT_HEADER + len)) {
      buf[length] = PUT;
      u16(length + 1, off);
      u16(length + 3, len);
      page.getBytes(off, buf, length + PUT_HEADER, len);
      length += PUT_HEADER + len;
      count++;
    }
  }

  @Override
  public void move(int from, int to, int len) {
    if (len > 0xFFFF || to < Page.HEADER_SIZE) {
      // Not expressible (a 64 KiB move), or into the page header, which replay checks before it
      // applies anything: such a page is diffed instead.
      overflowed = true;
    }
    if (room(MOVE_SIZE)) {
      buf[length] = MOVE;
      u16(length + 1, from);
      u16(length + 3, to);
      u16(length + 5, len);
      length += MOVE_SIZE;
      count++;
    }
  }

  @Override
  public void zero(int off, int len) {
    if (len > 0xFFFF) {
      overflowed = true;
    }
    if (room(ZERO_SIZE)) {
      buf[length] = ZERO;
      u16(length + 1, off);
      u16(length + 3, len);
      length += ZERO_SIZE;
      count++;
    }
  }

  private boolean room(int bytes) {
    if (overflowed) {
      return false;
    }
    if (length + bytes > limit) {
      overflowed = true;
      return false;
    }
    if (length + bytes > buf.length) {
      buf = Arrays.copyOf(buf, Math.min(limit, Math.max(length + bytes, buf.length * 2)));
    }
    return true;
  }

  private void u16(int at, int v) {
    buf[at] = (byte) v;
    buf[at + 1] = (byte) (v >>> 8);
  }

  /**
   * Checks the {@code ops} operations of {@code bytes} bytes at {@code pos} in {@code in}: each of
   * a known kind, within the page and within the body. Throws {@link IllegalArgumentException}
   * naming the operation otherwise.
   */
  static void check(ByteBuffer in, int pos, int bytes, int ops, int pageSize) {
    int p = pos;
    int end = pos + bytes;
    for (int i = 0; i < ops; i++) {
      if (p >= end) {
        throw new IllegalArgumentException("operation " + i + " past the body of " + bytes);
      }
      byte kind = in.get(p);
      int need = kind == PUT ? PUT_HEADER : kind == MOVE ? MOVE_SIZE : ZERO_SIZE;
      if (kind != PUT && kind != MOVE && kind != ZERO) {
        throw new IllegalArgumentException("operation " + i + " of kind " + kind);
      }
      if (p + need > end) {
        throw new IllegalArgumentException("operation " + i + " past the body of " + bytes);
      }
      int a = in.getShort(p + 1) & 0xFFFF;
      int b = in.getShort(p + 3) & 0xFFFF;
      int len = kind == MOVE ? in.getShort(p + 5) & 0xFFFF : b;
      boolean inPage =
          kind == MOVE
              ? a + len <= pageSize && b + len <= pageSize && b >= Page.HEADER_SIZE
              : a + len <= pageSize && (kind != PUT || p + PUT_HEADER + len <= end);
      if (!inPage) {
        throw new IllegalArgumentException(
            "operation " + i + " (kind " + kind + ") outside the page or the body");
      }
      p += kind == PUT ? PUT_HEADER + len : need;
    }
    if (p != end) {
      throw new IllegalArgumentException(
          (p - pos) + " bytes of " + ops + " operations in a body of " + bytes);
    }
  }

  /**
   * Applies the checked operations ({@link #check}) that write the page header to {@code header}, a
   * copy of the page's first {@link Page#HEADER_SIZE} bytes: what the header will be, known before
   * the page is touched (a MOVE never writes the header, {@link #check} refuses one that would).
   */
  static void applyToHeader(ByteBuffer in, int pos, int ops, byte[] header) {
    int hs = Page.HEADER_SIZE;
    int p = pos;
    for (int i = 0; i < ops; i++) {
      byte kind = in.get(p);
      int a = in.getShort(p + 1) & 0xFFFF;
      int b = in.getShort(p + 3) & 0xFFFF;
      if (kind == PUT) {
        if (a < hs) {
          in.get(p + PUT_HEADER, header, a, Math.min(b, hs - a));
        }
        p += PUT_HEADER + b;
      } else if (kind == MOVE) {
        p += MOVE_SIZE;
      } else {
        if (a < hs) {
          Arrays.fill(header, a, Math.min(a + b, hs), (byte) 0);
        }
        p += ZERO_SIZE;
      }
    }
  }

  /** Applies checked operations ({@link #check}) to {@code page}, in order. */
  static void apply(ByteBuffer in, int pos, int ops, Page page) {
    int p = pos;
    for (int i = 0; i < ops; i++) {
      byte kind = in.get(p);
      int a = in.getShort(p + 1) & 0xFFFF;
      int b = in.getShort(p + 3) & 0xFFFF;
      if (kind == PUT) {
        page.putBytes(a, in, p + PUT_HEADER, b);
        p += PUT_HEADER + b;
      } else if (kind == MOVE) {
        page.move(a, b, in.getShort(p + 5) & 0xFFFF);
        p += MOVE_SIZE;
      } else {
        page.zero(a, b);
        p += ZERO_SIZE;
      }
    }
  }
}
