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
 * <p>A log file is a header, then transactions. A transaction is a PAGE frame per page it changed,
 * then one COMMIT frame carrying its meta edits ({@code MetaEdits}); all frames of a transaction
 * carry its LSN. Every frame carries the salt of its log, written in the header by the last reset:
 * frames left over from an older log (a reset truncates, but a crash can leave stale bytes, and a
 * damaged header is read with the salt the meta recorded) are recognised by their salt.
 *
 * <pre>
 * header (32 bytes, little-endian):
 *    0 u64 MAGIC "IDXKWAL1"   8 u32 FORMAT_VERSION   12 u32 pageSize   16 u64 salt (never 0)
 *   24 u32 reserved          28 u32 crc32c of [0, 28)
 *
 * frame header (32 bytes, little-endian):
 *    0 u32 crc32c of [4, 32 + payload)
 *    4 u8  kind (1 PAGE, 2 COMMIT)   5 u8 area (PAGE; 0 for COMMIT)   6 u16 0
 *    8 u64 lsn                      16 u64 salt
 *   24 PAGE:   u64 page number
 *      COMMIT: u32 editBytes, u32 pageFrames (how many PAGE frames precede it in its transaction)
 * payload: PAGE: the page image, pageSize bytes, sealed (its own CRC32C and LSN) before it is
 *          logged; COMMIT: editBytes bytes of meta edits
 *
 * one transaction of two pages, 8 KiB pages:
 *   [PAGE hdr | 8192 image][PAGE hdr | 8192 image][COMMIT hdr | edits]  = 3 * 32 + 16384 + edits
 * </pre>
 */
public final class WalFormat {
  public static final long MAGIC = 0x314C41574B584449L; // "IDXKWAL1" little-endian
  public static final int FORMAT_VERSION = 1;
  public static final int HEADER_SIZE = 32;
  public static final int FRAME_HEADER = 32;
  public static final byte KIND_PAGE = 1;
  public static final byte KIND_COMMIT = 2;

  private WalFormat() {}

  /** A fresh random salt, never 0 (0 means "not recorded" in the meta). */
  public static long newSalt() {
    return ThreadLocalRandom.current().nextLong() | 1;
  }

  /** The log header for {@code salt}, ready to write at offset 0. */
  static ByteBuffer header(int pageSize, long salt) {
    ByteBuffer h = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    h.putLong(0, MAGIC);
    h.putInt(8, FORMAT_VERSION);
    h.putInt(12, pageSize);
    h.putLong(16, salt);
    h.putInt(28, crc(h, 0, 28));
    return h;
  }

  /** The salt of a header read into {@code h}, or 0 if it is not a valid header for this log. */
  static long headerSalt(ByteBuffer h, int pageSize) {
    boolean valid =
        h.getLong(0) == MAGIC && h.getInt(28) == crc(h, 0, 28) && h.getInt(12) == pageSize;
    return valid ? h.getLong(16) : 0;
  }

  /** Bytes one transaction of {@code pages} page frames and {@code editBytes} of edits takes. */
  static long transactionBytes(int pages, int pageSize, int editBytes) {
    return (long) pages * (FRAME_HEADER + pageSize) + FRAME_HEADER + editBytes;
  }

  /**
   * Writes a PAGE frame for {@code p} at {@code b}'s position ({@code dst} wraps the same memory as
   * {@code b}) and moves the position past it.
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
