package dev.idxkit.core.internal.log;

import dev.idxkit.core.internal.log.RedoRecord.Header;
import dev.idxkit.core.internal.log.RedoRecord.Layout;
import dev.idxkit.core.spi.Page;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Replays a {@link RedoRecord} on an image of the page it names, at recovery and when a page's
 * newest image is rebuilt from its records.
 *
 * <p>Idempotent by page lsn: a DELTA or OPS record applies to a page holding exactly its base lsn,
 * is skipped by a page that already holds its lsn or a newer one, and is refused otherwise (a
 * missing record in between: corruption, never silently applied). FULL and FRESH records always
 * apply: they do not depend on what the page held. Everything a record will write is checked before
 * the page is touched (its ranges or operations against the page and the record, and the page
 * header they leave), so a refused record leaves the page as it was.
 */
public final class RedoReplay {
  /** What {@link #apply} did. */
  public enum Outcome {
    APPLIED,
    /** The page already held this record's lsn or a newer one (a replay of a replay). */
    ALREADY_THERE
  }

  private RedoReplay() {}

  /**
   * Applies the record at {@code pos} in {@code in} (written by the transaction of {@code lsn}) to
   * {@code page}, an image of the page it names. A FULL record replaces whatever the page held, and
   * a FRESH record makes it its ranges over zeros. A DELTA record applies when the page holds its
   * base lsn, and is skipped ({@link Outcome#ALREADY_THERE}) when it holds {@code lsn} or newer;
   * any other page lsn, a range outside the page, or a result that is not an image of {@code lsn}
   * (with {@code sealed}, a format 2 record: with a valid checksum) throws {@link
   * IllegalArgumentException} and leaves the page as it was (ranges are checked before any byte is
   * written; the result is checked after).
   */
  public static Outcome apply(
      ByteBuffer in, int pos, Page page, long lsn, byte[] scratch, boolean sealed) {
    return apply(in, pos, page, lsn, scratch, sealed, Layout.FIXED);
  }

  /**
   * As {@link #apply(ByteBuffer, int, Page, long, byte[], boolean)} for a record of {@code layout};
   * a COMPACT OPS record leaves the page stamped with {@code lsn} whether its operations did or
   * not.
   */
  public static Outcome apply(
      ByteBuffer in, int pos, Page page, long lsn, byte[] scratch, boolean sealed, Layout layout) {
    int pageSize = page.size();
    Header h = RedoRecord.readHeader(in, pos, pageSize, layout, lsn);
    int body = pos + h.headerBytes();
    if (h.full()) {
      in.get(body, scratch, 0, pageSize);
      checkImage(scratch, pageSize, h, lsn, pos, sealed);
      page.putBytes(0, scratch, 0, pageSize);
      return Outcome.APPLIED;
    }
    if (!h.fresh()) {
      Outcome early = checkBase(h, page, lsn, pos);
      if (early != null) {
        return early;
      }
    }
    if (h.ops()) {
      try {
        PageOps.check(in, body, h.bodyBytes(), h.ranges(), pageSize);
      } catch (IllegalArgumentException e) {
        throw RedoRecord.bad(pos, e.getMessage(), "operations within the page and the record");
      }
      // The header the operations leave, checked before the page is touched.
      page.getBytes(0, scratch, 0, Page.HEADER_SIZE);
      PageOps.applyToHeader(in, body, h.ranges(), scratch);
      if (layout == Layout.COMPACT) {
        putLittleEndianLong(scratch, 16, lsn); // stamped by replay, not by an operation
      }
      checkImage(scratch, Page.HEADER_SIZE, h, lsn, pos, false);
      PageOps.apply(in, body, h.ranges(), page);
      if (layout == Layout.COMPACT) {
        page.setLsn(lsn);
      }
      return Outcome.APPLIED;
    }
    checkRanges(in, body, h, pageSize, pos);
    if (h.fresh()) {
      // Built in the scratch copy from zeros, so that a refused result leaves the page untouched.
      Arrays.fill(scratch, 0, pageSize, (byte) 0);
      putRanges(in, body, h, scratch);
      checkImage(scratch, pageSize, h, lsn, pos, false);
      page.putBytes(0, scratch, 0, pageSize);
      return Outcome.APPLIED;
    }
    if (!sealed) {
      return applyInPlace(in, body, h, page, lsn, pos, scratch);
    }
    page.getBytes(0, scratch, 0, pageSize);
    putRanges(in, body, h, scratch);
    // Applied to the scratch copy first, so that a refused result leaves the page untouched.
    checkImage(scratch, pageSize, h, lsn, pos, sealed);
    page.putBytes(0, scratch, 0, pageSize);
    return Outcome.APPLIED;
  }

  /**
   * A DELTA applies to the page it names holding its base lsn: null when it does, {@link
   * Outcome#ALREADY_THERE} when the page holds {@code lsn} or newer; throws otherwise.
   */
  private static Outcome checkBase(Header h, Page page, long lsn, int pos) {
    if (page.pageNo() != h.pageNo() || page.areaId() != h.area()) {
      throw RedoRecord.bad(
          pos,
          "a delta of area " + h.area() + " page " + h.pageNo(),
          "one of area " + page.areaId() + " page " + page.pageNo());
    }
    long have = page.lsn();
    if (have >= lsn) {
      return Outcome.ALREADY_THERE;
    }
    if (have != h.baseLsn()) {
      throw new IllegalArgumentException(
          "redo record at "
              + pos
              + ": area "
              + h.area()
              + " page "
              + h.pageNo()
              + " holds lsn "
              + have
              + " (expected: "
              + h.baseLsn()
              + ", the image the delta of lsn "
              + lsn
              + " applies to)");
    }
    return null;
  }

  // Every range lies within the page and the record, before any byte is written.
  private static void checkRanges(ByteBuffer in, int body, Header h, int pageSize, int pos) {
    int p = body;
    for (int i = 0; i < h.ranges(); i++) {
      if (p + RedoRecord.RANGE_HEADER > body + h.bodyBytes()) {
        throw RedoRecord.bad(
            pos, "range " + i + " past the body", "within " + h.bodyBytes() + " bytes");
      }
      int off = (in.getShort(p) & 0xFFFF) << 3;
      int len = (in.getShort(p + 2) & 0xFFFF) << 3;
      if (len == 0
          || off + len > pageSize
          || p + RedoRecord.RANGE_HEADER + len > body + h.bodyBytes()) {
        throw RedoRecord.bad(
            pos,
            "range " + i + " [" + off + ", " + (off + len) + ")",
            "a non-empty range within the page and the record");
      }
      p += RedoRecord.RANGE_HEADER + len;
    }
    if (p != body + h.bodyBytes()) {
      throw RedoRecord.bad(pos, (p - body) + " bytes of ranges", h.bodyBytes() + " body bytes");
    }
  }

  // The ranges of a checked record, written into img.
  private static void putRanges(ByteBuffer in, int body, Header h, byte[] img) {
    int p = body;
    for (int i = 0; i < h.ranges(); i++) {
      int off = (in.getShort(p) & 0xFFFF) << 3;
      int len = (in.getShort(p + 2) & 0xFFFF) << 3;
      in.get(p + RedoRecord.RANGE_HEADER, img, off, len);
      p += RedoRecord.RANGE_HEADER + len;
    }
  }

  /**
   * A delta of an unsealed image (formats 3 and 4: no checksum to check in the result): only the
   * page header decides whether the result is acceptable, so the ranges are applied to a copy of
   * the header first and, when it names the right page and lsn, straight to the page, instead of
   * copying the whole page out and back (a quarter of replay's CPU in a profile of a log of small
   * deltas).
   */
  private static Outcome applyInPlace(
      ByteBuffer in, int body, Header h, Page page, long lsn, int pos, byte[] scratch) {
    int hs = Page.HEADER_SIZE;
    page.getBytes(0, scratch, 0, hs);
    int p = body;
    for (int i = 0; i < h.ranges(); i++) {
      int off = (in.getShort(p) & 0xFFFF) << 3;
      int len = (in.getShort(p + 2) & 0xFFFF) << 3;
      if (off < hs) {
        in.get(p + RedoRecord.RANGE_HEADER, scratch, off, Math.min(len, hs - off));
      }
      p += RedoRecord.RANGE_HEADER + len;
    }
    checkImage(scratch, hs, h, lsn, pos, false);
    p = body;
    for (int i = 0; i < h.ranges(); i++) {
      int off = (in.getShort(p) & 0xFFFF) << 3;
      int len = (in.getShort(p + 2) & 0xFFFF) << 3;
      page.putBytes(off, in, p + RedoRecord.RANGE_HEADER, len);
      p += RedoRecord.RANGE_HEADER + len;
    }
    return Outcome.APPLIED;
  }

  /**
   * The image in {@code img} must be the page the header names, stamped with {@code lsn}; with
   * {@code sealed} (format 2), its checksum must be valid too.
   */
  private static void checkImage(
      byte[] img, int pageSize, Header h, long lsn, int pos, boolean sealed) {
    long pageNo = littleEndianLong(img, 8);
    int area = img[6] & 0xFF;
    long imgLsn = littleEndianLong(img, 16);
    if (pageNo != h.pageNo() || area != h.area() || imgLsn != lsn) {
      throw RedoRecord.bad(
          pos,
          "an image of area " + area + " page " + pageNo + " lsn " + imgLsn,
          "area " + h.area() + " page " + h.pageNo() + " lsn " + lsn);
    }
    if (!sealed) {
      return;
    }
    int stored = littleEndianInt(img, 0);
    CRC32C crc = new CRC32C();
    crc.update(img, 4, pageSize - 4);
    if ((int) crc.getValue() != stored) {
      throw RedoRecord.bad(
          pos,
          String.format("an image with checksum 0x%08x", stored),
          String.format("0x%08x, its bytes' checksum", (int) crc.getValue()));
    }
  }

  // The page header is little-endian (Page); read from the scratch copy the same way.
  private static int littleEndianInt(byte[] b, int off) {
    return (b[off] & 0xFF)
        | (b[off + 1] & 0xFF) << 8
        | (b[off + 2] & 0xFF) << 16
        | (b[off + 3] & 0xFF) << 24;
  }

  private static void putLittleEndianLong(byte[] b, int off, long v) {
    for (int i = 0; i < 8; i++) {
      b[off + i] = (byte) (v >>> (8 * i));
    }
  }

  private static long littleEndianLong(byte[] b, int off) {
    return (littleEndianInt(b, off) & 0xFFFF_FFFFL) | (long) littleEndianInt(b, off + 4) << 32;
  }
}
