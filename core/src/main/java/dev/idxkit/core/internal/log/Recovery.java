package dev.idxkit.core.internal.log;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.meta.MetaEdits;
import dev.idxkit.core.internal.meta.MetaFile;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Recovery at open: brings the in-memory state back to the last committed transaction in the log.
 *
 * <p>Call order (the store's open): {@link #checkMetaMatchesLog} once the meta and the log are
 * open; then {@link #replay}; then the store checks its area files against the recovered meta;
 * then, when opened read-write and the log holds anything but an empty segment of the current
 * format, a checkpoint, which writes the replayed pages home and starts the log afresh in one
 * segment, so a crash during recovery recovers the same way again. A log of an older format (1:
 * page images; 2: redo records of sealed images; 3: redo records starting each page with its image)
 * is replayed the same way; that checkpoint starts a log of the current format, so nothing is
 * appended to it.
 *
 * <p>Steps of {@link #replay}:
 *
 * <ol>
 *   <li>Start from the newest valid meta slot: its state, free lists and checkpoint LSN.
 *   <li>If a checkpoint after that LSN sealed its double write ({@link DoubleWrite}) and then died
 *       writing pages home, install its images in the {@link PageIndex}: they are every page that
 *       checkpoint was writing, as of its LSN, but those formatted since the last checkpoint; and
 *       some home copies may be torn.
 *   <li>Read the log ({@link WalReader}) and, for every transaction whose COMMIT frame is intact
 *       and whose LSN is above the checkpoint LSN, apply its redo records to the index in log order
 *       (a page the double write holds skips its records up to the double write's LSN, which its
 *       image holds) and its meta edits to the state and free lists. Every other page the dying
 *       checkpoint wrote home starts with a FRESH record after the checkpoint LSN, so its torn home
 *       copy is never read. A FRESH record makes the page from zeros; a delta applies to the image
 *       an earlier record (or the double write) installed or, for a page's first change since the
 *       checkpoint (format 4), to a copy of its home copy, whose checksum is checked as it is read:
 *       that copy was fsynced by the checkpoint and no checkpoint has written it since without its
 *       image in a sealed double write. A delta whose base holds another lsn refuses the open
 *       ({@link CorruptDatabaseException}). Areas created by a replayed DDL transaction are opened
 *       as their edit is applied.
 *   <li>Stop at the first torn or foreign frame: that transaction and all after it are discarded,
 *       and a read-write open truncates the log there. The log has two segments ({@link
 *       WalSegments}); they are read in the order of their first transaction, the second only when
 *       the first ended cleanly.
 * </ol>
 *
 * <p>Replaying is idempotent: every replay starts from the meta of the last checkpoint and an empty
 * index and applies the same records in the same order, so replaying the same log twice gives the
 * same state. Memory: the page index (one buffer per page in the log or the double write) and one
 * transaction's frames while it is read.
 */
public final class Recovery {
  private Recovery() {}

  /** What replay recovered: the meta state as of the last committed transaction, and the log. */
  public record Outcome(MetaState state, WalReader.Result log) {}

  /**
   * Refuses to open from the older meta slot when the newest one was written whole and damaged
   * later. Every meta write records the salt of the log that follows it, and the log is reset with
   * that salt right after. So when open had to fall back (the other slot is unreadable), the older
   * slot still describes the files only if the log carries its salt: the newest slot was torn while
   * being written, before the reset. A log with another salt continues from a newer meta than the
   * one left, and the work between the two is in the area files but in no meta and no log;
   * answering from the older slot would silently lose it or point at the wrong pages.
   *
   * @throws CorruptDatabaseException naming the meta file when the older slot is out of date
   */
  public static void checkMetaMatchesLog(MetaFile metaFile, WalSegments log) {
    String otherProblem = metaFile.otherSlotProblem();
    long metaSalt = metaFile.walSalt();
    if (otherProblem == null || metaSalt == 0) {
      return; // the newest slot is the current one, or a file from before salts were recorded
    }
    long[] salts = log.headerSalts();
    // The older slot's log is either segment: a checkpoint beside the commits switches segments
    // when it starts and writes its meta when it ends, so a torn newest slot leaves both.
    long logSalt = salts[0] == metaSalt || salts[1] == metaSalt ? metaSalt : salts[0];
    if (logSalt == metaSalt || (logSalt == 0 && metaFile.generation() == 1)) {
      return; // a torn write of the newest slot, or a create stopped before the log was made
    }
    throw new CorruptDatabaseException(
        metaFile.path(),
        "meta slot "
            + (1 - metaFile.currentSlot())
            + " is damaged ("
            + otherProblem
            + ") and the write-ahead log "
            + (logSalt == 0 ? "has no valid header" : "continues from it")
            + ", so the other slot (generation "
            + metaFile.generation()
            + ") is out of date; opening from it would lose the work since; restore the"
            + " database from a backup");
  }

  /**
   * Replays the committed transactions after {@code checkpointed}'s LSN into {@code index} and
   * {@code free} (changed in place); {@code openAreas} is called after each transaction's edits
   * with the state so far, to open the area files it created. A checkpoint's double write in {@code
   * dir} that applies ({@link DoubleWrite#find}) is installed first, and the transactions it holds
   * give only their edits; the first delta of any other page is applied to its home copy, read
   * through {@code home}.
   */
  public static Outcome replay(
      Path dir,
      WalSegments log,
      MetaFile metaFile,
      MetaState checkpointed,
      List<FreeList> free,
      PageIndex index,
      PageIndex.HomeCopies home,
      Consumer<MetaState.Builder> openAreas,
      MetaEdits.BufferSink buffers,
      boolean readOnly) {
    MetaState.Builder b = checkpointed.toBuilder();
    int pageSize = log.pageSize();
    DoubleWrite.Found images = DoubleWrite.find(dir, pageSize, checkpointed.checkpointLsn());
    Folded folded = new Folded(images == null ? 0 : images.checkpointLsn());
    if (images != null) {
      DoubleWrite.forEachImage(
          images,
          pageSize,
          (area, pageNo, image) -> {
            index.installCopy(area, pageNo, image);
            folded.pages.add(PageIndex.key(area, pageNo));
          });
    }
    WalReader.Result r = null;
    for (Wal wal : log.inReplayOrder()) {
      if (r != null && !r.endedCleanly()) {
        // The earlier segment was fsynced before the first commit went to this one; one that ends
        // early was damaged, and what follows it would be replayed after a gap.
        break;
      }
      WalReader.Result one =
          replaySegment(
              wal,
              metaFile,
              checkpointed,
              folded,
              free,
              index,
              home,
              openAreas,
              b,
              buffers,
              readOnly);
      r = r == null ? one : r.then(one);
    }
    if (images != null && r.lastLsn() < images.checkpointLsn()) {
      // The set was sealed after the log's fsync, so the log holds every transaction it folds.
      throw new CorruptDatabaseException(
          log.current().path(),
          "the log ends at transaction "
              + r.lastLsn()
              + " (expected: at least "
              + images.checkpointLsn()
              + ", the checkpoint of the double write "
              + images.path()
              + ")");
    }
    return new Outcome(b.build(), r);
  }

  /**
   * The pages a double write holds, as of {@code lsn}: their records up to it are in the images.
   */
  private record Folded(long lsn, Set<Long> pages) {
    Folded(long lsn) {
      this(lsn, new HashSet<>());
    }

    boolean holds(int area, long pageNo, long recordLsn) {
      return recordLsn <= lsn && pages.contains(PageIndex.key(area, pageNo));
    }
  }

  private static WalReader.Result replaySegment(
      Wal wal,
      MetaFile metaFile,
      MetaState checkpointed,
      Folded folded,
      List<FreeList> free,
      PageIndex index,
      PageIndex.HomeCopies home,
      Consumer<MetaState.Builder> openAreas,
      MetaState.Builder b,
      MetaEdits.BufferSink buffers,
      boolean readOnly) {
    return WalReader.recover(
        wal,
        checkpointed.checkpointLsn(),
        metaFile.walSalt(),
        new WalReader.Replay() {
          @Override
          public void page(int area, long pageNo, Page image) {
            if (!folded.holds(area, pageNo, image.lsn())) {
              index.installCopy(area, pageNo, image);
            }
          }

          @Override
          public void redo(
              ByteBuffer record, int pos, long lsn, int logVersion, RedoRecord.Layout layout) {
            try {
              RedoRecord.Header h = RedoRecord.readHeader(record, pos, wal.pageSize(), layout, lsn);
              if (folded.holds(h.area(), h.pageNo(), lsn)) {
                return;
              }
              index.applyRedo(
                  record,
                  pos,
                  lsn,
                  logVersion == RedoRecord.FORMAT_VERSION_SEALED,
                  homeCopiesAllowed(logVersion) ? home : null,
                  layout);
            } catch (IllegalArgumentException e) {
              throw new CorruptDatabaseException(
                  wal.path(), "transaction " + lsn + ": " + e.getMessage());
            }
          }

          @Override
          public void commit(long lsn, byte[] edits) {
            commit(lsn, edits, WalFormat.FORMAT_VERSION);
          }

          @Override
          public void commit(long lsn, byte[] edits, int logVersion) {
            try {
              // Only format 5 writes change-buffer edits: in an older log one is damage.
              boolean current = logVersion == WalFormat.FORMAT_VERSION || logVersion == 0;
              MetaEdits.replay(edits, b, free, current ? buffers : null);
            } catch (IllegalArgumentException e) {
              throw new CorruptDatabaseException(
                  wal.path(), "transaction " + lsn + ": " + e.getMessage());
            }
            openAreas.accept(b);
          }
        },
        readOnly);
  }

  /**
   * Formats 4 and 5 apply a page's first delta since the checkpoint to its home copy; older formats
   * started every page with a full image, so there a delta with nothing before it is damage. A log
   * whose header is damaged (version 0) is read as the current format.
   */
  private static boolean homeCopiesAllowed(int logVersion) {
    return logVersion == WalFormat.FORMAT_VERSION
        || logVersion == WalFormat.FORMAT_VERSION_NO_BUFFERS
        || logVersion == 0;
  }
}
