package dev.idxkit.core.internal.txn;

import dev.idxkit.core.internal.io.AsyncWriter;
import dev.idxkit.core.internal.io.PageFile;
import dev.idxkit.core.internal.io.WriteBehind;
import dev.idxkit.core.internal.log.DoubleWrite;
import dev.idxkit.core.internal.log.PageIndex;
import dev.idxkit.core.internal.log.WalFormat;
import dev.idxkit.core.internal.log.WalSegments;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.meta.MetaCodec;
import dev.idxkit.core.internal.meta.MetaFile;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Checkpoint writing, in one place: moves the dirty pages (the newest committed images, held in the
 * page index since the last checkpoint) to their home in the area files, publishes a meta slot that
 * says so, and cuts the log.
 *
 * <p>Call order: the store calls {@link #write} with the writer held (automatically when the log
 * passes {@code checkpointBytes} or the dirty pages {@code dirtyPageBytes}, before a bulk session,
 * at close, and at the end of a read-write open that replayed work), then makes the returned meta
 * current and clears the page index under its visibility write lock. A bulk session's publish
 * writes its meta through {@link #writeMetaAndResetLog} alone.
 *
 * <p>Steps of {@link #write}:
 *
 * <ol>
 *   <li>fsync the log, so every change about to be written out is durable in the log first;
 *   <li>the double write ({@link DoubleWrite}): the images of the {@link PageIndex}, each sealed
 *       (its checksum computed on its copy), written one after the other to a new file, fsynced,
 *       then that file's header, fsynced: from here a crash that tears a home write finds a whole
 *       copy of every page being written, and recovery installs those instead of the home copies.
 *       Except the pages whose first record since the last checkpoint is FRESH (formatted since:
 *       new pages, pages reused from a free list; {@code PageBuffer.fresh}): recovery rebuilds
 *       those from zeros and their records, never reading their home copy, torn or not. Without any
 *       other page, no file is written;
 *   <li>write the images home in (area, page) order: consecutive pages of an area are copied into
 *       one buffer of up to 1 MiB (each page sealed again on its copy) and written with one
 *       positional write, several writes in flight ({@link AsyncWriter}: 8 buffers, 4 threads),
 *       each buffer reused as soon as its own write completes; every 16 MiB of a file written,
 *       {@link WriteBehind} asks the kernel to start writing that part to the device, so the device
 *       works while the next pages are copied and the fsync of step 4 waits only for the tail;
 *   <li>fsync the areas written;
 *   <li>write the next meta slot (generation + 1, checkpoint LSN = the last commit), recording a
 *       fresh salt, then reset the log to its header with that salt, then delete the double write.
 * </ol>
 *
 * <p>The double write doubles what a checkpoint writes of the pages that existed before it. Format
 * 3 wrote the same bytes, into the log, inside the commit that first changed each page after a
 * checkpoint (PostgreSQL's {@code full_page_writes}); here they are written once per page per
 * checkpoint, as one sequential write, and a commit logs only the bytes it changed.
 *
 * <p>Why a copy into 1 MiB buffers and not gathering writes straight from the images (what the
 * issue proposed): measured on the development VM (ext4, 2 cores), writing 256 MiB of 8 KiB direct
 * buffers with {@code FileChannel.write(ByteBuffer[])} runs of 256 pages took 0.21-0.85 s against
 * 0.18-0.47 s for copying them into 1 MiB buffers and writing those, four alternating rounds; the
 * copy costs less than the kernel's per-segment work. Write-behind is what moved the flush: 256 MiB
 * checkpoints ({@code bench durability --checkpoint-only}, four rounds each, load average 5 on a
 * shared machine) took 0.51-0.77 s with it against 0.79-1.01 s without, and one writer thread
 * instead of four was slower (0.73-0.96 s).
 *
 * <p>A crash before the double write is sealed leaves the old meta, the whole log and untouched
 * home copies: recovery replays the log again over them. A crash after it and before step 5 leaves
 * the same, and home copies that may be torn: recovery installs the double write's images and
 * replays only the transactions after them. A crash between the meta write and the log reset leaves
 * a log whose transactions are all at or below the new checkpoint LSN: recovery skips them (and the
 * double write, at that LSN too).
 *
 * <p>Memory: the writer's 8 buffers of 1 MiB (kept between checkpoints). Disk: the pages written
 * twice (double write and home), but those formatted since the last checkpoint once, and one meta
 * slot.
 */
final class Checkpoint implements AutoCloseable {
  private final WalSegments wal;
  private final MetaFile metaFile;
  private final AreaFiles areas;
  // The index being written, for the length of one write(); the checkpoint is not reentrant.
  private PageIndex index;
  private final int pageSize;
  private final WriteBehind.Kernel kernel;
  private final Path dir;
  private final FileIo io;
  private AsyncWriter homeWriter;
  private String writeBehindProblem;
  private long writeBehindRequests;
  private volatile CheckpointStats last = CheckpointStats.NONE;
  // The generation of the last meta slot this process wrote (0: none yet).
  private volatile long generationWritten;
  // What went wrong after the last meta write (emptying the old log segment, deleting the double
  // write), or null.
  private volatile String cleanupProblem;
  private final CRC32C crc = new CRC32C();

  Checkpoint(
      WalSegments wal,
      MetaFile metaFile,
      AreaFiles areas,
      int pageSize,
      WriteBehind.Kernel kernel,
      Path dir,
      FileIo io) {
    this.dir = dir;
    this.io = io;
    this.wal = wal;
    this.metaFile = metaFile;
    this.areas = areas;
    this.pageSize = pageSize;
    this.kernel = kernel;
  }

  /** Timings of the most recent checkpoint. */
  CheckpointStats last() {
    return last;
  }

  /**
   * Steps 1 to 5 above for the pages of {@code pages} (the active index, by a caller that holds the
   * writer throughout, so nothing changes it meanwhile); returns the meta now published. The caller
   * installs the result for readers and empties the index. The log is started afresh in one
   * segment.
   */
  MetaState write(PageIndex pages, MetaState current, List<FreeList> free, long lastLsn) {
    long t0 = System.nanoTime();
    wal.syncAll();
    MetaState next =
        current.toBuilder().generation(nextGeneration(current)).checkpointLsn(lastLsn).build();
    return writeOut(pages, next, free, t0, () -> writeMetaAndResetLog(next, free), () -> {});
  }

  /**
   * Steps 2 to 5 above beside the commits, on the checkpoint's own thread: the writer froze {@code
   * pages} (every page committed up to {@code atLsn}), took {@code meta} and {@code free} as of
   * that LSN, and switched the commits to the log segment whose salt is {@code salt}, after
   * fsyncing {@code left}, the segment that holds those transactions. The meta slot written names
   * that salt, and then {@code left} is emptied. Returns the meta written.
   */
  MetaState writeBeside(
      PageIndex pages,
      MetaState meta,
      List<FreeList> free,
      long atLsn,
      long salt,
      dev.idxkit.core.internal.log.Wal left) {
    long t0 = System.nanoTime();
    MetaState next = meta.toBuilder().generation(nextGeneration(meta)).checkpointLsn(atLsn).build();
    return writeOut(
        pages, next, free, t0, () -> writeMeta(next, free, salt), () -> wal.retire(left));
  }

  /**
   * The generation of the next meta slot: one above both the caller's meta and the last slot
   * written, which is newer when a checkpoint failed after its meta write (its cleanup, or the log
   * reset) and the caller's meta never took it in. Two slots of one generation would leave open to
   * guess.
   */
  long nextGeneration(MetaState current) {
    return Math.max(current.generation(), generationWritten) + 1;
  }

  private void writeMeta(MetaState m, List<FreeList> free, long salt) {
    metaFile.write(m.generation(), MetaCodec.encode(m, free), salt);
    generationWritten = Math.max(generationWritten, m.generation());
  }

  /**
   * Steps 2 to 5: the double write, the home writes, the area fsyncs, then {@code metaStep}; after
   * it, {@code cleanup} and the double write's deletion, whose failure only leaves files that
   * recovery knows to be obsolete, so it is reported in the stats rather than thrown.
   */
  private MetaState writeOut(
      PageIndex pages,
      MetaState next,
      List<FreeList> free,
      long t0,
      Runnable metaStep,
      Runnable cleanup) {
    long t1 = System.nanoTime();
    index = pages;
    try {
      int count = pages.size();
      long[] keys = pages.sortedKeys();
      int doubledPages = doubleWrite(keys, next.checkpointLsn());
      long doubled = System.nanoTime();
      boolean[] touched = writeHome(keys);
      long written = System.nanoTime();
      areas.sync(touched);
      long t2 = System.nanoTime();
      metaStep.run();
      cleanupProblem = null;
      try {
        cleanup.run();
        if (keys.length > 0) {
          DoubleWrite.deleteAll(dir);
        }
      } catch (RuntimeException e) {
        cleanupProblem = dev.idxkit.core.ProblemText.of(e);
      }
      last =
          new CheckpointStats(
              count,
              (long) count * pageSize,
              doubledPages,
              t1 - t0,
              doubled - t1,
              written - doubled,
              t2 - doubled,
              System.nanoTime() - t2,
              writeBehindProblem,
              writeBehindRequests,
              cleanupProblem);
      return next;
    } finally {
      index = null;
    }
  }

  /**
   * Writes {@code m} and its free lists to the next meta slot with a fresh log salt, then resets
   * the log with that salt: what lets open tell a torn newest slot from a damaged one ({@code
   * Recovery.checkMetaMatchesLog}).
   */
  void writeMetaAndResetLog(MetaState m, List<FreeList> free) {
    long salt = WalFormat.newSalt();
    writeMeta(m, free, salt);
    wal.resetAll(salt);
  }

  @Override
  public void close() {
    if (homeWriter != null) {
      homeWriter.close();
    }
  }

  /**
   * Step 2: every image but the fresh pages', sealed, to a new double-write file, made durable and
   * valid; returns how many.
   */
  private int doubleWrite(long[] keys, long lastLsn) {
    long[] doubled = Arrays.stream(keys).filter(k -> !index.buffer(k).fresh).toArray();
    if (doubled.length == 0) {
      return 0;
    }
    writer();
    try (DoubleWrite dw = DoubleWrite.create(dir, pageSize, io)) {
      PageFile f = dw.file();
      ByteBuffer buf = null;
      long bufStart = 1;
      for (int i = 0; i < doubled.length; i++) {
        if (buf != null && !buf.hasRemaining()) {
          buf.flip();
          homeWriter.submit(f, bufStart, buf);
          buf = null;
        }
        if (buf == null) {
          buf = homeWriter.acquire();
          buf.limit(buf.capacity() - buf.capacity() % pageSize);
          bufStart = 1 + i;
        }
        copySealed(doubled[i], buf);
      }
      buf.flip();
      homeWriter.submit(f, bufStart, buf);
      homeWriter.flush();
      dw.seal(lastLsn, doubled.length);
    } catch (RuntimeException e) {
      dropWriter();
      throw e;
    }
    return doubled.length;
  }

  /** Step 3; returns which areas were written, indexed by area id. */
  private boolean[] writeHome(long[] keys) {
    boolean[] touched = new boolean[areas.slots()];
    writeBehindProblem = null;
    writeBehindRequests = 0;
    if (keys.length == 0) {
      return touched;
    }
    writer();
    WriteBehind behind = new WriteBehind(kernel, WriteBehind.STEP);
    try (behind) {
      copyHome(keys, touched, behind);
    } catch (RuntimeException e) {
      dropWriter();
      throw e;
    }
    // Read after close, which waits for the requests still running: one refused there counts.
    writeBehindProblem = behind.problem();
    writeBehindRequests = behind.requests();
    return touched;
  }

  private void writer() {
    if (homeWriter == null) {
      homeWriter = new AsyncWriter(8, Math.max(pageSize, 1 << 20), 4);
    }
  }

  // The writer keeps its first failure for good; the next checkpoint gets a fresh one, so a disk
  // that works again is not refused for the rest of the process.
  private void dropWriter() {
    AsyncWriter failed = homeWriter;
    homeWriter = null;
    failed.close();
  }

  /**
   * Copies the image of {@code key} to {@code buf}'s position, seals the copy, and moves past it.
   */
  private void copySealed(long key, ByteBuffer buf) {
    ByteBuffer src = index.buffer(key).buffer.duplicate().clear();
    int at = buf.position();
    buf.put(src);
    // Sealed on the copy just made, still in the cache, not in a pass over every image before
    // the copy (6 % of the CPU of random inserts into 10 M keys); the images stay unsealed and
    // leave the index after this.
    Page.sealCopy(buf, at, pageSize, crc);
  }

  private void copyHome(long[] keys, boolean[] touched, WriteBehind behind) {
    AsyncWriter.Written done =
        (file, firstPage, bytes) -> behind.written(file.path(), firstPage * pageSize, bytes);
    ByteBuffer buf = null;
    int bufArea = -1;
    long bufStart = -1;
    long next = -1;
    for (long k : keys) {
      int area = PageIndex.areaOf(k);
      long page = PageIndex.pageOf(k);
      touched[area] = true;
      if (buf != null && (area != bufArea || page != next || !buf.hasRemaining())) {
        buf.flip();
        homeWriter.submit(areas.file(bufArea), bufStart, buf, done);
        buf = null;
      }
      if (buf == null) {
        buf = homeWriter.acquire();
        buf.limit(buf.capacity() - buf.capacity() % pageSize);
        bufArea = area;
        bufStart = page;
      }
      copySealed(k, buf);
      next = page + 1;
    }
    buf.flip();
    homeWriter.submit(areas.file(bufArea), bufStart, buf, done);
    homeWriter.flush();
  }
}
