package dev.idxkit.core.internal.wal;

import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.Page;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32C;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The write-ahead log: page images of committed transactions, appended at commit and copied home by
 * a checkpoint, after which the log is cut back to its header.
 *
 * <p>A transaction is appended as one write: a PAGE frame per dirty page, then a COMMIT frame with
 * the transaction's meta edits. Recovery ({@link WalReader}) replays a transaction only when its
 * COMMIT frame is intact, and stops at the first frame that fails its checksum or belongs to an
 * older log (its salt differs), which is how a torn tail is cut.
 *
 * <pre>
 * header (32 bytes): 0 u64 MAGIC "IDXKWAL1"  8 u32 version  12 u32 pageSize  16 u64 salt
 *                    24 u32 reserved  28 u32 crc32c of [0,28)
 * frame header (32 bytes):
 *   0 u32 crc32c of [4, 32+payload)   4 u8 kind (1 PAGE, 2 COMMIT)   5 u8 area   6 u16 0
 *   8 u64 lsn                        16 u64 salt
 *  24 PAGE: u64 page number           COMMIT: u32 editBytes, u32 pageFrames
 * payload: PAGE: the page image (pageSize bytes); COMMIT: the edit log
 * </pre>
 *
 * <p>Group commit: {@link #append} only writes (to the OS); {@link #sync(long)} makes the log
 * durable up to an offset. Committers that queue behind one fsync find their frames already covered
 * and return without another.
 */
public final class Wal implements AutoCloseable {
  public static final long MAGIC = 0x314C41574B584449L; // "IDXKWAL1" little-endian
  public static final int FORMAT_VERSION = 1;
  public static final int HEADER_SIZE = 32;
  public static final int FRAME_HEADER = 32;
  static final byte KIND_PAGE = 1;
  static final byte KIND_COMMIT = 2;

  private final Path path;
  private final FileChannel channel;
  private final int pageSize;
  private final Object syncLock = new Object();
  private long salt;
  private volatile long end;
  private long syncedTo;
  private ByteBuffer scratch;
  private BytesStore<?, ?> scratchStore;

  private Wal(Path path, FileChannel channel, int pageSize) {
    this.path = path;
    this.channel = channel;
    this.pageSize = pageSize;
  }

  /** Opens or creates the log file; the caller runs recovery, then {@link #reset} or resumes. */
  public static Wal open(Path path, int pageSize, boolean readOnly) {
    return open(path, pageSize, readOnly, FileIo.DEFAULT);
  }

  /** As {@link #open(Path, int, boolean)}, with the log's channel opened by {@code io}. */
  public static Wal open(Path path, int pageSize, boolean readOnly, FileIo io) {
    try {
      FileChannel ch =
          readOnly
              ? io.open(path, Set.of(StandardOpenOption.READ))
              : io.open(
                  path,
                  Set.of(
                      StandardOpenOption.READ,
                      StandardOpenOption.WRITE,
                      StandardOpenOption.CREATE));
      Wal w = new Wal(path, ch, pageSize);
      w.scratch(1 << 20);
      w.end = ch.size();
      w.syncedTo = w.end;
      return w;
    } catch (IOException e) {
      throw new IdxkitIOException("cannot open write-ahead log " + path, e);
    }
  }

  public Path path() {
    return path;
  }

  public int pageSize() {
    return pageSize;
  }

  FileChannel channel() {
    return channel;
  }

  long salt() {
    return salt;
  }

  /** Bytes in the log now, header included. */
  public long size() {
    return end;
  }

  /**
   * Starts an empty log with a fresh salt: writes the header, truncates, and forces it, so frames
   * of the old log can never be mistaken for new ones.
   */
  public void reset() {
    reset(newSalt());
  }

  /**
   * As {@link #reset()} with a salt chosen beforehand (the meta written just before records it).
   */
  public void reset(long salt) {
    if (salt == 0) {
      throw new IllegalArgumentException("salt 0 means 'not recorded'");
    }
    this.salt = salt;
    ByteBuffer h = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    h.putLong(0, MAGIC);
    h.putInt(8, FORMAT_VERSION);
    h.putInt(12, pageSize);
    h.putLong(16, salt);
    h.putInt(28, crc(h, 0, 28));
    try {
      channel.truncate(0);
      writeFully(h, 0);
      channel.force(false);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot reset write-ahead log " + path, e);
    }
    synchronized (syncLock) {
      end = HEADER_SIZE;
      syncedTo = HEADER_SIZE;
    }
  }

  /** A fresh random salt, never 0. */
  public static long newSalt() {
    return ThreadLocalRandom.current().nextLong() | 1;
  }

  /** The salt in the header on disk, or 0 if the header is missing or invalid. */
  public long headerSalt() {
    ByteBuffer h = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    try {
      if (!WalReader.readFully(channel, h, 0)) {
        return 0;
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read the header of " + path, e);
    }
    return headerSalt(h, pageSize);
  }

  /** The salt of a header read into {@code h}, or 0 if it is not a valid header for this log. */
  static long headerSalt(ByteBuffer h, int pageSize) {
    boolean valid =
        h.getLong(0) == MAGIC && h.getInt(28) == crc(h, 0, 28) && h.getInt(12) == pageSize;
    return valid ? h.getLong(16) : 0;
  }

  /** Continues appending after recovery at {@code validEnd}, cutting off whatever follows. */
  void resumeAt(long validEnd, long salt) {
    this.salt = salt;
    try {
      if (channel.size() > validEnd) {
        channel.truncate(validEnd);
        channel.force(false);
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot truncate write-ahead log " + path, e);
    }
    synchronized (syncLock) {
      end = validEnd;
      syncedTo = validEnd;
    }
  }

  /**
   * Appends one transaction: its pages (already sealed with {@code lsn} and checksums) and a commit
   * frame carrying {@code edits}. Single writer: the caller holds the database's writer lock.
   * Returns the log offset after the commit frame, for {@link #sync(long)}.
   */
  public long append(long lsn, List<Page> pages, byte[] edits) {
    long need = (long) pages.size() * (FRAME_HEADER + pageSize) + FRAME_HEADER + edits.length;
    ByteBuffer b = scratch(need);
    BytesStore<?, ?> dst = scratchStore;
    for (Page p : pages) {
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
    int start = b.position();
    b.put(start + 4, KIND_COMMIT);
    b.put(start + 5, (byte) 0);
    b.putShort(start + 6, (short) 0);
    b.putLong(start + 8, lsn);
    b.putLong(start + 16, salt);
    b.putInt(start + 24, edits.length);
    b.putInt(start + 28, pages.size());
    b.position(start + FRAME_HEADER);
    b.put(edits);
    b.putInt(start, crc(b, start + 4, FRAME_HEADER - 4 + edits.length));
    b.flip();
    long at = end;
    try {
      writeFully(b, at);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot append to write-ahead log " + path, e);
    }
    end = at + need;
    return end;
  }

  /**
   * Makes the log durable at least up to {@code upTo}; one fsync serves every waiting committer.
   */
  public void sync(long upTo) {
    synchronized (syncLock) {
      if (syncedTo >= upTo) {
        return;
      }
      long target = end;
      try {
        channel.force(false);
      } catch (IOException e) {
        throw new IdxkitIOException("fsync of write-ahead log " + path + " failed", e);
      }
      syncedTo = Math.max(syncedTo, target);
    }
  }

  /** Makes everything appended so far durable. */
  public void syncAll() {
    sync(end);
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new IdxkitIOException("cannot close write-ahead log " + path, e);
    }
  }

  private ByteBuffer scratch(long need) {
    if (need > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException(
          "transaction of " + need + " bytes is too large for one log write");
    }
    if (scratch == null || scratch.capacity() < need) {
      long old = scratch == null ? 0 : scratch.capacity();
      int cap = (int) Math.min(Integer.MAX_VALUE - 64, Math.max(need, 2L * old));
      scratch = ByteBuffer.allocateDirect(cap).order(ByteOrder.LITTLE_ENDIAN);
      scratchStore = BytesStore.wrap(scratch);
    }
    scratch.clear();
    return scratch;
  }

  private void writeFully(ByteBuffer b, long pos) throws IOException {
    long p = pos;
    while (b.hasRemaining()) {
      p += channel.write(b, p);
    }
  }

  static int crc(ByteBuffer b, int off, int len) {
    CRC32C c = new CRC32C();
    ByteBuffer d = b.duplicate();
    d.limit(off + len).position(off);
    c.update(d);
    return (int) c.getValue();
  }
}
