package dev.idxkit.cli.server;

/**
 * What a request asked for, as the {@code endpoint} label of the request metrics: one value per
 * route, never the raw path, so a client cannot grow the label set.
 */
public enum Endpoint {
  PAGE("page"),
  STATUS("status"),
  METRICS("metrics"),
  TABLES("tables"),
  TABLE("table"),
  LOOKUP("lookup"),
  SCAN("scan"),
  INSERT("insert"),
  /** Unknown paths, malformed requests and requests refused before routing (401, 405, 408...). */
  OTHER("other");

  private final String label;

  Endpoint(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
