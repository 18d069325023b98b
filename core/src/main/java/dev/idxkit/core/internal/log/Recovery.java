package dev.idxkit.core.internal.log;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.meta.MetaEdits;
import dev.idxkit.core.internal.meta.MetaFile;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;

/**
 * Recovery at open: brings the in-memory state back to the last committed transaction in the log.
 *
 * <p>Call order (the store's open): {@link #checkMetaMatchesLog} once the meta and the log are
 * open; then {@link #replay}; then the store checks its area files against the recovered meta;
 * then, when opened read-write, {@link #prepareLog} and a checkpoint, which writes the replayed
 * pages home and cuts the log, so a crash during recovery recovers the same way again. A log of an
 * older format (1: page images; 2: redo records of sealed images) is replayed the same way; the
 * checkpoint (or, when it was empty, {@link #prepareLog}) starts a log of the current format, so
 * nothing is appended to it.
 *
 * <p>Steps of {@link #replay}:
 *
 * <ol>
 *   <li>Start from the newest valid meta slot: its state, free lists and checkpoint LSN.
 *   <li>Read the log ({@link WalReader}) and, for every transaction whose COMMIT frame is intact
 *       and whose LSN is above the checkpoint LSN, apply its redo records to the {@link PageIndex}
 *       in log order (a full image installs the page, a delta changes the image an earlier record
 *       of this log installed: a page's first record after a checkpoint is always its full image,
 *       so no delta is ever applied to a home copy a crash may have torn) and its meta edits to the
 *       state and free lists. A delta whose page is not in the index or holds another lsn than the
 *       delta's base refuses the open ({@link CorruptDatabaseException}). Areas created by a
 *       replayed DDL transaction are opened as their edit is applied.
 *   <li>Stop at the first torn or foreign frame: that transaction and all after it are discarded,
 *       and a read-write open truncates the log there.
 * </ol>
 *
 * <p>Replaying is idempotent: every replay starts from the meta of the last checkpoint and an empty
 * index and applies the same records in the same order, so replaying the same log twice gives the
 * same state. Memory: the page index (one buffer per page in the log) and one transaction's frames
 * while it is read.
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
  public static void checkMetaMatchesLog(MetaFile metaFile, Wal wal) {
    String otherProblem = metaFile.otherSlotProblem();
    long metaSalt = metaFile.walSalt();
    if (otherProblem == null || metaSalt == 0) {
      return; // the newest slot is the current one, or a file from before salts were recorded
    }
    long logSalt = wal.headerSalt();
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
   * with the state so far, to open the area files it created.
   */
  public static Outcome replay(
      Wal wal,
      MetaFile metaFile,
      MetaState checkpointed,
      List<FreeList> free,
      PageIndex index,
      Consumer<MetaState.Builder> openAreas,
      boolean readOnly) {
    MetaState.Builder b = checkpointed.toBuilder();
    WalReader.Result r =
        WalReader.recover(
            wal,
            checkpointed.checkpointLsn(),
            metaFile.walSalt(),
            new WalReader.Replay() {
              @Override
              public void page(int area, long pageNo, Page image) {
                index.installCopy(area, pageNo, image);
              }

              @Override
              public void redo(ByteBuffer record, int pos, long lsn, boolean sealed) {
                try {
                  index.applyRedo(record, pos, lsn, sealed);
                } catch (IllegalArgumentException e) {
                  throw new CorruptDatabaseException(
                      wal.path(), "transaction " + lsn + ": " + e.getMessage());
                }
              }

              @Override
              public void commit(long lsn, byte[] edits) {
                try {
                  MetaEdits.replay(edits, b, free);
                } catch (IllegalArgumentException e) {
                  throw new CorruptDatabaseException(
                      wal.path(), "transaction " + lsn + ": " + e.getMessage());
                }
                openAreas.accept(b);
              }
            },
            readOnly);
    return new Outcome(b.build(), r);
  }

  /**
   * Before the recovery checkpoint of a read-write open: a log whose header is invalid and which
   * held nothing to replay is started afresh. With replayed work the checkpoint resets the log
   * after its meta write instead, so a crash before then recovers the same way again. The log gets
   * back the salt the meta recorded for it: a random one would make a later open that finds the
   * older slot damaged believe the newest one is out of date ({@link #checkMetaMatchesLog}).
   */
  public static void prepareLog(Wal wal, MetaFile metaFile, WalReader.Result r) {
    if (!r.headerValid() && r.transactions() == 0) {
      long salt = metaFile.walSalt();
      wal.reset(salt != 0 ? salt : WalFormat.newSalt());
    } else if (r.headerValid()
        && r.version() != WalFormat.FORMAT_VERSION
        && wal.size() <= WalFormat.HEADER_SIZE) {
      // An empty log of an older format: the checkpoint that follows has nothing to do and would
      // not reset it, so it is started afresh in the current format here, with the same salt.
      wal.reset(wal.salt());
    }
  }
}
