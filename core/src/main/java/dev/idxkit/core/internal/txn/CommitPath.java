package dev.idxkit.core.internal.txn;

import dev.idxkit.core.Durability;
import dev.idxkit.core.internal.io.PageBuffer;
import dev.idxkit.core.internal.io.PagePool;
import dev.idxkit.core.internal.log.DoubleWrite;
import dev.idxkit.core.internal.log.PageIndex;
import dev.idxkit.core.internal.log.PageOps;
import dev.idxkit.core.internal.log.Recovery;
import dev.idxkit.core.internal.log.Wal;
import dev.idxkit.core.internal.log.WalFormat;
import dev.idxkit.core.internal.log.WalReader;
import dev.idxkit.core.internal.log.WalSegments;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.internal.meta.MetaEdits;
import dev.idxkit.core.internal.meta.MetaFile;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Everything that advances the LSN or the meta generation, in the order the log requires: commits
 * into the log, checkpoints out of it, bulk publishes beside it, and recovery at open. The store's
 * writer (one at a time) is held by every caller, so nothing here is called concurrently; readers
 * see the results through {@link CommittedState}.
 *
 * <p>A commit ({@link #commit}): the next LSN; each changed page stamped with it (its checksum is
 * left for the checkpoint: the log frames have their own, {@link
 * dev.idxkit.core.internal.log.RedoRecord}); one log append ({@link Wal#append}) of a redo record
 * per page, a delta against the page's previous committed image in the page index or, for a page's
 * first change since the checkpoint, its full image; the pages installed as the newest committed
 * images and the meta made current, atomically for readers. Still holding the writer, the
 * transaction then checkpoints if the log has passed {@code checkpointBytes} or the dirty pages in
 * the index {@code dirtyPageBytes} ({@link #maybeCheckpoint}); after releasing it, it waits for
 * durability ({@link #afterCommit}), which is what lets one fsync serve every committer queued
 * behind it (group commit).
 *
 * <p>A checkpoint ({@link #checkpoint}) runs only when something changed since the last meta write;
 * {@link Checkpoint} does the writing. A bulk publish ({@link #publish}) happens on an empty log
 * (the bulk session began with a checkpoint) and writes one meta slot. Recovery ({@link #recover})
 * replays the log, checks the area files against the recovered meta, and (read-write) checkpoints.
 */
final class CommitPath implements AutoCloseable {
  private final Path dir;
  private final WalSegments wal;
  private final MetaFile metaFile;
  private final AreaFiles areas;
  private final CommittedState committed;
  private final StoreOptions options;
  private final Checkpoint checkpoint;
  private final PagePool pool;
  // The checkpoint running beside the commits, or null; the writer's to start and to finish.
  private Background running;
  // Why the last checkpoint beside the commits failed, until a checkpoint succeeds.
  private Throwable backgroundFailure;
  private ExecutorService checkpointThread;
  private long waitedNanos;
  private final int pageSize;
  private long lastLsn;
  // Merges every change buffer into its tree (through transactions of its own): run before each
  // checkpoint that holds the writer; one beside the commits snapshots the buffers instead.
  private Runnable mergeBuffers = () -> {};
  // Recovery's merge of the buffers in progress, if any: no checkpoint starts beside it.
  private RecoveryMerge recoveryMerge = RecoveryMerge.NONE;

  /** Which merge recovery runs before its checkpoint that holds the writer. */
  private enum RecoveryMerge {
    NONE,
    // Both log segments hold frames: logged on the later one, no empty segment to switch to.
    LOGGED,
    // A damaged log header: nothing can be appended, so not logged at all.
    UNLOGGED
  }

  CommitPath(
      Path dir,
      WalSegments wal,
      MetaFile metaFile,
      AreaFiles areas,
      CommittedState committed,
      StoreOptions options,
      int pageSize,
      PagePool pool) {
    this.pool = pool;
    this.wal = wal;
    this.metaFile = metaFile;
    this.areas = areas;
    this.committed = committed;
    this.options = options;
    this.dir = dir;
    this.checkpoint =
        new Checkpoint(
            wal, metaFile, areas, pageSize, options.writeBehind(), dir, options.fileIo());
    this.lastLsn = committed.meta().checkpointLsn();
    this.pageSize = pageSize;
  }

  void mergeBuffersWith(Runnable merge) {
    this.mergeBuffers = merge;
  }

  long lastLsn() {
    return lastLsn;
  }

  long logBytes() {
    return wal.size();
  }

  CheckpointStats lastCheckpoint() {
    return checkpoint.last();
  }

  /** Appends a commit to the log, then makes it visible. Returns the log offset after it. */
  long commit(StoreTxn txn, List<PageBuffer> pages, byte[] edits, MetaState next) {
    long lsn = lastLsn + 1;
    List<Page> images = new ArrayList<>(pages.size());
    List<Page> bases = new ArrayList<>(pages.size());
    List<PageOps> ops = new ArrayList<>(pages.size());
    for (PageBuffer b : pages) {
      // Taken off the page before the lsn is stamped: replay stamps it, so no operation need.
      ops.add(txn.detachOps(b));
      b.page.setLsn(lsn);
      images.add(b.page);
      // The previous committed image, still in the index until install() below replaces it; for a
      // page's first change since the checkpoint, its home copy (the one the transaction copied,
      // whole: the checkpoint that wrote it fsynced it after its double write); none (a FRESH
      // record) for a page the transaction formatted, whose home copy is never read.
      Page base = committed.inLog(b.page.areaId(), b.page.pageNo());
      if (base == null && !b.fresh) {
        base = areas.file(b.page.areaId()).read(b.page.pageNo());
      }
      bases.add(base);
    }
    // Recovery's merge of the buffers when it cannot start a checkpoint beside it: not logged, the
    // checkpoint that follows writes every page home before its meta; a crash before that meta
    // replays the same log and merges again.
    long end =
        recoveryMerge == RecoveryMerge.UNLOGGED ? -1 : wal.append(lsn, images, bases, ops, edits);
    for (int i = 0; i < pages.size(); i++) {
      // From here the flag says what was logged: a FRESH record (no base), or a delta against an
      // image still in one of the indexes (a page formatted again before its checkpoint).
      pages.get(i).fresh = bases.get(i) == null;
    }
    txn.giveBackOps(ops);
    lastLsn = lsn;
    committed.install(pages, txn::applyFrees, next);
    return end;
  }

  /** Makes a commit ending at {@code logEnd} as durable as asked; called without the writer. */
  void afterCommit(long logEnd, Durability durability) {
    switch (durability) {
      case SYNC -> wal.sync(logEnd);
      case ASYNC -> wal.syncLater(options.asyncFlushMillis());
      case OFF -> {}
    }
  }

  /**
   * Called by the committer while it still holds the writer: starts a checkpoint beside the commits
   * when the active page index passes half of {@code dirtyPageBytes} or the current log segment
   * half of {@code checkpointBytes}; waits for the one running when the dirty pages of both indexes
   * pass {@code dirtyPageBytes} or the segment passes {@code checkpointBytes}, so that neither
   * bound is ever exceeded by more than one transaction. After a checkpoint beside the commits
   * failed, the next one holds the writer (and throws if it fails too).
   */
  void maybeCheckpoint() {
    if (running != null && running.done.getCount() == 0) {
      finishBackground();
    }
    if (backgroundFailure != null) {
      checkpoint();
      return;
    }
    long dirty = committed.activeBytes();
    long log = wal.size();
    if (dirty <= options.dirtyPageBytes() / 2 && log <= options.checkpointBytes() / 2) {
      return;
    }
    if (running != null) {
      long frozen = (long) running.pages.size() * pageSize;
      if (dirty + frozen <= options.dirtyPageBytes() && log <= options.checkpointBytes()) {
        return;
      }
      long t0 = System.nanoTime();
      awaitBackground();
      waitedNanos += System.nanoTime() - t0;
      if (backgroundFailure != null) {
        checkpoint();
        return;
      }
    }
    startBackground();
  }

  /** Nanoseconds committers have waited for a checkpoint beside them to finish, since open. */
  long waitedNanos() {
    return waitedNanos;
  }

  /** The checkpoint running beside the commits: what it writes, and how it ended. */
  private static final class Background {
    final PageIndex pages;
    final CountDownLatch done = new CountDownLatch(1);
    volatile MetaState written;
    volatile Throwable failure;

    Background(PageIndex pages) {
      this.pages = pages;
    }
  }

  /**
   * Freezes the active index, switches the commits to the other log segment, and has the checkpoint
   * thread write the frozen pages home with the meta as of the last commit.
   */
  private void startBackground() {
    long atLsn = lastLsn;
    MetaState meta = committed.meta();
    List<FreeList> free = committed.freeListCopies();
    long salt = WalFormat.newSalt();
    Wal left = wal.switchSegments(salt);
    snapshotBuffers();
    Background bg = new Background(committed.freeze(pool));
    running = bg;
    checkpointThread()
        .execute(
            () -> {
              try {
                bg.written = checkpoint.writeBeside(bg.pages, meta, free, atLsn, salt, left);
              } catch (Throwable t) {
                bg.failure = t;
              } finally {
                bg.done.countDown();
              }
            });
  }

  /**
   * Writes the change buffers' contents as the first transaction of the log segment just started,
   * and fsyncs it: the checkpoint beside the commits will make the segment left behind obsolete,
   * and with it the commits that buffered those changes. Durable before the checkpoint's meta can
   * be, since the checkpoint thread starts after this. Nothing when every buffer is empty.
   */
  private void snapshotBuffers() {
    if (committed.buffers().isEmpty()) {
      return;
    }
    MetaEdits edits = new MetaEdits();
    committed.buffers().snapshot(edits);
    long lsn = lastLsn + 1;
    wal.append(lsn, List.of(), List.of(), List.of(), edits.toByteArray());
    lastLsn = lsn;
    wal.syncAll();
  }

  /**
   * As {@link #maybeCheckpoint}, for a merge of the change buffers in progress: starts (or waits
   * for) a checkpoint beside the commits when the bounds ask for one, but never one that holds the
   * writer (the caller's full checkpoint follows).
   */
  void maybeCheckpointBeside() {
    if (besideAllowed()) {
      maybeCheckpoint();
    }
  }

  /**
   * No checkpoint starts beside a merge after one beside the commits failed, nor during recovery's
   * merge: an unlogged one has nothing in the log to checkpoint, and a logged one runs on the later
   * of two segments that both hold frames, so there is no empty segment to switch to.
   */
  private boolean besideAllowed() {
    return backgroundFailure == null && recoveryMerge == RecoveryMerge.NONE;
  }

  /**
   * As {@link #maybeCheckpointBeside}, for a merge of every change buffer (one a checkpoint that
   * holds the writer follows, or one asked for): starts a checkpoint beside the merge as soon as
   * none runs and the pages changed since the last one pass {@code sliceBytes}, so that the pages
   * the merge changes go home in slices on the checkpoint thread while it goes on, instead of all
   * at the end on the writer's; each slice's buffers go back to the pool for the next pages. Past
   * the usual bounds it waits as any commit does.
   */
  void maybeCheckpointBesideMerge(long sliceBytes) {
    if (!besideAllowed()) {
      return;
    }
    if (running != null && running.done.getCount() == 0) {
      finishBackground();
      if (backgroundFailure != null) {
        return;
      }
    }
    if (running == null && committed.activeBytes() > sliceBytes) {
      startBackground();
      return;
    }
    maybeCheckpoint();
  }

  /** Waits for the checkpoint beside the commits, if one runs, and takes its outcome. */
  private void awaitBackground() {
    if (running == null) {
      return;
    }
    boolean interrupted = false;
    while (true) {
      try {
        running.done.await();
        break;
      } catch (InterruptedException e) {
        // The pages it writes are the writer's to drop: it must be seen to the end.
        interrupted = true;
      }
    }
    finishBackground();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void finishBackground() {
    Background bg = running;
    running = null;
    if (bg.failure == null) {
      committed.frozenHome(bg.written);
      backgroundFailure = null;
    } else {
      committed.thaw();
      backgroundFailure = bg.failure;
    }
  }

  private ExecutorService checkpointThread() {
    if (checkpointThread == null) {
      checkpointThread =
          Executors.newSingleThreadExecutor(
              r -> {
                Thread t = new Thread(r, "idxkit-checkpoint-" + dir.getFileName());
                t.setDaemon(true);
                return t;
              });
    }
    return checkpointThread;
  }

  /**
   * A checkpoint that holds the writer throughout: waits for one running beside the commits, then
   * writes every page committed since home, a meta slot, and starts the log afresh in one segment.
   * Does nothing when nothing changed and the log is one empty segment.
   */
  void checkpoint() {
    awaitBackground();
    if (!options.readOnly()) {
      // A checkpoint that holds the writer leaves no buffer behind (a closed database, or one a
      // bulk session is about to replace, has everything in its trees); the merge may have started
      // checkpoints beside it to keep within the dirty-page bound.
      mergeBuffers.run();
      awaitBackground();
    }
    if (options.readOnly()
        || (!committed.changedSinceMetaWrite() && !wal.holdsMoreThanAnEmptyLog())) {
      return;
    }
    // The images were stamped with their lsn at commit, not checksummed: the checkpoint seals each
    // copy it writes home, once, instead of at every commit that changed the page.
    committed.checkpointed(
        checkpoint.write(committed.index(), committed.meta(), committed.free(), lastLsn));
    backgroundFailure = null;
  }

  /**
   * A checkpoint as beside the commits, waited for: every commit durable and every dirty page home,
   * the change buffers kept (their snapshot heads the log segment the commits switch to, as in
   * {@link #startBackground}). Durability without the cost of a merge, which stays for later
   * (InnoDB's fast shutdown leaves its change buffer unmerged likewise). When a checkpoint beside
   * the commits failed before, or the change buffers are empty, a checkpoint that holds the writer
   * instead (both segments may hold frames then, and there is nothing to keep).
   */
  void checkpointKeepingBuffers() {
    awaitBackground();
    if (options.readOnly()) {
      return;
    }
    if (backgroundFailure != null || committed.buffers().isEmpty()) {
      checkpoint();
      return;
    }
    startBackground();
    awaitBackgroundOrThrow();
  }

  /** As {@link #awaitBackground}, then throws what the checkpoint beside failed with, if it did. */
  private void awaitBackgroundOrThrow() {
    awaitBackground();
    if (backgroundFailure != null) {
      Throwable t = backgroundFailure;
      throw t instanceof RuntimeException e ? e : new IllegalStateException(t);
    }
  }

  /** Publishes a bulk session's meta: one meta write, then the new state becomes visible. */
  void publish(MetaState.Builder next, List<FreeList> nextFree) {
    MetaState m =
        next.generation(checkpoint.nextGeneration(committed.meta())).checkpointLsn(lastLsn).build();
    // The session began with a checkpoint and holds the writer, so the log is empty: it is reset
    // with a new salt like after a checkpoint.
    if (wal.size() != WalFormat.HEADER_SIZE) {
      throw new IllegalStateException(
          "bulk publish with " + wal.size() + " bytes in the log (expected: an empty log)");
    }
    checkpoint.writeMetaAndResetLog(m, nextFree);
    committed.published(m, nextFree);
  }

  /** Recovery at open (see {@link Recovery}); returns what it found in the log. */
  WalReader.Result recover() {
    Recovery.checkMetaMatchesLog(metaFile, wal);
    Recovery.Outcome r =
        Recovery.replay(
            dir,
            wal,
            metaFile,
            committed.meta(),
            committed.free(),
            committed.index(),
            (area, pageNo) -> areas.file(area).read(pageNo),
            areas::openMissing,
            committed.buffers(),
            options.readOnly());
    committed.recovered(r.state(), r.log().transactions());
    lastLsn = Math.max(lastLsn, r.log().lastLsn());
    areas.checkLengths(r.state(), committed.free(), committed.index());
    if (!options.readOnly()) {
      if (wal.holdsMoreThanAnEmptyLog()
          || !r.log().headerValid()
          || r.log().version() != WalFormat.FORMAT_VERSION) {
        // Replayed work, a second segment, a damaged header or an older format: written home
        // (if anything) and started afresh in one segment of the current format.
        committed.markMetaDirty();
      }
      if (committed.buffers().isEmpty()) {
        checkpoint();
      } else {
        recoveryCheckpointKeepingBuffers();
      }
      // Every page is home under the meta now: a double write left by a checkpoint that finished
      // (a crash before its delete) or by the one just replayed is of no more use.
      DoubleWrite.deleteAll(dir);
    }
    return r.log();
  }

  /**
   * Recovery's checkpoint when the log left change buffers behind. When one segment holds the log
   * (under a valid header) and the other nothing, a checkpoint as beside the commits: the commits
   * resume on that segment, the checkpoint switches to the other (writing the buffers at its head),
   * writes the pages home and empties the first; nothing is merged, so an open costs what a
   * checkpoint costs. When both segments hold frames (a checkpoint beside the commits did not
   * finish) there is no segment to switch to: the buffers are merged by logged transactions
   * appended to the later segment, without the dirty-page bound, and a checkpoint that holds the
   * writer writes everything home and resets the log; a crash before its meta replays both
   * segments, the merge with them. When the log's header is damaged nothing can be appended: the
   * merge runs in memory without logging before that checkpoint (a crash inside it after its double
   * write is sealed is a known problem: the next open refuses the database).
   */
  private void recoveryCheckpointKeepingBuffers() {
    List<Wal> withData = new ArrayList<>();
    for (Wal w : wal.inReplayOrder()) {
      if (w.size() > WalFormat.HEADER_SIZE) {
        withData.add(w);
      }
    }
    if (withData.size() == 1 && WalSegments.holdsFrames(withData.get(0))) {
      wal.resumeOn(withData.get(0));
      startBackground();
      awaitBackgroundOrThrow();
      return;
    }
    if (withData.size() == 2 && WalSegments.holdsFrames(withData.get(1))) {
      // Both segments hold frames: the merge is logged on the later one, as the commits after the
      // switch were, with no checkpoint beside it (there is no empty segment to switch to); a
      // crash before the checkpoint below has written its meta replays both segments, the merge's
      // transactions with them. An unlogged merge here took sequence numbers the log never held,
      // and pages a crash in its checkpoint left in the double write or at home that the next
      // recovery merged into again.
      wal.resumeOn(withData.get(1));
      mergeThenCheckpoint(RecoveryMerge.LOGGED);
      return;
    }
    // A damaged log header: nothing can be appended. Known problem: a crash inside the checkpoint
    // below, after its double write is sealed, leaves images of an unlogged merge (see README).
    mergeThenCheckpoint(RecoveryMerge.UNLOGGED);
  }

  /**
   * Recovery's merge of every buffer, logged or not, with no checkpoint beside it, then a
   * checkpoint that holds the writer.
   */
  private void mergeThenCheckpoint(RecoveryMerge merge) {
    recoveryMerge = merge;
    try {
      mergeBuffers.run();
    } finally {
      recoveryMerge = RecoveryMerge.NONE;
    }
    committed.markMetaDirty();
    checkpoint();
  }

  @Override
  public void close() {
    awaitBackground();
    if (checkpointThread != null) {
      checkpointThread.shutdown();
    }
    checkpoint.close();
    wal.close();
  }
}
