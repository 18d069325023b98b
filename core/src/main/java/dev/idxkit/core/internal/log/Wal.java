package dev.idxkit.core.internal.log;

import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.internal.io.WriteBehind;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The write-ahead log file: appends committed transactions, makes them durable with group commit,
 * and is cut back to its header by a checkpoint. Its byte layout is {@link WalFormat}; recovery
 * reads it with {@link WalReader}.
 *
 * <p>Call order: {@link #open}, then recovery ({@link WalReader#recover}) which either positions
 * the log after its last valid transaction ({@code resumeAt}) or leaves it to a {@link #reset};
 * then for each commit {@link #append} and, by the commit's durability, {@link #sync(long)} (SYNC),
 * {@link #syncLater} (ASYNC) or nothing (OFF); a checkpoint calls {@link #syncAll()}, writes the
 * pages home and the meta, then {@link #reset(long)} with the salt that meta recorded.
 *
 * <p>Group commit: {@link #append} only writes (to the OS, one positional write per transaction,
 * from one reused direct buffer that grows to the largest transaction; the redo records are encoded
 * into it with one {@link PageDiff} and one page of scratch, both reused); {@link #sync(long)}
 * makes the log durable up to an offset. Committers that queue behind one fsync find their frames
 * already covered and return without another. ASYNC commits are fsynced by one background thread
 * every {@code asyncFlushMillis}.
 *
 * <p>Memory: the append buffer (at least 1 MiB, as large as the largest transaction). Disk: the log
 * grows until a checkpoint ({@code checkpointBytes}, 512 MiB by default) cuts it.
 */
public final class Wal implements AutoCloseable {
  private final Path path;
  private final FileChannel channel;
  private final int pageSize;
  private final Object syncLock = new Object();
  private long salt;
  private volatile long end;
  private long syncedTo;
  private ByteBuffer scratch;
  private ScheduledExecutorService flusher;
  private final PageDiff diff = new PageDiff();
  private final byte[] scratchPage;
  private int version; // of the header on disk, once recovery or a reset has set it
  // Starts writeback of the log every 16 MiB appended: a checkpoint begins with an fsync of the
  // whole log, which under OFF or ASYNC can hold hundreds of MiB written since the last one;
  // started
  // early, the device writes it while the commits
  // go on, and that fsync waits for the tail only. Made at the first append after a reset.
  private WriteBehind writeBehind;
  private final WriteBehind.Kernel kernel;

  private Wal(Path path, FileChannel channel, int pageSize, WriteBehind.Kernel kernel) {
    this.kernel = kernel;
    this.path = path;
    this.channel = channel;
    this.pageSize = pageSize;
    this.scratchPage = new byte[pageSize];
  }

  /** Opens or creates the log file; the caller runs recovery, then {@link #reset} or resumes. */
  public static Wal open(Path path, int pageSize, boolean readOnly) {
    return open(path, pageSize, readOnly, FileIo.DEFAULT);
  }

  /** As {@link #open(Path, int, boolean)}, with the log's channel opened by {@code io}. */
  public static Wal open(Path path, int pageSize, boolean readOnly, FileIo io) {
    return open(path, pageSize, readOnly, io, WriteBehind.NATIVE);
  }

  /** As {@link #open(Path, int, boolean, FileIo)}, starting writeback through {@code kernel}. */
  public static Wal open(
      Path path, int pageSize, boolean readOnly, FileIo io, WriteBehind.Kernel kernel) {
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
      Wal w = new Wal(path, ch, pageSize, kernel);
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

  /** False once closed (a second log segment dropped by a checkpoint). */
  boolean isOpen() {
    return channel.isOpen();
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
    reset(WalFormat.newSalt());
  }

  /**
   * As {@link #reset()} with a salt chosen beforehand (the meta written just before records it).
   */
  public void reset(long salt) {
    if (salt == 0) {
      throw new IllegalArgumentException("salt 0 means 'not recorded'");
    }
    this.salt = salt;
    this.version = WalFormat.FORMAT_VERSION;
    ByteBuffer h = WalFormat.header(pageSize, salt);
    stopWriteBehind();
    try {
      channel.truncate(0);
      writeFully(h, 0);
      channel.force(false);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot reset write-ahead log " + path, e);
    }
    synchronized (syncLock) {
      end = WalFormat.HEADER_SIZE;
      syncedTo = WalFormat.HEADER_SIZE;
    }
  }

  /**
   * Truncates the file to nothing, header included: a log segment whose transactions a checkpoint
   * has made obsolete ({@link WalSegments#retire}). Nothing is appended until the next {@link
   * #reset}; no fsync, since whatever a crash leaves of it is at or below the checkpoint's LSN.
   */
  void empty() {
    stopWriteBehind();
    try {
      channel.truncate(0);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot empty write-ahead log segment " + path, e);
    }
    synchronized (syncLock) {
      end = 0;
      syncedTo = 0;
    }
    version = 0;
  }

  /** The salt in the header on disk, or 0 if the header is missing or invalid. */
  public long headerSalt() {
    ByteBuffer h = ByteBuffer.allocate(WalFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    try {
      if (!WalReader.readFully(channel, h, 0)) {
        return 0;
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read the header of " + path, e);
    }
    return WalFormat.headerSalt(h, pageSize, path);
  }

  /** Continues appending after recovery at {@code validEnd}, cutting off whatever follows. */
  void resumeAt(long validEnd, long salt, int version) {
    this.salt = salt;
    this.version = version;
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
   * Appends one transaction as one TXN frame: {@code edits}, then a record per page ({@code pages},
   * already stamped with {@code lsn}; their checksums are computed at the checkpoint), each a
   * change of the same-index entry of {@code bases} (the page's previous committed image, or its
   * home copy): the operations the page recorded, the same-index entry of {@code ops} (an OPS
   * record), or else the bytes that differ (DELTA); or, where the base is null, a FRESH record (a
   * page the transaction formatted). Single writer: the caller holds the database's writer lock.
   * Returns the log offset after the commit frame, for {@link #sync(long)}.
   */
  public long append(
      long lsn, List<Page> pages, List<Page> bases, List<PageOps> ops, byte[] edits) {
    if (version != WalFormat.FORMAT_VERSION) {
      // Recovery checkpoints (and so resets) an older log before the first commit; a REDO frame
      // after format 1 frames would be cut as a torn tail by the next recovery.
      throw new IllegalStateException(
          "append to a log of format " + version + " (expected: " + WalFormat.FORMAT_VERSION + ")");
    }
    long need = WalFormat.transactionBytes(pages.size(), pageSize, edits.length);
    ByteBuffer b = scratch(need);
    int frame = WalFormat.startTxnFrame(b, edits);
    RedoRecord.Layout compact = RedoRecord.Layout.COMPACT;
    for (int i = 0; i < pages.size(); i++) {
      Page p = pages.get(i);
      Page base = bases.get(i);
      PageOps o = ops.get(i);
      if (base == null) {
        RedoRecord.writeFresh(p, diff, b, scratchPage, compact);
      } else if (o != null && !o.overflowed() && o.count() > 0) {
        RedoRecord.writeOps(base, p, o, b, compact);
      } else {
        RedoRecord.write(base, p, diff, b, scratchPage, compact);
      }
    }
    WalFormat.finishTxnFrame(b, frame, lsn, salt, pages.size());
    b.flip();
    long at = end;
    long length = b.remaining();
    try {
      writeFully(b, at);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot append to write-ahead log " + path, e);
    }
    end = at + length;
    if (writeBehind == null) {
      writeBehind = new WriteBehind(kernel, WriteBehind.STEP);
    }
    writeBehind.written(path, at, length);
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

  /**
   * Has everything appended fsynced within {@code delayMillis} by a background thread (ASYNC
   * commits): started on the first call, it fsyncs every {@code delayMillis} until {@link #close}.
   */
  public void syncLater(int delayMillis) {
    synchronized (syncLock) {
      if (flusher != null) {
        return;
      }
      flusher =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "idxkit-wal-flush");
                t.setDaemon(true);
                return t;
              });
      flusher.scheduleWithFixedDelay(
          () -> {
            if (channel.isOpen()) {
              try {
                syncAll();
              } catch (RuntimeException e) {
                // The next commit or checkpoint fsync reports the failure to a caller.
              }
            }
          },
          delayMillis,
          delayMillis,
          TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void close() {
    synchronized (syncLock) {
      if (flusher != null) {
        flusher.shutdownNow();
      }
    }
    stopWriteBehind();
    try {
      channel.close();
    } catch (IOException e) {
      throw new IdxkitIOException("cannot close write-ahead log " + path, e);
    }
  }

  /** Writeback requests made since the last reset. */
  long writeBehindRequests() {
    return writeBehind == null ? 0 : writeBehind.requests();
  }

  /** Waits for the writeback requests made and closes their descriptor (before a truncate). */
  private void stopWriteBehind() {
    if (writeBehind != null) {
      writeBehind.close();
      writeBehind = null;
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
}
