package dev.idxkit.cli.server;

/**
 * Writes the Prometheus text exposition format (version 0.0.4): {@code # HELP} and {@code # TYPE}
 * once per metric family, then one {@code name{label="value",...} number} line per sample.
 *
 * <pre>
 * # HELP idxkit_http_requests_total HTTP requests answered, by endpoint and status.
 * # TYPE idxkit_http_requests_total counter
 * idxkit_http_requests_total{endpoint="lookup",status="200"} 1027
 * </pre>
 *
 * Label values escape backslash, double quote and line feed; numbers are written as Java prints
 * them, with {@code +Inf}, {@code -Inf} and {@code NaN} spelled as Prometheus spells them.
 */
final class PromWriter {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final StringBuilder out = new StringBuilder(4096);

  /** Starts a metric family. */
  PromWriter family(String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    return this;
  }

  /** One sample; {@code labels} alternate names and values. */
  PromWriter sample(String name, double value, String... labels) {
    out.append(name);
    if (labels.length > 0) {
      out.append('{');
      for (int i = 0; i < labels.length; i += 2) {
        if (i > 0) {
          out.append(',');
        }
        out.append(labels[i]).append("=\"");
        escape(labels[i + 1]);
        out.append('"');
      }
      out.append('}');
    }
    out.append(' ').append(number(value)).append('\n');
    return this;
  }

  static String number(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    if (Math.abs(v) >= 1e-6 && Math.abs(v) < 1e15) {
      // 0.0001 rather than Java's 1.0E-4: what Prometheus' own clients write for bucket bounds.
      return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
    return Double.toString(v);
  }

  private void escape(String v) {
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '"' -> out.append("\\\"");
        case '\n' -> out.append("\\n");
        default -> out.append(c);
      }
    }
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
