package dev.idxkit.core.internal.log;

import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.internal.io.WriteBehind;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.Page;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The write-ahead log as two segment files, {@code wal} and {@code wal2}, so that a checkpoint can
 * run beside the commits: when it starts, the commits move to the other segment, and the segment it
 * left holds exactly the transactions the checkpoint is writing home; once the checkpoint's meta is
 * written, that segment is emptied and waits to be the next one switched to.
 *
 * <p>Call order: {@link #open}; recovery reads {@link #inReplayOrder()}; commits {@link #append} to
 * the current segment and {@link #sync} the token it returns; a checkpoint that runs beside them
 * {@link #switchSegments} at its start and {@link #retire}s the segment it left at its end; a
 * checkpoint that holds the writer throughout (close, a bulk session, recovery) {@link #resetAll}
 * instead, which leaves {@code wal} alone, as a database closed by an older version has it.
 *
 * <p>Why two files and not one: the records of the transactions a checkpoint writes home can be
 * dropped only once its meta is written, and by then later commits follow them in the file; a log
 * cut from the front would need copying. With two files, each checkpoint starts by switching, so a
 * segment never holds records older than the checkpoint before the one running.
 *
 * <p>A switch fsyncs the segment left before the first commit goes to the other: recovery replays
 * the segments in the order of their first transaction, and a later segment is read only when the
 * earlier one ended cleanly, so no transaction is replayed after a gap.
 *
 * <p>Sync tokens: {@link #append} returns the segment's index in bit 62 and the offset after the
 * commit below it, so a committer that waits for durability after the writer moved on fsyncs the
 * segment its commit went to (a no-op when the switch already did).
 */
public final class WalSegments implements AutoCloseable {
  static final String FIRST = "wal";
  static final String SECOND = "wal2";
  private static final long SEGMENT_BIT = 1L << 62;

  private final Path dir;
  private final int pageSize;
  private final boolean readOnly;
  private final FileIo io;
  private final WriteBehind.Kernel kernel;
  private final Wal[] segments = new Wal[2];
  private volatile int current;

  private WalSegments(
      Path dir, int pageSize, boolean readOnly, FileIo io, WriteBehind.Kernel kernel) {
    this.dir = dir;
    this.pageSize = pageSize;
    this.readOnly = readOnly;
    this.io = io;
    this.kernel = kernel;
  }

  /** Opens {@code wal} (created when missing, unless read-only) and {@code wal2} if it exists. */
  public static WalSegments open(
      Path dir, int pageSize, boolean readOnly, FileIo io, WriteBehind.Kernel kernel) {
    WalSegments s = new WalSegments(dir, pageSize, readOnly, io, kernel);
    s.segments[0] = Wal.open(dir.resolve(FIRST), pageSize, readOnly, io, kernel);
    if (Files.exists(dir.resolve(SECOND))) {
      try {
        s.segments[1] = Wal.open(dir.resolve(SECOND), pageSize, readOnly, io, kernel);
      } catch (RuntimeException e) {
        s.segments[0].close();
        throw e;
      }
    }
    return s;
  }

  public int pageSize() {
    return pageSize;
  }

  /** The segment commits append to. */
  public Wal current() {
    return segments[current];
  }

  /**
   * After recovery: makes {@code w} (one of the segments) the one commits append to, when a
   * checkpoint is to start beside it rather than reset the log.
   */
  public void resumeOn(Wal w) {
    current = segments[1] == w ? 1 : 0;
  }

  /** Whether {@code w} holds a frame of its own log (a header and at least one frame). */
  public static boolean holdsFrames(Wal w) {
    return WalReader.firstLsn(w) != Long.MAX_VALUE;
  }

  /**
   * The segments that exist, in the order recovery must replay them: by the LSN of their first
   * frame; a segment with none comes last (it holds nothing to replay).
   */
  public List<Wal> inReplayOrder() {
    List<Wal> out = new ArrayList<>(2);
    for (Wal w : segments) {
      if (w != null) {
        out.add(w);
      }
    }
    if (out.size() == 2 && WalReader.firstLsn(out.get(0)) > WalReader.firstLsn(out.get(1))) {
      out.add(out.remove(0));
    }
    return out;
  }

  /** Salts in the headers of the segments (0 for a missing or invalid header). */
  public long[] headerSalts() {
    long[] out = new long[2];
    for (int i = 0; i < 2; i++) {
      out[i] = segments[i] == null ? 0 : segments[i].headerSalt();
    }
    return out;
  }

  /** Whether anything but {@code wal}'s empty header is on disk (a switch, or frames to replay). */
  public boolean holdsMoreThanAnEmptyLog() {
    return segments[1] != null || segments[0].size() > WalFormat.HEADER_SIZE;
  }

  /** Bytes in the current segment, header included. */
  public long size() {
    return current().size();
  }

  /**
   * Appends one transaction to the current segment ({@link Wal#append}); returns the token to
   * {@link #sync}.
   */
  public long append(
      long lsn, List<Page> pages, List<Page> bases, List<PageOps> ops, byte[] edits) {
    int c = current;
    long end = segments[c].append(lsn, pages, bases, ops, edits);
    return c == 1 ? end | SEGMENT_BIT : end;
  }

  /**
   * Makes the commit behind {@code token} durable (group commit within its segment). A segment gone
   * or closed meanwhile was fsynced first, by the switch or the checkpoint that dropped it ({@link
   * #resetAll}), so the commit is durable already.
   */
  public void sync(long token) {
    Wal w = segments[(token & SEGMENT_BIT) != 0 ? 1 : 0];
    if (w == null) {
      return;
    }
    try {
      w.sync(token & ~SEGMENT_BIT);
    } catch (IdxkitIOException e) {
      if (w.isOpen()) {
        throw e;
      }
    }
  }

  /** Has the current segment fsynced within {@code delayMillis} ({@link Wal#syncLater}). */
  public void syncLater(int delayMillis) {
    current().syncLater(delayMillis);
  }

  /** Makes everything appended to the current segment durable. */
  public void syncAll() {
    current().syncAll();
  }

  /**
   * A checkpoint beside the commits starts: fsyncs the current segment, starts the other afresh
   * with {@code salt}, and makes it current. Returns the segment left, to {@link #retire} once the
   * checkpoint's meta is written. The caller holds the writer.
   */
  public Wal switchSegments(long salt) {
    Wal left = current();
    left.syncAll();
    int next = 1 - current;
    if (segments[next] == null) {
      segments[next] =
          Wal.open(dir.resolve(next == 0 ? FIRST : SECOND), pageSize, readOnly, io, kernel);
    }
    segments[next].reset(salt);
    current = next;
    return left;
  }

  /** Empties a segment a checkpoint's meta has made obsolete (every transaction in it is home). */
  public void retire(Wal left) {
    left.empty();
  }

  /**
   * Starts the log afresh in {@code wal} with {@code salt} and removes {@code wal2}: after a
   * checkpoint that held the writer, or a bulk publish, nothing in either segment is needed.
   */
  public void resetAll(long salt) {
    segments[0].reset(salt);
    current = 0;
    Wal second = segments[1];
    if (second != null) {
      segments[1] = null;
      second.close();
      try {
        Files.deleteIfExists(second.path());
      } catch (IOException e) {
        throw new IdxkitIOException("cannot delete the log segment " + second.path(), e);
      }
    }
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (Wal w : segments) {
      if (w != null) {
        try {
          w.close();
        } catch (RuntimeException e) {
          first = first == null ? e : first;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  Path dir() {
    return dir;
  }
}
