package dev.idxkit.cli;

import dev.idxkit.cli.progress.BarProgress;
import dev.idxkit.cli.progress.PlainProgress;
import dev.idxkit.cli.progress.Progress;
import dev.idxkit.cli.progress.ProgressMode;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;

/**
 * What one run of {@code idxkit} gives its command beyond the parsed options: the Ctrl-C guard,
 * whether stdout is a terminal, the stream a progress bar draws on, and the clock. Commands get it
 * through their constructor ({@link Main}'s factory passes it), so tests run them in-process with
 * their own.
 */
public final class Session implements AutoCloseable {
  /** Milliseconds between plain progress lines. */
  public static final long PLAIN_INTERVAL_MILLIS = 5_000;

  private final InterruptGuard guard;
  private final boolean terminal;
  private final PrintStream barStream;
  private final Charset barCharset;
  private final LongSupplier nanoClock;
  private final long plainIntervalMillis;
  private ScheduledExecutorService ticker;

  public Session(
      InterruptGuard guard,
      boolean terminal,
      PrintStream barStream,
      Charset barCharset,
      LongSupplier nanoClock,
      long plainIntervalMillis) {
    this.guard = guard;
    this.terminal = terminal;
    this.barStream = barStream;
    this.barCharset = barCharset;
    this.nanoClock = nanoClock;
    this.plainIntervalMillis = plainIntervalMillis;
  }

  public InterruptGuard guard() {
    return guard;
  }

  /** True when stdout is a terminal (a person is watching, not a pipe or a file). */
  public boolean terminal() {
    return terminal;
  }

  /** A progress renderer for {@code mode}; plain lines go to {@code err}. Close it when done. */
  public synchronized Progress progress(ProgressMode mode, PrintWriter err) {
    ProgressMode m =
        mode == ProgressMode.AUTO ? (terminal ? ProgressMode.BAR : ProgressMode.PLAIN) : mode;
    switch (m) {
      case BAR:
        return new BarProgress(barStream, barCharset, 0);
      case PLAIN:
        if (ticker == null) {
          ticker =
              Executors.newSingleThreadScheduledExecutor(
                  r -> {
                    Thread t = new Thread(r, "idxkit-progress");
                    t.setDaemon(true);
                    return t;
                  });
        }
        return new PlainProgress(err, nanoClock, plainIntervalMillis, ticker)
            .stoppedWhen(guard::interrupted);
      default:
        return Progress.NONE;
    }
  }

  @Override
  public synchronized void close() {
    if (ticker != null) {
      ticker.shutdownNow();
      ticker = null;
    }
  }
}
