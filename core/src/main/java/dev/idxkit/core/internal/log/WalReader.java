package dev.idxkit.core.internal.log;

import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.spi.Page;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Recovery's reading of the log ({@link WalFormat}): replays the committed transactions after a
 * checkpoint and finds where the valid log ends. {@link Recovery} decides what a replayed
 * transaction does to the store.
 *
 * <p>Frames are read in order and the frames of a transaction held until its COMMIT frame; only
 * then are its redo records (or, in a format 1 log, page images) and edits handed to the {@link
 * Replay}, in log order. Reading stops at the first frame that is short, fails its checksum,
 * carries another log's salt, has an unexpected LSN, or holds a page image (a format 1 page frame,
 * a full-image redo record) whose own checksum or header is wrong: that transaction and everything
 * after it are discarded, which is the torn-tail rule. A delta that passes its frame's checksum but
 * does not reproduce a sealed page on replay is damage, not a torn tail: the open is refused.
 * Transactions at or below the meta's checkpoint LSN are already home and are skipped.
 *
 * <p>A log's header says its format: REDO frames are read from a format 4 or 3 log (and from a
 * format 2 log, whose images carry checksums, checked), PAGE frames from a format 1 log (left by an
 * older version; replayed the same way, then checkpointed by the open); a log whose header is
 * damaged (read with the meta's salt) may hold either. A header of another version is refused
 * ({@link UnsupportedLogFormatException}), never read as empty.
 *
 * <p>Memory: one transaction's records at a time.
 */
public final class WalReader {
  private WalReader() {}

  /** Receives committed transactions in log order. */
  public interface Replay {
    /** One page image of a committed transaction; {@code image} is valid only during the call. */
    void page(int area, long pageNo, Page image);

    /**
     * One redo record of a committed transaction, at {@code pos} in {@code record} (valid only
     * during the call), to apply in log order; {@code logVersion} is the format of the log's header
     * (0 when the header is damaged: the current format's rules apply).
     */
    void redo(ByteBuffer record, int pos, long lsn, int logVersion, RedoRecord.Layout layout);

    /** The transaction's edits, after all its pages. */
    void commit(long lsn, byte[] edits);

    /**
     * As {@link #commit(long, byte[])}, with the format of the log's header ({@code logVersion}, 0
     * when damaged): change-buffer edits belong to format 5 only.
     */
    default void commit(long lsn, byte[] edits, int logVersion) {
      commit(lsn, edits);
    }
  }

  /** What recovery found: where the valid log ends and why reading stopped there. */
  public record Result(
      long validEnd,
      long lastLsn,
      int transactions,
      int pages,
      boolean headerValid,
      String stop,
      int version) {
    /** Whether reading stopped at the end of the file, or found no header (nothing to read). */
    public boolean endedCleanly() {
      return stop.equals("end of log") || (transactions == 0 && validEnd == 0);
    }

    /** This segment's result followed by {@code next}'s, the next segment read. */
    public Result then(Result next) {
      return new Result(
          next.validEnd,
          Math.max(lastLsn, next.lastLsn),
          transactions + next.transactions,
          pages + next.pages,
          headerValid && next.headerValid,
          next.stop,
          next.version);
    }
  }

  /**
   * Replays every committed transaction with an LSN above {@code checkpointLsn}, then positions
   * {@code wal} to append after the last valid one (cutting the torn tail) unless read-only.
   */
  public static Result recover(Wal wal, long checkpointLsn, Replay replay, boolean readOnly) {
    return recover(wal, checkpointLsn, 0, replay, readOnly);
  }

  /**
   * As {@link #recover(Wal, long, Replay, boolean)}, knowing the salt the meta recorded for this
   * log ({@code 0}: unknown). A log whose header is damaged is then still read, with that salt: its
   * frames carry the salt themselves, so only frames of this log are replayed. The log is not
   * positioned in that case; the caller checkpoints what was replayed, and only then resets it.
   *
   * <p>Every record of those transactions is handed over, also of pages whose images a {@link
   * DoubleWrite} holds as of a later LSN: which records those images already hold is the replay's
   * to decide, page by page.
   */
  public static Result recover(
      Wal wal, long checkpointLsn, long knownSalt, Replay replay, boolean readOnly) {
    try {
      return read(wal, checkpointLsn, knownSalt, replay, readOnly);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read write-ahead log " + wal.path(), e);
    }
  }

  private static Result read(
      Wal wal, long checkpointLsn, long knownSalt, Replay replay, boolean readOnly)
      throws IOException {
    var ch = wal.channel();
    long size = ch.size();
    int pageSize = wal.pageSize();
    ByteBuffer header = ByteBuffer.allocate(WalFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    if (size < WalFormat.HEADER_SIZE || !readFully(ch, header, 0)) {
      return new Result(0, checkpointLsn, 0, 0, false, "no header", 0);
    }
    long salt = WalFormat.headerSalt(header, pageSize, wal.path());
    boolean headerValid = salt != 0;
    // 0: damaged header, either kind of page frame is read (each is checked on its own).
    int version = headerValid ? WalFormat.headerVersion(header) : 0;
    if (!headerValid) {
      if (knownSalt == 0) {
        // A torn header comes from a reset, after which the log held nothing.
        return new Result(0, checkpointLsn, 0, 0, false, "invalid header", 0);
      }
      salt = knownSalt; // damaged later: the frames still name their log
    }
    ByteBuffer frame =
        ByteBuffer.allocateDirect(WalFormat.FRAME_HEADER + RedoRecord.maxSize(pageSize))
            .order(ByteOrder.LITTLE_ENDIAN);
    BytesStore<?, ?> frameStore = BytesStore.wrap(frame);
    // The frames of the transaction being read: a format 1 PAGE frame is held whole (header and
    // image, in direct memory for a Page view), a REDO frame as its record alone.
    List<ByteBuffer> pending = new ArrayList<>();
    List<Boolean> pendingIsImage = new ArrayList<>();
    // A format 4 TXN frame, read whole, and where its records start.
    ByteBuffer txnBuf = null;
    List<Integer> recordStarts = new ArrayList<>();
    long pos = WalFormat.HEADER_SIZE;
    long validEnd = pos;
    long lastLsn = checkpointLsn;
    long prevLsn = Long.MIN_VALUE;
    long txnLsn = -1;
    int txns = 0;
    int pages = 0;
    String stop = "end of log";
    try {
      while (true) {
        frame.clear().limit(WalFormat.FRAME_HEADER);
        if (pos + WalFormat.FRAME_HEADER > size || !readFully(ch, frame, pos)) {
          stop = pos == size ? "end of log" : "short frame header at " + pos;
          break;
        }
        byte kind = WalFormat.kind(frame);
        long lsn = WalFormat.lsn(frame);
        if (WalFormat.salt(frame) != salt) {
          stop = "frame from an older log at " + pos;
          break;
        }
        if (txnLsn >= 0 && lsn != txnLsn) {
          stop = "frame of lsn " + lsn + " inside transaction " + txnLsn + " at " + pos;
          break;
        }
        if (kind == WalFormat.KIND_TXN
            && (version == WalFormat.FORMAT_VERSION
                || version == WalFormat.FORMAT_VERSION_NO_BUFFERS
                || version == 0)
            && txnLsn < 0) {
          long payloadBytes = WalFormat.txnPayloadBytes(frame) & 0xFFFF_FFFFL;
          if (payloadBytes < 4) {
            stop = "transaction frame with " + payloadBytes + " payload bytes at " + pos;
            break;
          }
          if (payloadBytes > size - pos - WalFormat.FRAME_HEADER) {
            stop =
                "short frame at "
                    + pos
                    + " ("
                    + payloadBytes
                    + " payload bytes, "
                    + (size - pos - WalFormat.FRAME_HEADER)
                    + " in the file)";
            break;
          }
          int payload = (int) payloadBytes;
          txnBuf = grow(txnBuf, WalFormat.FRAME_HEADER + payload);
          txnBuf.put(frame.duplicate().position(0).limit(WalFormat.FRAME_HEADER));
          txnBuf.limit(WalFormat.FRAME_HEADER + payload);
          if (!readFully(ch, txnBuf, pos + WalFormat.FRAME_HEADER)) {
            stop = "short frame at " + pos;
            break;
          }
          if (!WalFormat.checksumValid(txnBuf, payload) || lsn <= prevLsn) {
            stop =
                lsn <= prevLsn
                    ? "transaction " + lsn + " after " + prevLsn + " at " + pos
                    : "frame checksum mismatch at " + pos;
            break;
          }
          String bad = parseTxn(txnBuf, payload, pageSize, lsn, recordStarts);
          if (bad != null) {
            stop = "transaction frame at " + pos + ": " + bad;
            break;
          }
          int editBytes = txnBuf.getInt(WalFormat.FRAME_HEADER);
          byte[] edits = new byte[editBytes];
          txnBuf.get(WalFormat.FRAME_HEADER + 4, edits);
          if (lsn > checkpointLsn) {
            for (int i = 0; i < recordStarts.size(); i++) {
              replay.redo(txnBuf, recordStarts.get(i), lsn, version, RedoRecord.Layout.COMPACT);
              pages++;
            }
            replay.commit(lsn, edits, version);
            txns++;
            lastLsn = lsn;
          }
          prevLsn = lsn;
          pos += WalFormat.FRAME_HEADER + payload;
          validEnd = pos;
          continue;
        }
        int payload;
        if (kind == WalFormat.KIND_PAGE && version == WalFormat.FORMAT_VERSION_IMAGES) {
          payload = pageSize;
        } else if (kind == WalFormat.KIND_REDO && version != WalFormat.FORMAT_VERSION_IMAGES) {
          payload = WalFormat.recordBytes(frame);
          if (payload < RedoRecord.HEADER_SIZE || payload > RedoRecord.maxSize(pageSize)) {
            stop = "redo frame with " + payload + " record bytes at " + pos;
            break;
          }
        } else if (kind == WalFormat.KIND_COMMIT) {
          payload = WalFormat.editBytes(frame);
          if (payload < 0 || payload > size - pos - WalFormat.FRAME_HEADER) {
            stop = "commit frame with " + payload + " edit bytes at " + pos;
            break;
          }
        } else {
          stop = "unknown frame kind " + kind + " at " + pos;
          break;
        }
        ByteBuffer body =
            kind != WalFormat.KIND_COMMIT
                ? frame
                : ByteBuffer.allocate(WalFormat.FRAME_HEADER + payload)
                    .order(ByteOrder.LITTLE_ENDIAN);
        if (body != frame) {
          body.put(frame.duplicate().flip());
        }
        body.limit(WalFormat.FRAME_HEADER + payload);
        if (!readFully(ch, body.position(WalFormat.FRAME_HEADER), pos + WalFormat.FRAME_HEADER)) {
          stop = "short frame at " + pos;
          break;
        }
        if (!WalFormat.checksumValid(body, payload)) {
          stop = "frame checksum mismatch at " + pos;
          break;
        }
        if (kind == WalFormat.KIND_PAGE) {
          Page image = new Page(frameStore, WalFormat.FRAME_HEADER, pageSize);
          long pageNo = WalFormat.pageNo(body);
          if (image.computeChecksum() != image.storedChecksum()
              || image.pageNo() != pageNo
              || image.areaId() != WalFormat.area(body)) {
            stop = "page " + pageNo + " image fails its checksum at " + pos;
            break;
          }
          ByteBuffer copy = ByteBuffer.allocateDirect(WalFormat.FRAME_HEADER + pageSize);
          copy.put(body.duplicate().position(0).limit(WalFormat.FRAME_HEADER + pageSize)).flip();
          pending.add(copy);
          pendingIsImage.add(true);
          txnLsn = lsn;
        } else if (kind == WalFormat.KIND_REDO) {
          ByteBuffer record = ByteBuffer.allocate(payload).order(ByteOrder.LITTLE_ENDIAN);
          record
              .put(
                  body.duplicate()
                      .limit(WalFormat.FRAME_HEADER + payload)
                      .position(WalFormat.FRAME_HEADER))
              .flip();
          RedoRecord.Header h;
          try {
            h = RedoRecord.readHeader(record, 0, pageSize);
            if (h.size() != payload || h.area() != WalFormat.area(body)) {
              throw new IllegalArgumentException(
                  "record of "
                      + h.size()
                      + " bytes, area "
                      + h.area()
                      + " in a frame of "
                      + payload
                      + ", area "
                      + WalFormat.area(body));
            }
          } catch (IllegalArgumentException e) {
            stop = "redo frame at " + pos + ": " + e.getMessage();
            break;
          }
          if (h.full()) {
            // A full image is checked here, as a format 1 page frame is; a delta can only be
            // checked against its base, by the replay (a mismatch there refuses the open).
            Page image =
                new Page(frameStore, WalFormat.FRAME_HEADER + RedoRecord.HEADER_SIZE, pageSize);
            long pageNo = h.pageNo();
            if ((version == RedoRecord.FORMAT_VERSION_SEALED
                    && image.computeChecksum() != image.storedChecksum())
                || image.pageNo() != pageNo
                || image.areaId() != WalFormat.area(body)
                || image.lsn() != lsn) {
              stop = "page " + pageNo + " image fails its checksum or header at " + pos;
              break;
            }
          }
          pending.add(record);
          pendingIsImage.add(false);
          txnLsn = lsn;
        } else {
          if (WalFormat.pageFrames(body) != pending.size() || lsn <= prevLsn) {
            stop = "commit frame does not match its transaction at " + pos;
            break;
          }
          byte[] edits = new byte[payload];
          body.get(WalFormat.FRAME_HEADER, edits);
          if (lsn > checkpointLsn) {
            for (int i = 0; i < pending.size(); i++) {
              ByteBuffer pb = pending.get(i).order(ByteOrder.LITTLE_ENDIAN);
              if (!pendingIsImage.get(i)) {
                replay.redo(pb, 0, lsn, version, RedoRecord.Layout.FIXED);
                pages++;
                continue;
              }
              BytesStore<?, ?> store = BytesStore.wrap(pb);
              try {
                replay.page(
                    WalFormat.area(pb),
                    WalFormat.pageNo(pb),
                    new Page(store, WalFormat.FRAME_HEADER, pageSize));
              } finally {
                store.releaseLast();
              }
              pages++;
            }
            replay.commit(lsn, edits, version);
            txns++;
            lastLsn = lsn;
          }
          pending.clear();
          pendingIsImage.clear();
          prevLsn = lsn;
          txnLsn = -1;
          validEnd = pos + WalFormat.FRAME_HEADER + payload;
        }
        pos += WalFormat.FRAME_HEADER + payload;
      }
    } finally {
      frameStore.releaseLast();
    }
    if (!readOnly && headerValid) {
      wal.resumeAt(validEnd, salt, version);
    }
    return new Result(validEnd, lastLsn, txns, pages, headerValid, stop, version);
  }

  /**
   * The LSN of the first frame of {@code wal}, if its header is valid and that frame carries its
   * salt; {@link Long#MAX_VALUE} otherwise (an empty or new segment).
   */
  static long firstLsn(Wal wal) {
    var ch = wal.channel();
    try {
      ByteBuffer h = ByteBuffer.allocate(WalFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
      if (ch.size() < WalFormat.HEADER_SIZE + WalFormat.FRAME_HEADER || !readFully(ch, h, 0)) {
        return Long.MAX_VALUE;
      }
      long salt = WalFormat.headerSalt(h, wal.pageSize(), wal.path());
      ByteBuffer f = ByteBuffer.allocate(WalFormat.FRAME_HEADER).order(ByteOrder.LITTLE_ENDIAN);
      if (salt == 0 || !readFully(ch, f, WalFormat.HEADER_SIZE) || WalFormat.salt(f) != salt) {
        return Long.MAX_VALUE;
      }
      return WalFormat.lsn(f);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read write-ahead log " + wal.path(), e);
    }
  }

  /**
   * Checks the structure of a TXN frame held in {@code b} (its checksum already checked): the edits
   * within the payload, then exactly as many COMPACT records as its header says, ending at its end.
   * Fills {@code starts} with where the records start; returns null, or what is wrong.
   */
  private static String parseTxn(
      ByteBuffer b, int payload, int pageSize, long lsn, List<Integer> starts) {
    starts.clear();
    int end = WalFormat.FRAME_HEADER + payload;
    long editBytes = b.getInt(WalFormat.FRAME_HEADER) & 0xFFFF_FFFFL;
    if (editBytes > payload - 4) {
      return editBytes + " edit bytes in a payload of " + payload;
    }
    int p = WalFormat.FRAME_HEADER + 4 + (int) editBytes;
    int records = WalFormat.txnRecords(b);
    ByteBuffer view = b.duplicate().order(ByteOrder.LITTLE_ENDIAN).limit(end);
    for (int i = 0; i < records; i++) {
      try {
        RedoRecord.Header h =
            RedoRecord.readHeader(view, p, pageSize, RedoRecord.Layout.COMPACT, lsn);
        starts.add(p);
        p += h.size();
      } catch (IllegalArgumentException e) {
        return "record " + i + ": " + e.getMessage();
      }
    }
    return p == end ? null : (end - p) + " bytes after its " + records + " records";
  }

  private static ByteBuffer grow(ByteBuffer b, int need) {
    if (b == null || b.capacity() < need) {
      long doubled = b == null ? 1 << 20 : 2L * b.capacity();
      int cap = (int) Math.min(Integer.MAX_VALUE - 64, Math.max(need, doubled));
      b = ByteBuffer.allocate(cap).order(ByteOrder.LITTLE_ENDIAN);
    }
    b.clear();
    return b;
  }

  static boolean readFully(java.nio.channels.FileChannel ch, ByteBuffer b, long pos)
      throws IOException {
    long p = pos;
    while (b.hasRemaining()) {
      int n = ch.read(b, p);
      if (n < 0) {
        return false;
      }
      p += n;
    }
    return true;
  }
}
