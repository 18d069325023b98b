package dev.idxkit.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ctrl-C for a long command: stop at a safe point, say what state the database is in, exit 130.
 *
 * <p>How it works. The JVM answers SIGINT by running shutdown hooks and then exiting with status
 * 130 (128 + 2). {@link #install} registers a hook (thread {@code idxkit-interrupt}) that, unless
 * the command has already finished, marks the guard interrupted and interrupts the command's
 * thread. The command notices at its next {@link #check()} (every row, page or step), or through an
 * interrupted wait, unwinds through its try-with-resources (closing the database, deleting its temp
 * files) and returns; {@link Main} then prints the state line. The hook waits for the command
 * thread for a grace period and prints the state line itself if the command has not by then. The
 * line is printed once, whoever gets there first.
 *
 * <p>A command that only reads cannot change the database whatever it does next, so for it the hook
 * prints the state ("unchanged") at once and waits only briefly for the cleanup. A command that
 * writes gets a long grace period, and the hook first prints that it is stopping, so the user knows
 * Ctrl-C was heard while the command reaches a safe point.
 *
 * <p>Commands describe the state as they go with {@link #state(String, boolean)}: a read-only
 * command says "database DB unchanged (opened read-only)" once, a writer updates it at each step
 * ("nothing created yet", "created").
 */
public final class InterruptGuard {
  /** How long the hook waits for a command that only reads. */
  static final Duration READ_ONLY_GRACE = Duration.ofSeconds(2);

  /** How long the hook waits for a command that writes to finish its cleanup. */
  static final Duration WRITER_GRACE = Duration.ofSeconds(60);

  private final Thread worker;
  private final PrintWriter err;
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private final AtomicBoolean reported = new AtomicBoolean();
  private volatile boolean finished;
  private volatile String state = "nothing was changed";
  private volatile boolean readOnly = true;

  InterruptGuard(Thread worker, PrintWriter err) {
    this.worker = worker;
    this.err = err;
  }

  /** A guard for the current thread with a shutdown hook that fires on Ctrl-C (or SIGTERM). */
  static InterruptGuard install(PrintWriter err) {
    InterruptGuard g = new InterruptGuard(Thread.currentThread(), err);
    Runtime.getRuntime().addShutdownHook(new Thread(g::onShutdown, "idxkit-interrupt"));
    return g;
  }

  /** A guard without a hook, for running commands inside another program (tests). */
  public static InterruptGuard detached(PrintWriter err) {
    return new InterruptGuard(Thread.currentThread(), err);
  }

  /**
   * What state the database is in if the command stops now, in words for the user.
   *
   * @param readOnly true when stopping at any instant leaves the database as it was (the hook then
   *     waits only briefly)
   */
  public void state(String description, boolean readOnly) {
    this.state = description;
    this.readOnly = readOnly;
  }

  public String state() {
    return state;
  }

  /** True once Ctrl-C (or {@link #interrupt()}) asked the command to stop. */
  public boolean interrupted() {
    return interrupted.get();
  }

  /**
   * Throws {@link CommandInterruptedException} if the command was asked to stop. Clears the
   * thread's interrupt flag when it throws: the request is recorded here, and the unwinding that
   * follows (closing the database waits for its writer lock) must not be cut short by it.
   */
  public void check() {
    if (interrupted.get()) {
      Thread.interrupted();
      throw new CommandInterruptedException();
    }
  }

  /** What the hook does first: mark the request and wake the command's thread. */
  public void interrupt() {
    if (interrupted.compareAndSet(false, true)) {
      worker.interrupt();
    }
  }

  /** Called when the command has returned; a later signal then just exits. */
  void finished() {
    finished = true;
  }

  /**
   * Runs {@code step} — the last, visible act of a command, such as renaming a finished file into
   * place or publishing a rebuilt index — unless Ctrl-C came first, and then sets the state to
   * {@code stateAfter}. The state line is never printed in between: it tells the state before the
   * step (and the step does not run) or after it.
   *
   * @throws CommandInterruptedException if interrupted before the step
   */
  public synchronized void commitPoint(String stateAfter, Runnable step) {
    check();
    step.run();
    state = stateAfter;
  }

  /** Prints the state line, once, whoever gets here first (the command or the hook). */
  synchronized void report() {
    if (reported.compareAndSet(false, true)) {
      err.println("idxkit: interrupted; " + state);
      err.flush();
    }
  }

  private void onShutdown() {
    if (finished) {
      return;
    }
    interrupt();
    boolean ro = readOnly;
    if (ro) {
      // Nothing the command does from here on can change the database: say so at once.
      report();
    } else {
      err.println(
          "idxkit: Ctrl-C: stopping at the next safe point, then saying what state the"
              + " database is in");
      err.flush();
    }
    try {
      worker.join((ro ? READ_ONLY_GRACE : WRITER_GRACE).toMillis());
    } catch (InterruptedException e) {
      // The JVM is exiting anyway; say what we know before it does.
      Thread.currentThread().interrupt();
    }
    report();
  }
}
