package dev.idxkit.jmh.experiments;

import dev.idxkit.core.Database;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Index;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.KeyRange;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Transaction;
import dev.idxkit.jmh.experiments.PassState.Measurement;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;

/**
 * The accounting job of the {@code accounting} experiment, restartable: scan {@code objects} in id
 * order, look up each file's bitfile by its UUID in {@code bitfiles_pk}, and add its bytes to the
 * owner's, group's and account's totals and to a size histogram; directories and links are counted
 * and skipped.
 *
 * <p>Call order: construct, {@link #run(boolean)} (from any thread, {@link #cancel()} stops it at
 * the next block with a checkpoint). The pass is run once per reader configuration (e.g. 1, 2, 4
 * readers), each over both phases:
 *
 * <ol>
 *   <li>Phase "clustered" (objects {@code 0 .. clustered - 1}): their bitfiles were made in a
 *       burst, so the lookups walk neighbouring keys. Phase "random" (the rest): lookups in an
 *       order unrelated to the key.
 *   <li>Before the first measurement (after a resume too), each phase is read unrecorded for {@code
 *       warmupMillis}, so the first configuration does not pay for compiling.
 *   <li>A phase's id range is cut into one contiguous slice per reader. Each reader (on the
 *       executor passed in) scans its slice with {@code objects_pk} range scans of {@link #BLOCK}
 *       ids, tallies into a tally of its own per block, and hands (slice, position, tally) to the
 *       calling thread, which adds it to the pass's tally and moves that slice's position.
 *   <li>Every {@code checkpointLookups} lookups, at the end of each phase and when cancelled, the
 *       calling thread commits the {@link PassState} (positions + the tally of exactly the objects
 *       before them) as a database resume point with a synced log. A killed pass resumes from it:
 *       blocks after it are read again, and counted once.
 *   <li>When a configuration's phases are done its tally must equal the first configuration's (same
 *       objects, any number of readers): a difference fails the run. When all are done the resume
 *       point is removed.
 * </ol>
 *
 * <p>Why a resume point and not a state file: the checkpoint then lives and dies with the database
 * it describes (copy the database, the position goes along; recreate it, the stale position goes),
 * and the log's commit makes it atomic and durable without a rename-and-fsync protocol of its own.
 *
 * <p>Memory: a tally (about 12 KB) per block in flight, and at most one block in flight per reader:
 * a reader takes a permit before it reads a block and the calling thread gives it back once the
 * block is counted. The bound is also what makes {@link #cancel()} stop a phase: unbounded, readers
 * of a cached table finished their whole slices before the calling thread reached the checkpoint
 * that cancelled, and the cancel fell into the next configuration. Disk: a log record per
 * checkpoint.
 */
final class AccountingPass {
  /** Objects per range scan and per message from a reader. */
  static final int BLOCK = 2048;

  static final String[] PHASES = {"clustered", "random"};

  /** What a run reports as it goes; called on the thread that runs the pass. */
  interface Listener {
    Listener NONE = new Listener() {};

    default void checkpoint(PassState state) {}

    default void phaseDone(Measurement m) {}

    /** Before a phase's readers start and its clock runs (the cold run evicts the cache here). */
    default void beforePhase(PassState state) {}
  }

  enum Outcome {
    COMPLETED,
    CANCELLED
  }

  /**
   * @param measurements every finished phase of this pass (also those before a resume)
   * @param tally the first configuration's tally if one finished, else the current one's so far
   */
  record Result(Outcome outcome, List<Measurement> measurements, Tally tally) {}

  private final Database db;
  private final AccountingData data;
  private final int[] readers;
  private final long checkpointLookups;
  private final long warmupMillis;
  private final ExecutorService pool;
  private final Listener listener;
  private volatile boolean cancelled;

  AccountingPass(
      Database db,
      AccountingData data,
      int[] readers,
      long checkpointLookups,
      long warmupMillis,
      ExecutorService pool,
      Listener listener) {
    this.db = db;
    this.data = data;
    this.readers = readers.clone();
    this.checkpointLookups = checkpointLookups;
    this.warmupMillis = warmupMillis;
    this.pool = pool;
    this.listener = listener;
  }

  /** Stops the pass after the blocks being read, with a checkpoint; safe from any thread. */
  void cancel() {
    cancelled = true;
  }

  /** The unfinished pass's checkpoint in {@code db}, if there is one. */
  static PassState unfinished(Database db) {
    byte[] b = db.resumePoint(PassState.KEY);
    return b == null ? null : PassState.decode(b);
  }

  /**
   * Runs (or, if {@code resume}, continues) the pass.
   *
   * @throws InvalidInputException if {@code resume} and there is no matching checkpoint
   */
  Result run(boolean resume) throws InterruptedException {
    long fingerprint = fingerprint(data.identity());
    PassState s;
    if (resume) {
      s = unfinished(db);
      if (s == null) {
        throw new InvalidInputException(
            "--resume: no unfinished accounting pass in " + db.dir() + " (run without --resume)");
      }
      if (!s.matches(readers, fingerprint)) {
        throw new InvalidInputException(
            "--resume: the unfinished pass in "
                + db.dir()
                + " was started with other readers or data (run without --resume to start over)");
      }
      s.resumed = true;
    } else {
      s = new PassState(readers, fingerprint);
      startPhase(s);
    }
    warmUp();
    while (s.config < readers.length) {
      if (!runPhase(s)) {
        checkpoint(s);
        return new Result(Outcome.CANCELLED, List.copyOf(s.done), current(s));
      }
      Measurement m =
          new Measurement(readers[s.config], s.phase, s.resumed, s.objects, s.lookups, s.nanos);
      s.done.add(m);
      listener.phaseDone(m);
      if (++s.phase == PHASES.length) {
        if (s.reference == null) {
          s.reference = s.tally;
        } else if (!s.reference.equals(s.tally)) {
          throw new IllegalStateException(
              "the tally with "
                  + readers[s.config]
                  + " readers differs from the one with "
                  + readers[0]
                  + ": "
                  + s.tally
                  + " vs "
                  + s.reference);
        }
        s.tally = new Tally();
        s.phase = 0;
        s.config++;
      }
      if (s.config < readers.length) {
        startPhase(s);
        checkpoint(s);
      }
    }
    try (Transaction t = db.begin(Durability.SYNC)) {
      t.setResumePoint(PassState.KEY, null);
      t.commit();
    }
    return new Result(Outcome.COMPLETED, List.copyOf(s.done), s.reference);
  }

  /**
   * Reads each phase's objects from its start, unrecorded, on the calling thread for {@code
   * warmupMillis} (wrapping around a short phase), so that the first configuration measured does
   * not also pay for the JIT compiling the read path. A time rather than a count: on a loaded
   * machine the compiler threads get little CPU, and a fixed count measured them instead.
   */
  private void warmUp() {
    BlockingQueue<Block> discard = new LinkedBlockingQueue<>();
    Index objects = db.index("objects_pk");
    Index bitfiles = db.index("bitfiles_pk");
    for (int phase = 0; phase < PHASES.length && !cancelled; phase++) {
      long lo = phase == 0 ? 0 : data.clustered;
      long hi = phase == 0 ? data.clustered : data.objects;
      long deadline = System.nanoTime() + warmupMillis * 1_000_000L;
      for (long pos = lo; hi > lo && System.nanoTime() < deadline && !cancelled; ) {
        long end = Math.min(hi, pos + BLOCK);
        read(0, pos, end, objects, bitfiles, discard, null);
        discard.clear();
        pos = end == hi ? lo : end;
      }
    }
  }

  private static Tally current(PassState s) {
    return s.reference != null ? s.reference : s.tally;
  }

  private void startPhase(PassState s) {
    int r = readers[s.config];
    long lo = s.phase == 0 ? 0 : data.clustered;
    long hi = s.phase == 0 ? data.clustered : data.objects;
    s.next = new long[r];
    for (int i = 0; i < r; i++) {
      s.next[i] = lo + (hi - lo) * i / r;
    }
    s.objects = 0;
    s.lookups = 0;
    s.nanos = 0;
    s.resumed = false;
  }

  /** A reader's report: a block done, or the reader finished (then {@code error} may be set). */
  private record Block(
      int slice,
      long next,
      Tally tally,
      long objects,
      long lookups,
      Throwable error,
      boolean last) {}

  /** Runs the current phase to its end; false if cancelled first. */
  private boolean runPhase(PassState s) throws InterruptedException {
    int r = readers[s.config];
    long lo = s.phase == 0 ? 0 : data.clustered;
    long hi = s.phase == 0 ? data.clustered : data.objects;
    BlockingQueue<Block> q = new LinkedBlockingQueue<>();
    Semaphore inFlight = new Semaphore(r);
    Index objects = db.index("objects_pk");
    Index bitfiles = db.index("bitfiles_pk");
    listener.beforePhase(s);
    long baseNanos = s.nanos;
    long t0 = System.nanoTime();
    for (int i = 0; i < r; i++) {
      int slice = i;
      long from = s.next[i];
      long end = lo + (hi - lo) * (i + 1) / r;
      pool.execute(() -> read(slice, from, end, objects, bitfiles, q, inFlight));
    }
    int running = r;
    long lastCheckpoint = s.lookups;
    Throwable failure = null;
    InterruptedException interrupted = null;
    while (running > 0) {
      Block b;
      try {
        b = q.take();
      } catch (InterruptedException e) {
        interrupted = e;
        cancelled = true; // readers stop at their next block; wait for them below
        continue;
      }
      if (b.last()) {
        running--;
        if (b.error() != null && failure == null) {
          failure = b.error();
          cancelled = true;
        }
        continue;
      }
      s.next[b.slice()] = b.next();
      s.tally.add(b.tally());
      s.objects += b.objects();
      s.lookups += b.lookups();
      s.nanos = baseNanos + (System.nanoTime() - t0);
      if (failure == null
          && interrupted == null
          && s.lookups - lastCheckpoint >= checkpointLookups) {
        try {
          checkpoint(s);
        } catch (RuntimeException | Error e) {
          failure = e; // readers may wait on a permit: stop them, and keep draining
          cancelled = true;
        }
        lastCheckpoint = s.lookups;
      }
      inFlight.release();
    }
    s.nanos = baseNanos + (System.nanoTime() - t0);
    if (interrupted != null) {
      Thread.currentThread().interrupt();
      throw interrupted;
    }
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    if (failure != null) {
      throw new IllegalStateException("accounting reader failed", failure);
    }
    for (int i = 0; i < r; i++) {
      if (s.next[i] != lo + (hi - lo) * (i + 1) / r) {
        return false;
      }
    }
    return true;
  }

  /**
   * One reader's slice {@code from .. end - 1}, block by block, until done or cancelled; each block
   * under a permit of {@code inFlight} (none during the warm-up), which the calling thread gives
   * back once it has counted the block.
   */
  private void read(
      int slice,
      long from,
      long end,
      Index objects,
      Index bitfiles,
      BlockingQueue<Block> q,
      Semaphore inFlight) {
    Throwable error = null;
    try {
      for (long pos = from; pos < end && !cancelled; ) {
        if (inFlight != null) {
          inFlight.acquire();
          if (cancelled) {
            break;
          }
        }
        long blockEnd = Math.min(end, pos + BLOCK);
        Tally t = new Tally();
        long lookups = 0;
        long seen = 0;
        // ids are 1-based: objects pos .. blockEnd - 1 have ids pos + 1 .. blockEnd
        try (RowCursor c =
            objects.scan(
                KeyRange.closed(new Object[] {pos + 1}, new Object[] {blockEnd}), false, -1)) {
          while (c.hasNext()) {
            Row o = c.next();
            seen++;
            switch ((String) o.get(8)) {
              case "f" -> {
                lookups++;
                List<Row> hits = bitfiles.get(o.get(9));
                if (hits.isEmpty()) {
                  t.missing++;
                } else {
                  long bytes = (Long) hits.get(0).get(2);
                  if (bytes != (Long) o.get(4)) {
                    t.mismatched++;
                  }
                  t.file((Integer) o.get(1), (Integer) o.get(2), (Integer) o.get(3), bytes);
                }
              }
              case "d" -> t.directories++;
              default -> t.links++;
            }
          }
        }
        if (seen != blockEnd - pos) {
          throw new IllegalStateException(
              "objects ids "
                  + (pos + 1)
                  + ".."
                  + blockEnd
                  + ": "
                  + seen
                  + " rows (expected: "
                  + (blockEnd - pos)
                  + ")");
        }
        q.add(new Block(slice, blockEnd, t, seen, lookups, null, false));
        pos = blockEnd;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the executor is shutting down: report, then stop
      error = e;
    } catch (RuntimeException | Error e) {
      error = e;
    } finally {
      q.add(new Block(slice, -1, null, 0, 0, error, true));
    }
  }

  private void checkpoint(PassState s) {
    try (Transaction t = db.begin(Durability.SYNC)) {
      t.setResumePoint(PassState.KEY, s.encode());
      t.commit();
    }
    listener.checkpoint(s);
  }

  /** FNV-1a over the identity's UTF-8 bytes. */
  static long fingerprint(String identity) {
    long h = 0xcbf29ce484222325L;
    for (byte b : identity.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** All measurements as rows, for the results. */
  static List<Object[]> rows(List<Measurement> ms) {
    List<Object[]> out = new ArrayList<>();
    for (Measurement m : ms) {
      out.add(
          new Object[] {
            m.readers(), PHASES[m.phase()], m.objects(), m.lookups(), m.nanos() / 1e9, m.resumed()
          });
    }
    return out;
  }
}
