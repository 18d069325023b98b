package dev.idxkit.cli.progress;

import java.io.PrintWriter;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Progress as plain lines, for logs and pipes: one line per interval while a phase runs, and a
 * closing line for a phase that ran long enough to have printed one. Short phases print nothing, so
 * a quick command piped into a script stays quiet on stderr.
 *
 * <pre>
 * check: running, 10s elapsed
 * dump: 45% 27000/60000 rows, 9000 rows/s, ETA 4s
 * dump: done, 60000 rows in 6.7s (8955 rows/s)
 * check: done after 12s
 * scan: stopped, 99303 pages in 3.1s (32033 pages/s)
 * </pre>
 *
 * <p>Lines come from {@link #step} on the command's thread and, when a ticker executor is given,
 * from a periodic tick on the ticker's thread, so a phase that reports no steps (a check inside one
 * library call) still shows it is alive. The counters are volatile and written only by the
 * command's thread; printing is synchronized so a step and a tick never print the same interval
 * twice. The clock is passed in so tests run without waiting.
 */
public final class PlainProgress implements Progress {
  private final PrintWriter out;
  private final LongSupplier nanoClock;
  private final long intervalNanos;
  private final ScheduledFuture<?> ticks;

  private volatile String phase;
  private volatile String unit;
  private volatile long total;
  private volatile long done;
  private volatile long startNanos;
  private long lastLineNanos;
  private boolean printedThisPhase;
  private boolean closed;
  private volatile BooleanSupplier stopped = () -> false;

  /**
   * @param ticker runs a tick every interval, or null for lines on steps only
   */
  public PlainProgress(
      PrintWriter out,
      LongSupplier nanoClock,
      long intervalMillis,
      ScheduledExecutorService ticker) {
    if (intervalMillis < 1) {
      throw new IllegalArgumentException(
          "intervalMillis : " + intervalMillis + " (expected: >= 1)");
    }
    this.out = out;
    this.nanoClock = nanoClock;
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
    this.ticks =
        ticker == null
            ? null
            : ticker.scheduleAtFixedRate(
                this::tick, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
  }

  /** The closing line says "stopped" instead of "done" once {@code stopped} is true (Ctrl-C). */
  public PlainProgress stoppedWhen(BooleanSupplier stopped) {
    this.stopped = stopped;
    return this;
  }

  @Override
  public synchronized void start(String phase, long total, String unit) {
    this.unit = unit;
    this.total = total;
    this.done = 0;
    this.startNanos = nanoClock.getAsLong();
    this.lastLineNanos = startNanos;
    this.printedThisPhase = false;
    this.phase = phase; // last: the ticker reads the phase first
  }

  @Override
  public void step(long n) {
    done += n; // one writing thread
    if (nanoClock.getAsLong() - lastLineNanos >= intervalNanos) {
      tick();
    }
  }

  /** Prints a line if a phase is open and an interval has passed since the last one. */
  public synchronized void tick() {
    String p = phase;
    if (p == null || closed) {
      return;
    }
    long now = nanoClock.getAsLong();
    if (now - lastLineNanos < intervalNanos) {
      return;
    }
    lastLineNanos = now;
    printedThisPhase = true;
    out.println(line(p, now));
    out.flush();
  }

  @Override
  public synchronized void done() {
    String p = phase;
    if (p == null) {
      return;
    }
    if (printedThisPhase) {
      double secs = (nanoClock.getAsLong() - startNanos) / 1e9;
      // After Ctrl-C the phase did not finish: say so rather than "done".
      String how = stopped.getAsBoolean() ? ": stopped" : ": done";
      if (done == 0 && total < 0) {
        // A phase that reports no steps (a check in one library call) has no count to show.
        out.println(p + how + " after " + Durations.seconds(secs));
      } else {
        out.println(
            p
                + how
                + ", "
                + done
                + " "
                + unit
                + " in "
                + Durations.seconds(secs)
                + " ("
                + rate(done, secs)
                + " "
                + unit
                + "/s)");
      }
      out.flush();
    }
    phase = null;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    phase = null;
    if (ticks != null) {
      ticks.cancel(false);
    }
  }

  private String line(String p, long now) {
    double secs = (now - startNanos) / 1e9;
    long d = done;
    long t = total;
    if (d == 0 && t < 0) {
      return p + ": running, " + Durations.seconds(secs) + " elapsed";
    }
    StringBuilder sb = new StringBuilder(p).append(": ");
    if (t > 0) {
      sb.append(Math.min(100, d * 100 / t)).append("% ").append(d).append('/').append(t);
    } else {
      sb.append(d);
    }
    sb.append(' ').append(unit).append(", ").append(rate(d, secs)).append(' ').append(unit);
    sb.append("/s");
    if (t > 0 && d > 0 && d < t) {
      sb.append(", ETA ").append(Durations.seconds(secs * (t - d) / d));
    } else {
      sb.append(", ").append(Durations.seconds(secs)).append(" elapsed");
    }
    return sb.toString();
  }

  private static long rate(long units, double secs) {
    return secs <= 0 ? 0 : Math.round(units / secs);
  }
}
