package dev.idxkit.cli.progress;

import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress as a bar redrawn in place on a terminal (me.tongfei:progressbar): percentage, count,
 * rate and ETA, or an elapsed-time display when the total is unknown. One bar per phase; the
 * library redraws it from its own thread every 250 ms.
 */
public final class BarProgress implements Progress {
  private final PrintStream out;
  private final ProgressBarStyle style;
  private final int width;
  private ProgressBar bar;

  /**
   * @param out the terminal stream (stderr)
   * @param width columns to draw in, or 0 to ask the terminal
   */
  public BarProgress(PrintStream out, Charset charset, int width) {
    this.out = out;
    this.style =
        charset.equals(StandardCharsets.UTF_8)
            ? ProgressBarStyle.UNICODE_BLOCK
            : ProgressBarStyle.ASCII;
    this.width = width;
  }

  @Override
  public void start(String phase, long total, String unit) {
    close();
    ProgressBarBuilder b =
        new ProgressBarBuilder()
            .setTaskName(phase)
            .setInitialMax(total < 0 ? -1 : total)
            .setStyle(style)
            .setUpdateIntervalMillis(250)
            .setUnit(" " + unit, 1)
            .setConsumer(
                width > 0
                    ? new ConsoleProgressBarConsumer(out, width)
                    : new ConsoleProgressBarConsumer(out));
    if (total >= 0) {
      b.showSpeed(); // a rate of nothing counted (a phase without steps) would read "0/s"
    } else {
      b.hideEta();
    }
    bar = b.build();
  }

  @Override
  public void step(long n) {
    if (bar != null) {
      bar.stepBy(n);
    }
  }

  @Override
  public void done() {
    if (bar != null && bar.getMax() > 0) {
      bar.stepTo(Math.max(bar.getCurrent(), bar.getMax()));
    }
    close();
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close(); // draws the final state and ends the line
      bar = null;
    }
  }
}
