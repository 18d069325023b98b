package dev.idxkit.core.internal.log;

import dev.idxkit.core.spi.Page;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32C;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The byte layout of the write-ahead log, in one place: {@link Wal} writes with it, {@link
 * WalReader} reads with it, and a change of the log format (issue 18: redo records instead of page
 * images) starts here.
 *
 * <p>A log file is a header, then transactions. In format 5 (and 4, the same without the meta edits
 * of change buffers) a transaction is one TXN frame: its meta edits ({@code MetaEdits}) and a
 * {@link RedoRecord} of COMPACT layout per page it changed (its operations, or the changed byte
 * ranges, against the page's previous image, its home copy for the first change since the
 * checkpoint, or against zeros for a page it formatted), under one checksum: a transaction is in
 * the log whole or not at all. Formats 1 to 3 wrote a frame per page and a COMMIT frame after them:
 * a REDO frame with a FIXED-layout record (format 3: the page's full image at its first change
 * since the checkpoint; format 2 the same with every image checksummed), or a PAGE frame with the
 * whole image (format 1). A log left by an older version is still read (replayed) and the recovery
 * checkpoint that follows starts a format 4 log; a header of any other version is refused, naming
 * both. Every frame carries the salt of its log, written in the header by the last reset: frames
 * left over from an older log (a reset truncates, but a crash can leave stale bytes, and a damaged
 * header is read with the salt the meta recorded) are recognised by their salt.
 *
 * <pre>
 * header (32 bytes, little-endian):
 *    0 u64 MAGIC "IDXKWAL1"   8 u32 format version (5; 4, 3, 2, 1 read)   12 u32 pageSize
 *   16 u64 salt (never 0)
 *   24 u32 reserved          28 u32 crc32c of [0, 28)
 *
 * frame header (32 bytes, little-endian):
 *    0 u32 crc32c of [4, 32 + payload)
 *    4 u8  kind (4 TXN; 3 REDO, 2 COMMIT, 1 PAGE in older formats)
 *    5 u8  area (REDO, PAGE; else 0)   6 u16 0
 *    8 u64 lsn                      16 u64 salt
 *   24 TXN:    u32 payload bytes, u32 records
 *      REDO:   u32 recordBytes, u32 0
 *      COMMIT: u32 editBytes, u32 pageFrames (how many REDO/PAGE frames precede it in its txn)
 *      PAGE:   u64 page number (format 1)
 * payload: TXN: u32 editBytes | edits | records, each a COMPACT {@link RedoRecord};
 *          REDO: one FIXED {@link RedoRecord}, recordBytes bytes;
 *          COMMIT: editBytes bytes of meta edits;
 *          PAGE: the page image, pageSize bytes, sealed (format 1)
 *
 * one transaction that inserts a row into a table with one index, 8 KiB pages: an OPS record for
 * the heap page (the record, its slot, two header fields) and one for the leaf (a move of the slots
 * after the entry, the slot, the entry, two header fields):
 *   [TXN hdr 32 | editBytes 4 | edits ~10 | 8 + ~150 | 8 + ~60]   about 270 bytes
 * </pre>
 */
public final class WalFormat {
  public static final long MAGIC = 0x314C41574B584449L; // "IDXKWAL1" little-endian
  public static final int FORMAT_VERSION = 5;

  /**
   * TXN frames as in format 5, without change-buffer edits in their meta edits ({@code MetaEdits}):
   * read as format 5, never written. The redo records are the same ({@link
   * RedoRecord#FORMAT_VERSION}).
   */
  public static final int FORMAT_VERSION_NO_BUFFERS = RedoRecord.FORMAT_VERSION;

  /** Redo records starting each page with its full image ({@link RedoRecord}). Read only. */
  public static final int FORMAT_VERSION_FULL_FIRST = RedoRecord.FORMAT_VERSION_FULL_FIRST;

  /** Redo records of sealed images ({@link RedoRecord}). Read, never written. */
  public static final int FORMAT_VERSION_SEALED = RedoRecord.FORMAT_VERSION_SEALED;

  /** The format before redo records: page images only. Read, never written. */
  public static final int FORMAT_VERSION_IMAGES = 1;

  public static final int HEADER_SIZE = 32;
  public static final int FRAME_HEADER = 32;
  public static final byte KIND_PAGE = 1;
  public static final byte KIND_COMMIT = 2;
  public static final byte KIND_REDO = 3;
  public static final byte KIND_TXN = 4;

  private WalFormat() {}

  /** A fresh random salt, never 0 (0 means "not recorded" in the meta). */
  public static long newSalt() {
    return ThreadLocalRandom.current().nextLong() | 1;
  }

  /** The log header for {@code salt}, ready to write at offset 0. */
  static ByteBuffer header(int pageSize, long salt) {
    return header(pageSize, salt, FORMAT_VERSION);
  }

  /** A log header of format {@code version} (tests write format 1 logs with it). */
  static ByteBuffer header(int pageSize, long salt, int version) {
    ByteBuffer h = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    h.putLong(0, MAGIC);
    h.putInt(8, version);
    h.putInt(12, pageSize);
    h.putLong(16, salt);
    h.putInt(28, crc(h, 0, 28));
    return h;
  }

  /**
   * The salt of a header read into {@code h}, or 0 if it is not a valid header for this log.
   *
   * @throws UnsupportedLogFormatException when the header is intact but of a format this version
   *     cannot read: never mistaken for a torn header, whose log would be treated as empty
   */
  static long headerSalt(ByteBuffer h, int pageSize, java.nio.file.Path path) {
    boolean valid =
        h.getLong(0) == MAGIC && h.getInt(28) == crc(h, 0, 28) && h.getInt(12) == pageSize;
    if (!valid) {
      return 0;
    }
    int version = h.getInt(8);
    if (version != FORMAT_VERSION
        && version != FORMAT_VERSION_NO_BUFFERS
        && version != FORMAT_VERSION_FULL_FIRST
        && version != FORMAT_VERSION_SEALED
        && version != FORMAT_VERSION_IMAGES) {
      throw new UnsupportedLogFormatException(path, version);
    }
    return h.getLong(16);
  }

  /** The format version of a valid header read into {@code h}. */
  static int headerVersion(ByteBuffer h) {
    return h.getInt(8);
  }

  /**
   * At most how many bytes one transaction of {@code pages} REDO frames and {@code editBytes} of
   * edits takes (every record a full image).
   */
  static long transactionBytes(int pages, int pageSize, int editBytes) {
    return (long) pages * (FRAME_HEADER + RedoRecord.maxSize(pageSize))
        + FRAME_HEADER
        + 4
        + editBytes;
  }

  /**
   * Writes a REDO frame for {@code p} (stamped with {@code lsn}) at {@code b}'s position and moves
   * past it: a DELTA against {@code base}, the page's previous committed image (or its home copy),
   * or its full image when {@code base} is null (what format 3 logged for a page's first change
   * since a checkpoint; tests write older logs with it). Returns the record's size.
   */
  static int putRedoFrame(
      ByteBuffer b, long lsn, long salt, Page p, Page base, PageDiff diff, byte[] scratch) {
    int start = b.position();
    b.position(start + FRAME_HEADER);
    int n =
        base == null
            ? RedoRecord.writeFull(p, b, scratch)
            : RedoRecord.write(base, p, diff, b, scratch);
    finishRedoFrame(b, start, lsn, salt, p, n);
    return n;
  }

  /**
   * Starts a format 4 TXN frame at {@code b}'s position: skips its header, writes the edits, and
   * leaves {@code b} where the first record goes. Returns the frame's start, for {@link
   * #finishTxnFrame}.
   */
  static int startTxnFrame(ByteBuffer b, byte[] edits) {
    int start = b.position();
    b.putInt(start + FRAME_HEADER, edits.length);
    b.position(start + FRAME_HEADER + 4);
    b.put(edits);
    return start;
  }

  /**
   * Ends the TXN frame started at {@code start}, whose {@code records} records end at {@code b}'s
   * position: its header and its one checksum, over the whole transaction.
   */
  static void finishTxnFrame(ByteBuffer b, int start, long lsn, long salt, int records) {
    int payload = b.position() - start - FRAME_HEADER;
    b.put(start + 4, KIND_TXN);
    b.put(start + 5, (byte) 0);
    b.putShort(start + 6, (short) 0);
    b.putLong(start + 8, lsn);
    b.putLong(start + 16, salt);
    b.putInt(start + 24, payload);
    b.putInt(start + 28, records);
    b.putInt(start, crc(b, start + 4, FRAME_HEADER - 4 + payload));
  }

  static int txnPayloadBytes(ByteBuffer frame) {
    return frame.getInt(24);
  }

  static int txnRecords(ByteBuffer frame) {
    return frame.getInt(28);
  }

  private static void finishRedoFrame(ByteBuffer b, int start, long lsn, long salt, Page p, int n) {
    b.put(start + 4, KIND_REDO);
    b.put(start + 5, (byte) p.areaId());
    b.putShort(start + 6, (short) 0);
    b.putLong(start + 8, lsn);
    b.putLong(start + 16, salt);
    b.putInt(start + 24, n);
    b.putInt(start + 28, 0);
    b.putInt(start, crc(b, start + 4, FRAME_HEADER - 4 + n));
    b.position(start + FRAME_HEADER + n);
  }

  static int recordBytes(ByteBuffer frame) {
    return frame.getInt(24);
  }

  /**
   * Writes a format 1 PAGE frame (tests make old logs with it) for {@code p} at {@code b}'s
   * position ({@code dst} wraps the same memory as {@code b}) and moves the position past it.
   */
  static void putPageFrame(ByteBuffer b, BytesStore<?, ?> dst, long lsn, long salt, Page p) {
    int pageSize = p.size();
    int start = b.position();
    b.put(start + 4, KIND_PAGE);
    b.put(start + 5, (byte) p.areaId());
    b.putShort(start + 6, (short) 0);
    b.putLong(start + 8, lsn);
    b.putLong(start + 16, salt);
    b.putLong(start + 24, p.pageNo());
    dst.write(start + FRAME_HEADER, p.store(), p.base(), pageSize);
    b.putInt(start, crc(b, start + 4, FRAME_HEADER - 4 + pageSize));
    b.position(start + FRAME_HEADER + pageSize);
  }

  /** Writes the COMMIT frame that ends a transaction at {@code b}'s position and moves past it. */
  static void putCommitFrame(ByteBuffer b, long lsn, long salt, byte[] edits, int pageFrames) {
    int start = b.position();
    b.put(start + 4, KIND_COMMIT);
    b.put(start + 5, (byte) 0);
    b.putShort(start + 6, (short) 0);
    b.putLong(start + 8, lsn);
    b.putLong(start + 16, salt);
    b.putInt(start + 24, edits.length);
    b.putInt(start + 28, pageFrames);
    b.position(start + FRAME_HEADER);
    b.put(edits);
    b.putInt(start, crc(b, start + 4, FRAME_HEADER - 4 + edits.length));
  }

  // Reading a frame header held at offset 0 of a buffer.

  static byte kind(ByteBuffer frame) {
    return frame.get(4);
  }

  static int area(ByteBuffer frame) {
    return frame.get(5) & 0xFF;
  }

  static long lsn(ByteBuffer frame) {
    return frame.getLong(8);
  }

  static long salt(ByteBuffer frame) {
    return frame.getLong(16);
  }

  static long pageNo(ByteBuffer frame) {
    return frame.getLong(24);
  }

  static int editBytes(ByteBuffer frame) {
    return frame.getInt(24);
  }

  static int pageFrames(ByteBuffer frame) {
    return frame.getInt(28);
  }

  /** Whether the frame of {@code payload} bytes held at offset 0 matches its stored checksum. */
  static boolean checksumValid(ByteBuffer frame, int payload) {
    return crc(frame, 4, FRAME_HEADER - 4 + payload) == frame.getInt(0);
  }

  static int crc(ByteBuffer b, int off, int len) {
    CRC32C c = new CRC32C();
    ByteBuffer d = b.duplicate();
    d.limit(off + len).position(off);
    c.update(d);
    return (int) c.getValue();
  }
}
