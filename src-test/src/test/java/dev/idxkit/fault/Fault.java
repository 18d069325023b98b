package dev.idxkit.fault;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * One misbehaviour of the disk, for the files a predicate picks, installed in a {@link
 * FaultyFileIo}. Faults act only while {@linkplain #armed() armed}; each counts how often it acted
 * ({@link #hits()}), so a test can check that the fault it meant to test really happened.
 *
 * <ul>
 *   <li>{@link #shortWrites}: every write stores a random part of what it was given and says so (a
 *       legal {@code FileChannel} result callers must loop over);
 *   <li>{@link #diskFull} / {@link #ioErrorAfter}: after a budget of bytes, a write stores what
 *       still fits and throws {@code IOException("No space left on device")} or {@code
 *       "Input/output error"}; disk full stays full, an I/O error may be one-shot;
 *   <li>{@link #failingFsync}: {@code force} throws {@code "Input/output error"};
 *   <li>{@link #bitFlipOnRead}: reads covering a file offset return that byte with a bit flipped
 *       (the file itself is untouched);
 *   <li>{@link #failingReads}: reads throw {@code "Input/output error"}.
 * </ul>
 *
 * The messages are the kernel's own ({@code ENOSPC}, {@code EIO}) so error texts look as they would
 * on a real failure.
 */
public final class Fault {
  /** What the disk does wrong. */
  public enum Kind {
    SHORT_WRITES,
    WRITE_BUDGET,
    FAILING_FSYNC,
    BIT_FLIP_ON_READ,
    FAILING_READS
  }

  public static final String ENOSPC = "No space left on device";
  public static final String EIO = "Input/output error";

  private final Kind kind;
  private final Predicate<Path> files;
  private final String description;
  private final AtomicLong budget;
  private final boolean sticky;
  private final String message;
  private final long offset;
  private final int bit;
  private final SplittableRandom random;
  private final AtomicInteger hits = new AtomicInteger();
  private volatile boolean armed = true;

  private Fault(
      Kind kind,
      Predicate<Path> files,
      String description,
      long budget,
      boolean sticky,
      String message,
      long offset,
      int bit,
      long seed) {
    this.kind = kind;
    this.files = files;
    this.description = description;
    this.budget = new AtomicLong(budget);
    this.sticky = sticky;
    this.message = message;
    this.offset = offset;
    this.bit = bit;
    this.random = new SplittableRandom(seed);
  }

  /** Writes to matching files store a random 1..n bytes of n each time. */
  public static Fault shortWrites(Predicate<Path> files, long seed) {
    return new Fault(Kind.SHORT_WRITES, files, "short writes", 0, true, null, 0, 0, seed);
  }

  /** After {@code bytes} more bytes written to matching files, every write fails with ENOSPC. */
  public static Fault diskFull(Predicate<Path> files, long bytes) {
    return new Fault(
        Kind.WRITE_BUDGET,
        files,
        "disk full after " + bytes + " bytes",
        bytes,
        true,
        ENOSPC,
        0,
        0,
        0);
  }

  /**
   * After {@code bytes} more bytes, one write fails with EIO (having stored what fit); later writes
   * succeed.
   */
  public static Fault ioErrorAfter(Predicate<Path> files, long bytes) {
    return new Fault(
        Kind.WRITE_BUDGET,
        files,
        "write error after " + bytes + " bytes",
        bytes,
        false,
        EIO,
        0,
        0,
        0);
  }

  /** {@code force} on matching files fails with EIO while armed. */
  public static Fault failingFsync(Predicate<Path> files) {
    return new Fault(Kind.FAILING_FSYNC, files, "fsync fails", 0, true, EIO, 0, 0, 0);
  }

  /** Reads of matching files covering {@code offset} see bit {@code bit} of that byte flipped. */
  public static Fault bitFlipOnRead(Predicate<Path> files, long offset, int bit) {
    return new Fault(
        Kind.BIT_FLIP_ON_READ,
        files,
        "bit " + bit + " flipped at offset " + offset + " on read",
        0,
        true,
        null,
        offset,
        bit,
        0);
  }

  /** Reads of matching files fail with EIO while armed. */
  public static Fault failingReads(Predicate<Path> files) {
    return new Fault(Kind.FAILING_READS, files, "reads fail", 0, true, EIO, 0, 0, 0);
  }

  /** Files whose name is {@code name}. */
  public static Predicate<Path> named(String name) {
    return p -> p.getFileName().toString().equals(name);
  }

  /** Files whose name ends with {@code suffix}. */
  public static Predicate<Path> endingWith(String suffix) {
    return p -> p.getFileName().toString().endsWith(suffix);
  }

  public Kind kind() {
    return kind;
  }

  public boolean armed() {
    return armed;
  }

  /** Stops the fault; a disarmed fault never acts again unless {@link #arm()}ed. */
  public void disarm() {
    armed = false;
  }

  public void arm() {
    armed = true;
  }

  /** How often the fault acted (writes cut or failed, fsyncs failed, reads changed or failed). */
  public int hits() {
    return hits.get();
  }

  boolean applies(Path file) {
    return armed && files.test(file);
  }

  /**
   * For a write of {@code want} bytes: how many may be stored (the rest, if any, then fails with
   * {@link #failure()}). Takes them from the budget.
   */
  long allow(long want) {
    if (kind == Kind.SHORT_WRITES) {
      if (want <= 1) {
        return want;
      }
      long n;
      synchronized (random) {
        n = 1 + random.nextLong(want);
      }
      if (n < want) {
        hits.incrementAndGet();
      }
      return n;
    }
    while (true) {
      long left = budget.get();
      long n = Math.min(left, want);
      if (budget.compareAndSet(left, left - n)) {
        if (n < want) {
          hits.incrementAndGet();
          if (!sticky) {
            armed = false;
          }
        }
        return n;
      }
    }
  }

  /** Counts one fsync or read failure. */
  IOException failure() {
    return new IOException(message);
  }

  void hit() {
    hits.incrementAndGet();
  }

  long offset() {
    return offset;
  }

  int bit() {
    return bit;
  }

  @Override
  public String toString() {
    return description + " (" + hits() + " hits" + (armed ? "" : ", disarmed") + ")";
  }
}
