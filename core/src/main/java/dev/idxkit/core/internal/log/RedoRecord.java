package dev.idxkit.core.internal.log;

import dev.idxkit.core.spi.Page;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The redo record of one page changed by one committed transaction: the byte ranges that changed
 * since the page's previous committed image. A commit logs one record per page it changed, so a
 * transaction that inserts one row into a leaf logs a few hundred bytes, not the leaf's 8 KiB.
 *
 * <p>What a record is a change of (log format 4):
 *
 * <ul>
 *   <li>DELTA: of the page's previous committed image, identified by its lsn. That image is the one
 *       an earlier record of this log left, or, for the page's first change since the checkpoint,
 *       its home copy in the area file (written and fsynced by that checkpoint).
 *   <li>FRESH: of a zeroed page, for a page the transaction formatted (a new page, or one taken
 *       from the free list): its home copy is garbage or does not exist yet, and is never read.
 *   <li>OPS: of the previous committed image, like a DELTA, but as the operations the transaction
 *       did ({@link PageOps}: move these bytes, put these), not the bytes that differ. A leaf
 *       insert shifts every slot after the insertion point; as a difference that is half the slot
 *       array, as operations one MOVE. Used whenever the operations fit in a quarter of the page.
 *   <li>FULL: the whole image, when a delta would not be smaller.
 * </ul>
 *
 * <p>Torn home writes: a checkpoint writes pages home 4 KiB at a time, and a crash between two can
 * leave a page half new, half old, on which no delta may be applied. Format 3 protected against
 * that the way PostgreSQL's {@code full_page_writes} does, logging a page's full image at its first
 * change after a checkpoint: 8 KiB of log inside the commit that first touches each page. Format 4
 * moves that image to the checkpoint, as InnoDB's doublewrite buffer does: before any page is
 * written home, the checkpoint writes every page it is about to write to a {@link DoubleWrite} file
 * and fsyncs it. A crash during the home writes leaves that file complete, and recovery installs
 * its images (the state as of the checkpoint) instead of reading any home copy the checkpoint may
 * have torn; a crash before it is complete leaves every home copy untouched. So the home copy a
 * DELTA is applied to at recovery is always whole, and its checksum is checked when it is read.
 *
 * <p>Checksums: the images a record changes are stamped with their transaction's lsn but their page
 * checksum is not computed; the log frame's own CRC32C protects the record, and the page checksum
 * is computed once, when the checkpoint writes the page out. Format 2 sealed every image at every
 * commit; its records are still read (their checksums checked), never written. Format 3 (a FULL
 * image at each page's first change since the checkpoint) is read too: its records are the same.
 *
 * <p>Layout (little-endian). Log formats 2 and 3 give every record a FIXED 24-byte header:
 *
 * <pre>
 *  0      1      2         4              8                16               24
 *  +------+------+---------+--------------+----------------+----------------+---- ...
 *  | kind | area | ranges  | body bytes   | page number    | base lsn       | body
 *  +------+------+---------+--------------+----------------+----------------+---- ...
 *  kind        1 FULL, 2 DELTA, 3 FRESH, 4 OPS
 *  ranges      DELTA, FRESH: how many ranges follow (u16); OPS: how many operations; FULL: 0
 *  body bytes  bytes after the header (u32)
 *  base lsn    DELTA, OPS: the lsn of the image the record applies to; FULL, FRESH: 0
 * </pre>
 *
 * {@link #FORMAT_VERSION Format 4} gives it a COMPACT one, unsigned LEB128 varints where a field is
 * not implied by the kind, since a page change of a few dozen bytes is the common record:
 *
 * <pre>
 *  u8 kind | u8 area | varint page number
 *    | varint lsn - base lsn (DELTA, OPS) | varint ranges or operations | varint body bytes (not FULL)
 *
 *  an OPS record of leaf 21,805, base 3 transactions back, 5 operations in 53 bytes:
 *    04 01 | ad aa 01 | 03 | 05 | 35 | 53 bytes of operations        8 + 53 = 61 bytes
 * </pre>
 *
 * The body, either way:
 *
 * <pre>
 *  FULL:   the page image (lsn stamped; checksum only in format 2), pageSize bytes
 *  OPS:    the operations in the order they were done, {@link PageOps}; in format 4 they need
 *          not stamp the lsn (replay does)
 *  DELTA, FRESH: ranges x
 *              +-------------+-------------+---------------------+
 *              | offset / 8  | length / 8  | length new bytes    |
 *              | u16         | u16         |                     |
 *              +-------------+-------------+---------------------+
 * </pre>
 *
 * Ranges come from {@link PageDiff}: word-aligned, ascending, disjoint. They always include the
 * page header's lsn word, so a record applied in full leaves the page stamped with the
 * transaction's lsn, which {@link RedoReplay#apply} checks (and, for a format 2 record, the page's
 * checksum).
 *
 * <p>Replay ({@link RedoReplay}) is idempotent by page lsn.
 *
 * <p>Memory: the caller passes a scratch array of at least the page size; nothing is allocated per
 * record.
 */
public final class RedoRecord {
  /**
   * The log format that carries redo records against home copies and fresh pages; format 3 logged a
   * full image at each page's first change since the checkpoint, format 2 sealed every image,
   * format 1 a page image per change.
   */
  public static final int FORMAT_VERSION = 4;

  /** Redo records that start each page with a full image (no FRESH). Read, never written. */
  public static final int FORMAT_VERSION_FULL_FIRST = 3;

  /** Redo records of sealed images (checksum computed at every commit). Read, never written. */
  public static final int FORMAT_VERSION_SEALED = 2;

  public static final int HEADER_SIZE = 24;
  public static final byte KIND_FULL = 1;
  public static final byte KIND_DELTA = 2;
  public static final byte KIND_FRESH = 3;
  public static final byte KIND_OPS = 4;
  static final int RANGE_HEADER = 4;

  private static final int OFF_KIND = 0;
  private static final int OFF_AREA = 1;
  private static final int OFF_RANGES = 2;
  private static final int OFF_BODY = 4;
  private static final int OFF_PAGE_NO = 8;
  private static final int OFF_BASE_LSN = 16;

  /**
   * How a record's header is laid out: {@link #FIXED} 24 bytes (log formats 2 and 3), {@link
   * #COMPACT} varints (format 4, see the class comment), whose base LSN is stored as the difference
   * to the transaction's.
   */
  public enum Layout {
    FIXED,
    COMPACT
  }

  /** A record's header, read and checked by {@link #readHeader}. */
  public record Header(
      byte kind, int area, int ranges, int bodyBytes, long pageNo, long baseLsn, int headerBytes) {
    /** Bytes of the whole record. */
    public int size() {
      return headerBytes + bodyBytes;
    }

    public boolean full() {
      return kind == KIND_FULL;
    }

    public boolean fresh() {
      return kind == KIND_FRESH;
    }

    public boolean ops() {
      return kind == KIND_OPS;
    }
  }

  private RedoRecord() {}

  /** The largest record a page of {@code pageSize} bytes can need, in either layout. */
  public static int maxSize(int pageSize) {
    return HEADER_SIZE + pageSize;
  }

  /** Bytes of a header of this layout for these fields. */
  static int headerBytes(
      Layout layout, byte kind, long pageNo, long baseDelta, int count, int body) {
    if (layout == Layout.FIXED) {
      return HEADER_SIZE;
    }
    int n = 2 + varintBytes(pageNo);
    if (kind == KIND_DELTA || kind == KIND_OPS) {
      n += varintBytes(baseDelta);
    }
    if (kind != KIND_FULL) {
      n += varintBytes(count) + varintBytes(body);
    }
    return n;
  }

  public static int varintBytes(long v) {
    int n = 1;
    while ((v >>>= 7) != 0) {
      n++;
    }
    return n;
  }

  private static int putVarint(ByteBuffer out, int at, long v) {
    while ((v & ~0x7FL) != 0) {
      out.put(at++, (byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.put(at++, (byte) v);
    return at;
  }

  /**
   * Writes a FULL record of {@code image} (stamped with its lsn) at {@code out}'s position and
   * advances it; returns the record's size.
   */
  public static int writeFull(Page image, ByteBuffer out, byte[] scratch) {
    return writeFull(image, out, scratch, Layout.FIXED);
  }

  /** As {@link #writeFull(Page, ByteBuffer, byte[])}, with a header of {@code layout}. */
  public static int writeFull(Page image, ByteBuffer out, byte[] scratch, Layout layout) {
    int size = image.size();
    int pos = out.position();
    int hb = header(out, layout, KIND_FULL, image.areaId(), 0, size, image.pageNo(), 0, 0);
    image.getBytes(0, scratch, 0, size);
    out.put(pos + hb, scratch, 0, size);
    out.position(pos + hb + size);
    return hb + size;
  }

  /**
   * Writes the change from {@code before} (the page's previous committed image) to {@code after}
   * (its new image, stamped with a newer lsn) at {@code out}'s position and advances it: a DELTA of
   * the ranges {@code diff} finds, or a FULL record when the delta would not be smaller. Returns
   * the record's size.
   */
  public static int write(Page before, Page after, PageDiff diff, ByteBuffer out, byte[] scratch) {
    return write(before, after, diff, out, scratch, Layout.FIXED);
  }

  /**
   * As {@link #write(Page, Page, PageDiff, ByteBuffer, byte[])}, with headers of {@code layout}.
   */
  public static int write(
      Page before, Page after, PageDiff diff, ByteBuffer out, byte[] scratch, Layout layout) {
    if (before.pageNo() != after.pageNo() || before.areaId() != after.areaId()) {
      throw new IllegalArgumentException(
          "pages : area "
              + before.areaId()
              + " page "
              + before.pageNo()
              + " and area "
              + after.areaId()
              + " page "
              + after.pageNo()
              + " (expected: two images of one page)");
    }
    if (after.lsn() <= before.lsn()) {
      throw new IllegalArgumentException(
          "lsn : " + after.lsn() + " (expected: above the previous image's " + before.lsn() + ")");
    }
    int n = diff.compute(before, after);
    int body = n * RANGE_HEADER + diff.changedBytes();
    if (body >= after.size()) {
      return writeFull(after, out, scratch, layout);
    }
    int pos = out.position();
    int hb =
        header(
            out,
            layout,
            KIND_DELTA,
            after.areaId(),
            n,
            body,
            after.pageNo(),
            before.lsn(),
            after.lsn());
    putRanges(after, diff, out, pos + hb, n, scratch);
    return hb + body;
  }

  // The n ranges diff found, each with its bytes from page, at p; leaves out positioned after them.
  private static void putRanges(
      Page page, PageDiff diff, ByteBuffer out, int p, int n, byte[] scratch) {
    for (int i = 0; i < n; i++) {
      int off = diff.offset(i);
      int len = diff.length(i);
      out.putShort(p, (short) (off >>> 3));
      out.putShort(p + 2, (short) (len >>> 3));
      page.getBytes(off, scratch, 0, len);
      out.put(p + RANGE_HEADER, scratch, 0, len);
      p += RANGE_HEADER + len;
    }
    out.position(p);
  }

  /**
   * Writes {@code page} (formatted by its transaction, stamped with its lsn) at {@code out}'s
   * position as a FRESH record with a header of {@code layout}, the ranges where it is not zero, or
   * a FULL record when those would not be smaller; advances it and returns the record's size.
   */
  public static int writeFresh(
      Page page, PageDiff diff, ByteBuffer out, byte[] scratch, Layout layout) {
    int n = diff.computeAgainstZero(page);
    int body = n * RANGE_HEADER + diff.changedBytes();
    if (body >= page.size()) {
      return writeFull(page, out, scratch, layout);
    }
    int pos = out.position();
    int hb = header(out, layout, KIND_FRESH, page.areaId(), n, body, page.pageNo(), 0, 0);
    putRanges(page, diff, out, pos + hb, n, scratch);
    return hb + body;
  }

  /**
   * Writes the operations {@code ops} recorded on {@code after} since it was copied from {@code
   * before} (its previous committed image) as an OPS record with a header of {@code layout} at
   * {@code out}'s position and advances it; returns the record's size. In the COMPACT layout the
   * operations need not stamp the lsn: replay stamps the record's.
   */
  public static int writeOps(Page before, Page after, PageOps ops, ByteBuffer out, Layout layout) {
    if (ops.overflowed() || ops.count() > 0xFFFF || ops.count() == 0) {
      throw new IllegalArgumentException(
          "ops : " + ops.count() + " operations (expected: 1..65535, else the page is diffed)");
    }
    if (after.lsn() <= before.lsn()) {
      throw new IllegalArgumentException(
          "lsn : " + after.lsn() + " (expected: above the previous image's " + before.lsn() + ")");
    }
    int body = ops.length();
    int pos = out.position();
    int hb =
        header(
            out,
            layout,
            KIND_OPS,
            after.areaId(),
            ops.count(),
            body,
            after.pageNo(),
            before.lsn(),
            after.lsn());
    out.put(pos + hb, ops.bytes(), 0, body);
    out.position(pos + hb + body);
    return hb + body;
  }

  /**
   * Reads and checks the header of the record at {@code pos} in {@code in} (whose byte order must
   * be little-endian) for pages of {@code pageSize}; the record must lie within {@code in}'s limit.
   * Throws {@link IllegalArgumentException} naming the field when it is not a well-formed record.
   */
  public static Header readHeader(ByteBuffer in, int pos, int pageSize) {
    return readHeader(in, pos, pageSize, Layout.FIXED, 0);
  }

  /**
   * As {@link #readHeader(ByteBuffer, int, int)} for a header of {@code layout}; a COMPACT header's
   * base LSN is read as its difference to {@code lsn}, the record's transaction.
   */
  public static Header readHeader(ByteBuffer in, int pos, int pageSize, Layout layout, long lsn) {
    checkOrder(in);
    int min = layout == Layout.FIXED ? HEADER_SIZE : 3;
    if (pos < 0 || in.limit() - pos < min) {
      throw new IllegalArgumentException(
          "redo record at " + pos + " : " + (in.limit() - pos) + " bytes (expected: a header)");
    }
    byte kind;
    int area;
    int ranges;
    long body;
    long pageNo;
    long base;
    int hb;
    if (layout == Layout.FIXED) {
      kind = in.get(pos + OFF_KIND);
      area = in.get(pos + OFF_AREA) & 0xFF;
      ranges = in.getShort(pos + OFF_RANGES) & 0xFFFF;
      body = in.getInt(pos + OFF_BODY) & 0xFFFF_FFFFL;
      pageNo = in.getLong(pos + OFF_PAGE_NO);
      base = in.getLong(pos + OFF_BASE_LSN);
      hb = HEADER_SIZE;
    } else {
      kind = in.get(pos);
      area = in.get(pos + 1) & 0xFF;
      long[] v = new long[1];
      int p = getVarint(in, pos + 2, v, pos);
      pageNo = v[0];
      base = 0;
      if (kind == KIND_DELTA || kind == KIND_OPS) {
        p = getVarint(in, p, v, pos);
        if (v[0] < 1 || v[0] > lsn) {
          throw bad(pos, "base lsn " + (lsn - v[0]) + " for transaction " + lsn, "below it");
        }
        base = lsn - v[0];
      }
      if (kind == KIND_FULL) {
        ranges = 0;
        body = pageSize;
      } else {
        p = getVarint(in, p, v, pos);
        ranges = (int) Math.min(v[0], Integer.MAX_VALUE);
        p = getVarint(in, p, v, pos);
        body = v[0];
      }
      hb = p - pos;
    }
    if (kind == KIND_FULL) {
      if (ranges != 0 || body != pageSize || base != 0) {
        throw bad(
            pos,
            "FULL record with " + ranges + " ranges, " + body + " bytes, base " + base,
            "0 ranges, " + pageSize + " bytes, base 0");
      }
    } else if (kind == KIND_OPS) {
      if (ranges == 0 || body < ranges * 5L || body >= pageSize) {
        throw bad(
            pos,
            "OPS record with " + ranges + " operations in " + body + " bytes",
            "at least one operation of at least 5 bytes, under " + pageSize + " bytes");
      }
    } else if (kind == KIND_DELTA || kind == KIND_FRESH) {
      String name = kind == KIND_DELTA ? "DELTA" : "FRESH";
      if (ranges == 0 || body < (long) ranges * (RANGE_HEADER + 8) || body >= pageSize) {
        throw bad(
            pos,
            name + " record with " + ranges + " ranges in " + body + " bytes",
            "1.." + pageSize / 16 + " ranges of at least 12 bytes, under " + pageSize + " bytes");
      }
      if (kind == KIND_FRESH && base != 0) {
        throw bad(pos, "FRESH record with base " + base, "base 0");
      }
    } else {
      throw bad(
          pos,
          "kind " + kind,
          KIND_FULL
              + " (FULL), "
              + KIND_DELTA
              + " (DELTA), "
              + KIND_FRESH
              + " (FRESH) or "
              + KIND_OPS
              + " (OPS)");
    }
    if (pageNo < 0) {
      throw bad(pos, "page number " + pageNo, ">= 0");
    }
    if (in.limit() - pos - hb < body) {
      throw bad(pos, (in.limit() - pos - hb) + " body bytes", body + "");
    }
    return new Header(kind, area, ranges, (int) body, pageNo, base, hb);
  }

  // A varint at p into v[0]; returns the position after it. Throws naming the record at rec.
  private static int getVarint(ByteBuffer in, int p, long[] v, int rec) {
    long x = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      if (p >= in.limit()) {
        throw bad(rec, "a header cut at " + p, "a whole header");
      }
      byte b = in.get(p++);
      x |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        v[0] = x;
        return p;
      }
    }
    throw bad(rec, "a varint of more than 9 bytes", "at most 9");
  }

  private static int reserve(ByteBuffer out, int bytes) {
    checkOrder(out);
    if (out.remaining() < bytes) {
      throw new IllegalArgumentException(
          "out : " + out.remaining() + " bytes free (expected: >= " + bytes + ")");
    }
    return out.position();
  }

  /**
   * Writes the header of a record at {@code out}'s position (making sure header and body fit) and
   * returns its size; the body goes right after it. {@code lsn} is the record's transaction (for a
   * COMPACT header's base LSN difference).
   */
  private static int header(
      ByteBuffer out,
      Layout layout,
      byte kind,
      int area,
      int ranges,
      int body,
      long pageNo,
      long base,
      long lsn) {
    long delta = kind == KIND_DELTA || kind == KIND_OPS ? lsn - base : 0;
    int hb = headerBytes(layout, kind, pageNo, delta, ranges, body);
    int pos = reserve(out, hb + body);
    if (layout == Layout.FIXED) {
      out.put(pos + OFF_KIND, kind);
      out.put(pos + OFF_AREA, (byte) area);
      out.putShort(pos + OFF_RANGES, (short) ranges);
      out.putInt(pos + OFF_BODY, body);
      out.putLong(pos + OFF_PAGE_NO, pageNo);
      out.putLong(pos + OFF_BASE_LSN, base);
      return hb;
    }
    out.put(pos, kind);
    out.put(pos + 1, (byte) area);
    int p = putVarint(out, pos + 2, pageNo);
    if (kind == KIND_DELTA || kind == KIND_OPS) {
      p = putVarint(out, p, delta);
    }
    if (kind != KIND_FULL) {
      p = putVarint(out, p, ranges);
      p = putVarint(out, p, body);
    }
    return hb;
  }

  private static void checkOrder(ByteBuffer b) {
    if (b.order() != ByteOrder.LITTLE_ENDIAN) {
      throw new IllegalArgumentException("buffer order : BIG_ENDIAN (expected: LITTLE_ENDIAN)");
    }
  }

  static IllegalArgumentException bad(int pos, String actual, String expected) {
    return new IllegalArgumentException(
        "redo record at " + pos + " : " + actual + " (expected: " + expected + ")");
  }
}
