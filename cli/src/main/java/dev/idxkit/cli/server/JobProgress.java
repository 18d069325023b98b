package dev.idxkit.cli.server;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Where a long job (a rebuild, a load) has got to, for people watching it from a browser: its
 * phases in order, each with done/total units, a rate and an estimated time left.
 *
 * <p>Call order, from the job's threads (an adapter such as {@link RebuildProgress} turns the job's
 * own listener events into these): {@link #plan} once with the phases expected (they show as
 * pending), then per phase {@link #phaseStarted}, {@link #progress} as often as the job likes,
 * {@link #phaseFinished}; {@link #warning} any time; at the end {@link #finished()} or {@link
 * #failed(String)}. A phase that starts without having been planned is appended. Readers (the
 * server's threads) call {@link #snapshot()}: an immutable copy, consistent across phases.
 *
 * <p>Rate: units per second over the last {@value #RATE_WINDOW_SECONDS} seconds of progress reports
 * (a sliding window, so a phase that slows down shows it within seconds), or over the whole phase
 * while the window is shorter than {@value #MIN_WINDOW_SECONDS} s; for a finished phase, its units
 * over its wall time. ETA: units left divided by the rate, absent when the total is unknown or
 * nothing has moved yet. Memory: a few dozen samples per running phase.
 *
 * <p>All methods are synchronized: jobs report a few times a second, readers poll about once.
 */
public final class JobProgress {
  static final double RATE_WINDOW_SECONDS = 10;
  static final double MIN_WINDOW_SECONDS = 0.5;
  static final int MAX_WARNINGS = 20;

  /** A phase's or the job's state. */
  public enum State {
    PENDING,
    RUNNING,
    DONE,
    FAILED;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** One phase as a reader sees it; {@code total} is 0 when unknown, ETA null when unknown. */
  public record PhaseView(
      String name,
      State state,
      long done,
      long total,
      String unit,
      double ratePerSecond,
      Double etaSeconds,
      double elapsedSeconds) {
    /** Done over total in [0, 1], or 1 for a finished phase of unknown size, 0 otherwise. */
    public double fraction() {
      if (total > 0) {
        return Math.min(1.0, (double) done / total);
      }
      return state == State.DONE ? 1.0 : 0.0;
    }
  }

  /**
   * The whole job at one instant.
   *
   * @param plan what the job set out to do, as the command printed it (sort groups, which index
   *     where, memory, temp directories); empty until known
   * @param tempBytes bytes in the job's temp files now, per directory, in the plan's order
   * @param report the job's final report as the command printed it; empty until the end
   */
  public record Snapshot(
      String job,
      State state,
      String message,
      double elapsedSeconds,
      List<PhaseView> phases,
      List<String> warnings,
      List<String> plan,
      Map<String, Long> tempBytes,
      List<String> report) {}

  private static final class Phase {
    final String name;
    State state = State.PENDING;
    long done;
    long total;
    String unit = "";
    long startNanos;
    long endNanos;
    final ArrayDeque<long[]> samples = new ArrayDeque<>(); // {nanos, done}

    Phase(String name) {
      this.name = name;
    }
  }

  private final String job;
  private final LongSupplier nanoClock;
  private final long startNanos;
  private final Map<String, Phase> phases = new LinkedHashMap<>();
  private final ArrayDeque<String> warnings = new ArrayDeque<>();
  private State state = State.RUNNING;
  private String message = "";
  private long endNanos;
  private List<String> plan = List.of();
  private List<String> report = List.of();
  private volatile Supplier<Map<String, Long>> tempBytes = Map::of;

  /**
   * @param job what runs, in words, e.g. {@code idxbuild shop.db}
   * @param nanoClock {@code System::nanoTime} outside tests
   */
  public JobProgress(String job, LongSupplier nanoClock) {
    this.job = job;
    this.nanoClock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
  }

  /** A job timed by {@link System#nanoTime()}. */
  public static JobProgress start(String job) {
    return new JobProgress(job, System::nanoTime);
  }

  /** Declares the phases expected, in order; they show as pending until they start. */
  public synchronized void plan(List<String> names) {
    for (String n : names) {
      phase(n);
    }
  }

  /** The job's plan as text lines, shown above the phases. */
  public synchronized void planText(List<String> lines) {
    plan = List.copyOf(lines);
  }

  /**
   * Where the job's temp bytes are counted when a reader asks (on the reader's thread, outside the
   * lock: it may look at the file system).
   */
  public void tempBytes(Supplier<Map<String, Long>> perDirectory) {
    tempBytes = perDirectory;
  }

  /** The final report as text lines: it stays on the page after the job ends. */
  public synchronized void report(List<String> lines) {
    report = List.copyOf(lines);
  }

  public synchronized void phaseStarted(String name, long totalUnits, String unit) {
    Phase p = phase(name);
    long now = nanoClock.getAsLong();
    p.state = State.RUNNING;
    p.total = Math.max(0, totalUnits);
    p.unit = unit == null ? "" : unit;
    p.done = 0;
    p.startNanos = now;
    p.samples.clear();
    p.samples.add(new long[] {now, 0});
  }

  /** Units done so far in the phase (cumulative, as the rebuild reports them). */
  public synchronized void progress(String name, long doneUnits) {
    Phase p = phases.get(name);
    if (p == null || p.state != State.RUNNING) {
      return; // a late report after the phase finished changes nothing
    }
    long now = nanoClock.getAsLong();
    p.done = Math.max(p.done, doneUnits);
    p.samples.add(new long[] {now, p.done});
    // Keep one sample older than the window as the rate's baseline.
    long horizon = now - (long) (RATE_WINDOW_SECONDS * 1e9);
    while (p.samples.size() > 2 && secondOldest(p.samples)[0] <= horizon) {
      p.samples.poll();
    }
  }

  /** Ends a phase; {@code units} is its final count (the total if it never had one). */
  public synchronized void phaseFinished(String name, long units, String unit) {
    Phase p = phase(name);
    long now = nanoClock.getAsLong();
    if (p.state == State.PENDING) {
      p.startNanos = now; // a phase reported only at its end (the rebuild's publish)
    }
    p.state = State.DONE;
    p.done = Math.max(p.done, units);
    if (p.total == 0) {
      p.total = p.done;
    }
    if (unit != null && p.unit.isEmpty()) {
      p.unit = unit;
    }
    p.endNanos = now;
    p.samples.clear();
  }

  /** Something the watcher should know; the last {@value #MAX_WARNINGS} are kept. */
  public synchronized void warning(String text) {
    if (warnings.size() == MAX_WARNINGS) {
      warnings.poll();
    }
    warnings.add(text);
  }

  /** The job ended well; phases still running are marked done. */
  public synchronized void finished() {
    end(State.DONE, "finished");
  }

  /** The job stopped with an error; the running phase is marked failed. */
  public synchronized void failed(String why) {
    end(State.FAILED, why == null ? "failed" : why);
  }

  private void end(State s, String msg) {
    if (state != State.RUNNING) {
      return;
    }
    long now = nanoClock.getAsLong();
    for (Phase p : phases.values()) {
      if (p.state == State.RUNNING) {
        p.state = s;
        p.endNanos = now;
      }
    }
    state = s;
    message = msg;
    endNanos = now;
  }

  public Snapshot snapshot() {
    return snapshot(Collections.unmodifiableMap(new LinkedHashMap<>(tempBytes.get())));
  }

  private synchronized Snapshot snapshot(Map<String, Long> temp) {
    long now = nanoClock.getAsLong();
    List<PhaseView> views = new ArrayList<>(phases.size());
    for (Phase p : phases.values()) {
      views.add(view(p, now));
    }
    double elapsed = ((state == State.RUNNING ? now : endNanos) - startNanos) / 1e9;
    return new Snapshot(
        job,
        state,
        message,
        elapsed,
        List.copyOf(views),
        List.copyOf(warnings),
        plan,
        temp,
        report);
  }

  private static PhaseView view(Phase p, long now) {
    double elapsed =
        p.state == State.PENDING
            ? 0
            : ((p.state == State.RUNNING ? now : p.endNanos) - p.startNanos) / 1e9;
    double rate = 0;
    Double eta = null;
    if (p.state == State.RUNNING) {
      rate = windowRate(p);
      if (rate > 0 && p.total > 0) {
        eta = Math.max(0, p.total - p.done) / rate;
      }
    } else if (p.state != State.PENDING && elapsed > 0) {
      rate = p.done / elapsed;
    }
    return new PhaseView(p.name, p.state, p.done, p.total, p.unit, rate, eta, elapsed);
  }

  private static double windowRate(Phase p) {
    long[] first = p.samples.peekFirst();
    long[] last = p.samples.peekLast();
    if (first == null || last == null) {
      return 0;
    }
    double span = (last[0] - first[0]) / 1e9;
    if (span >= MIN_WINDOW_SECONDS) {
      return (last[1] - first[1]) / span;
    }
    double whole = (last[0] - p.startNanos) / 1e9;
    return whole > 0 ? p.done / whole : 0;
  }

  private static long[] secondOldest(ArrayDeque<long[]> samples) {
    var it = samples.iterator();
    it.next();
    return it.next();
  }

  private Phase phase(String name) {
    return phases.computeIfAbsent(name, Phase::new);
  }
}
