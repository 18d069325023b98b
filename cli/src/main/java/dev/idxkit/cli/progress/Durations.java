package dev.idxkit.cli.progress;

/**
 * Short human durations for progress lines: {@code 0.4s}, {@code 12s}, {@code 3m05s}, {@code
 * 2h01m}.
 */
public final class Durations {
  private Durations() {}

  public static String seconds(double secs) {
    if (secs < 10) {
      return String.format(java.util.Locale.ROOT, "%.1fs", Math.max(0, secs));
    }
    long s = Math.round(secs);
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format(java.util.Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    return String.format(java.util.Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
  }
}
