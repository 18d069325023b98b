package dev.idxkit.cli.output;

import java.util.Locale;

/** Numbers for people: byte sizes in binary units, percentages and ratios with fixed decimals. */
public final class Sizes {
  private Sizes() {}

  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

  /** {@code 8192} is {@code 8.0 KiB}; below 1 KiB, plain bytes. */
  public static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    double v = n;
    int u = 0;
    while (v >= 1024 && u < UNITS.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, UNITS[u]);
  }

  public static String percent(double p) {
    return String.format(Locale.ROOT, "%.1f", p);
  }

  public static String decimal(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }
}
