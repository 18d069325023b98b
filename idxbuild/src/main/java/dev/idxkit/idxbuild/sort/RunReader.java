package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.spi.Keys;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Streams the entries of a {@link Run}, optionally only those in a key range {@code [from, to)},
 * reading its blocks ahead on a prefetch executor and checking every block.
 *
 * <p>Call order: {@link #open}; {@link #next()} until false (or stop early); {@link #close()},
 * always (try-with-resources), also after a failure.
 *
 * <p>Prefetch: the reader has {@code prefetchBlocks + 1} block buffers used as a ring. Opening
 * submits the reads of the first blocks to the executor; when the reader moves on to block {@code
 * b} it hands the buffer of block {@code b - 1} to the read of block {@code b + prefetchBlocks}. If
 * a read has not started when the reader needs it (the executor is busy, saturated, shut down, or
 * null), the reader runs it itself, so a reader never waits on a queue and a merge thread can share
 * a pool with its readers without deadlock. {@code close} cancels reads not started and waits for
 * the running ones, so after it returns no task of this reader runs and its files are closed.
 *
 * <p>Checks (damage ends in {@link CorruptRunException} naming the file and block offset, never in
 * a wrong entry or a hang): on the prefetch thread, those of {@link RunBlockFile#read} (short read,
 * header against the sparse index, CRC32C); while decoding, every varint and length against the
 * payload bounds, the first entry against the index, and each entry's order against its predecessor
 * (an O(1) check, since the shared prefix length the writer records is exactly where the two
 * differ).
 *
 * <p>Range: the reader starts at the first block that can hold {@code from} (sparse index binary
 * search) and skips entries below it; it never reads blocks whose first entry is {@code >= to}, and
 * compares entries with {@code to} only in the last block it reads.
 *
 * <p>Interrupts: a wait for a prefetch read ends in an {@code IdxkitException} with the interrupt
 * flag set; an interrupt during a read closes the file (the {@code FileChannel} contract) and the
 * reader fails with an I/O error. Either way the rebuild is being cancelled.
 *
 * <p>Memory: {@code (prefetchBlocks + 1) ×} the run's largest block, plus the current entry. One
 * open file per segment read so far. Not thread-safe (one consumer); the executor's threads only
 * fill buffers.
 */
public final class RunReader implements EntrySource {
  private static final byte[] NONE = {};

  private enum State {
    OPEN,
    CLOSED
  }

  private static final class Slot {
    byte[] buf = NONE;
    BlockRead read;
  }

  /**
   * One block read. Its state says whether it has started, which {@code FutureTask.cancel} does not
   * (a running FutureTask can be cancelled and then reports done while its read goes on).
   */
  private final class BlockRead implements Runnable {
    static final int PENDING = 0;
    static final int RUNNING = 1;
    static final int DONE = 2;
    static final int CANCELLED = 3;

    private final AtomicInteger state = new AtomicInteger(PENDING);
    private final int block;
    private final byte[] dst;
    private Throwable failure; // published by the DONE transition under the monitor

    BlockRead(int block, byte[] dst) {
      this.block = block;
      this.dst = dst;
    }

    @Override
    public void run() {
      if (!state.compareAndSet(PENDING, RUNNING)) {
        return;
      }
      Throwable f = null;
      try {
        files.read(block, dst);
      } catch (Throwable t) { // handed to the consumer, which rethrows it
        f = t;
      }
      synchronized (this) {
        failure = f;
        state.set(DONE);
        notifyAll();
      }
    }

    /** True when the read had not started and now never will. */
    boolean cancel() {
      return state.compareAndSet(PENDING, CANCELLED);
    }

    /** Waits while another thread runs the read; returns its failure or null. */
    synchronized Throwable awaitDone() throws InterruptedException {
      while (state.get() == RUNNING) {
        wait();
      }
      return failure;
    }

    synchronized void awaitDoneUninterruptibly() {
      boolean interrupted = false;
      while (state.get() == RUNNING) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private final Run run;
  private final Executor executor;
  private final byte[] from;
  private final byte[] to;
  private final int startBlock;
  private final int endBlock;
  private final Slot[] slots;
  private final RunBlockFile files;
  private State state = State.OPEN;

  private int block = -1; // block being decoded
  private byte[] buf = NONE;
  private int p;
  private int payloadEnd;
  private int remaining;
  private boolean firstInBlock;
  private boolean lastBlock;
  private boolean checkFrom;
  private boolean ended;
  private boolean hasEntry;
  private byte[] cur = new byte[64];
  private int curLen;

  /** Reads the whole run. */
  public static RunReader open(Run run, Executor prefetchExecutor, int prefetchBlocks) {
    return open(run, prefetchExecutor, prefetchBlocks, null, null);
  }

  /**
   * Reads the entries of {@code run} in {@code [from, to)}.
   *
   * @param prefetchExecutor runs the block reads ahead; null reads on the caller's thread
   * @param prefetchBlocks blocks read ahead of the one being consumed, 0..64
   * @param from first entry wanted (inclusive), null for the start
   * @param to end of the range (exclusive), null for the end
   */
  public static RunReader open(
      Run run, Executor prefetchExecutor, int prefetchBlocks, byte[] from, byte[] to) {
    return new RunReader(run, prefetchExecutor, prefetchBlocks, from, to);
  }

  /**
   * A pool for {@link #open}'s prefetch reads: {@code threads} daemon threads named {@code
   * idxbuild-prefetch-<n>}. The caller owns it and shuts it down.
   */
  public static ExecutorService newPrefetchExecutor(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads : " + threads + " (expected: >= 1)");
    }
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(
        threads,
        r -> {
          Thread t = new Thread(r, "idxbuild-prefetch-" + n.getAndIncrement());
          t.setDaemon(true);
          return t;
        });
  }

  private RunReader(Run run, Executor executor, int prefetchBlocks, byte[] from, byte[] to) {
    if (prefetchBlocks < 0 || prefetchBlocks > 64) {
      throw new IllegalArgumentException(
          "prefetchBlocks : " + prefetchBlocks + " (expected: 0..64)");
    }
    if (run.isDeleted()) {
      throw new IllegalStateException("cannot read a deleted run: " + run);
    }
    this.run = run;
    this.executor = executor;
    this.from = from == null ? null : from.clone();
    this.to = to == null ? null : to.clone();
    this.startBlock = from == null ? 0 : run.firstBlockFor(from);
    this.endBlock = Math.max(startBlock, to == null ? run.blocks() : run.endBlockFor(to));
    this.checkFrom = from != null;
    this.slots = new Slot[prefetchBlocks + 1];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = new Slot();
    }
    this.files = new RunBlockFile(run);
    for (int b = startBlock; b < Math.min(endBlock, startBlock + slots.length); b++) {
      schedule(b);
    }
  }

  @Override
  public boolean next() {
    hasEntry = false;
    if (state != State.OPEN || ended) {
      return false;
    }
    while (true) {
      if (remaining > 0) {
        decodeEntry();
        if (checkFrom) {
          if (Keys.compare(cur, 0, curLen, from, 0, from.length) < 0) {
            continue;
          }
          checkFrom = false;
        }
        if (lastBlock && to != null && Keys.compare(cur, 0, curLen, to, 0, to.length) >= 0) {
          end();
          return false;
        }
        hasEntry = true;
        return true;
      }
      if (!nextBlock()) {
        end();
        return false;
      }
    }
  }

  @Override
  public byte[] array() {
    checkEntry();
    return cur;
  }

  @Override
  public int offset() {
    checkEntry();
    return 0;
  }

  @Override
  public int length() {
    checkEntry();
    return curLen;
  }

  public Run run() {
    return run;
  }

  /**
   * Cancels reads not started, waits for running ones, closes the files. Idempotent. An interrupt
   * during the wait is kept for the caller, after the wait (a block read is short).
   */
  @Override
  public void close() {
    if (state == State.CLOSED) {
      return;
    }
    state = State.CLOSED;
    hasEntry = false;
    quiesce();
    buf = NONE;
    for (Slot s : slots) {
      s.buf = NONE;
      s.read = null;
    }
    files.close();
  }

  private void end() {
    ended = true;
    hasEntry = false;
    remaining = 0;
    // Give the buffers and files back now: a merge over many runs keeps the exhausted ones open.
    quiesce();
    buf = NONE;
    for (Slot s : slots) {
      s.buf = NONE;
      s.read = null;
    }
    files.close();
  }

  private boolean nextBlock() {
    if (block >= 0 && p != payloadEnd) {
      throw corrupt(block, (payloadEnd - p) + " payload bytes after the last entry");
    }
    int b = block < 0 ? startBlock : block + 1;
    if (b >= endBlock) {
      return false;
    }
    if (block >= 0 && block + slots.length < endBlock) {
      schedule(block + slots.length); // takes the buffer of the block just finished
    }
    Slot s = slots[b % slots.length];
    await(s, b);
    block = b;
    buf = s.buf;
    p = RunFormat.HEADER;
    payloadEnd = RunFormat.HEADER + RunFormat.readInt(buf, 12);
    remaining = RunFormat.readInt(buf, 8);
    firstInBlock = true;
    lastBlock = b == endBlock - 1;
    return true;
  }

  private void decodeEntry() {
    int shared = readVarint();
    int suffix = readVarint();
    if (suffix > payloadEnd - p) {
      throw corrupt(block, "entry of " + suffix + " bytes runs past the payload end");
    }
    if (firstInBlock) {
      if (shared != 0) {
        throw corrupt(block, "first entry shares " + shared + " bytes with no predecessor");
      }
      if (hasPrevious() && Arrays.compareUnsigned(buf, p, p + suffix, cur, 0, curLen) < 0) {
        throw corrupt(block, "first entry sorts below the last entry of the previous block");
      }
    } else {
      if (shared > curLen) {
        throw corrupt(
            block, "entry shares " + shared + " bytes with a " + curLen + "-byte predecessor");
      }
      // The writer records exactly where an entry first differs from its predecessor.
      if (shared < curLen && (suffix == 0 || (buf[p] & 0xFF) <= (cur[shared] & 0xFF))) {
        throw corrupt(block, "entries out of order");
      }
    }
    int len = shared + suffix;
    if (len > cur.length) {
      cur = Arrays.copyOf(cur, Math.max(len, 2 * cur.length));
    }
    System.arraycopy(buf, p, cur, shared, suffix);
    p += suffix;
    curLen = len;
    remaining--;
    if (firstInBlock) {
      firstInBlock = false;
      if (!run.firstEquals(block, cur, 0, len)) {
        throw corrupt(block, "first entry differs from the one recorded when the run was written");
      }
    }
    if (remaining == 0 && p != payloadEnd) {
      throw corrupt(block, (payloadEnd - p) + " payload bytes after the last entry");
    }
  }

  // True when cur holds an entry of an earlier block of this reader.
  private boolean hasPrevious() {
    return block > startBlock;
  }

  private int readVarint() {
    int v = 0;
    for (int i = 0; i < 5; i++) {
      if (p >= payloadEnd) {
        throw corrupt(block, "entry header runs past the payload end");
      }
      int b = buf[p++] & 0xFF;
      v |= (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        if (i == 4 && b > 0x07) {
          break; // more than 31 bits
        }
        return v;
      }
    }
    throw corrupt(block, "malformed length in an entry header");
  }

  private void schedule(int b) {
    Slot s = slots[b % slots.length];
    int need = run.blockLength(b);
    if (s.buf.length < need) {
      s.buf = new byte[Math.max(need, run.maxBlockLength())];
    }
    s.read = new BlockRead(b, s.buf);
    if (executor != null) {
      try {
        executor.execute(s.read);
      } catch (RejectedExecutionException e) {
        // the executor is shutting down: the reader runs the read itself in await
      }
    }
  }

  private void await(Slot s, int b) {
    BlockRead r = s.read;
    r.run(); // no-op when a prefetch thread has started or finished it
    Throwable c;
    try {
      c = r.awaitDone();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IdxkitException(
          "interrupted while reading block " + b + " of sort run file " + fileOf(b));
    }
    if (c == null) {
      return;
    }
    if (c instanceof RuntimeException) {
      throw (RuntimeException) c;
    }
    if (c instanceof Error) {
      throw (Error) c;
    }
    throw new IdxkitException("reading sort run file " + fileOf(b) + " failed", c);
  }

  /** Cancels reads not started and waits for running ones, keeping an interrupt for later. */
  private void quiesce() {
    for (Slot s : slots) {
      BlockRead r = s.read;
      if (r != null && !r.cancel()) {
        r.awaitDoneUninterruptibly();
      }
    }
  }

  private Path fileOf(int b) {
    return files.fileOf(b);
  }

  private CorruptRunException corrupt(int b, String detail) {
    return new CorruptRunException(fileOf(b), run.blockOffset(b), detail);
  }

  private void checkEntry() {
    if (!hasEntry) {
      throw new IllegalStateException("no current entry: next() returned false or was not called");
    }
  }
}
