package dev.idxkit.cli.server;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the server counts about its own work: requests by endpoint and status, request latency as a
 * histogram per endpoint, rows streamed and inserted. Recording is lock-free ({@link LongAdder}s
 * and the Prometheus client's histogram, one map lookup each per request); {@link #registerIn}
 * hands the families to a Prometheus registry, whose text format writer renders them.
 *
 * <p>Latency runs from the moment the server starts on a whole request (at once, or when the
 * request before it on the same connection has been answered) to the moment its response (the last
 * chunk of a stream) has been handed to the socket: queueing for a read thread is included, the
 * client's network is not. Buckets are fixed (0.1 ms to 10 s, classic buckets only), so the
 * histogram costs one array of counters per endpoint.
 */
final class ServerMetrics {
  /** Upper bounds of the latency buckets, in seconds. */
  static final double[] BUCKETS = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private final Map<Integer, LongAdder> requests = new ConcurrentHashMap<>();
  private final Histogram latency =
      Histogram.builder()
          .name("idxkit_http_request_duration_seconds")
          .help("Time from starting on a request to its whole response written, by endpoint.")
          .labelNames("endpoint")
          .classicUpperBounds(BUCKETS)
          .classicOnly()
          .build();
  private final LongAdder rowsStreamed = new LongAdder();
  private final LongAdder rowsInserted = new LongAdder();
  private final LongAdder streamsAborted = new LongAdder();

  /** One answered request. */
  void record(Endpoint endpoint, int status, long nanos) {
    requests.computeIfAbsent(endpoint.ordinal() << 10 | status, k -> new LongAdder()).increment();
    latency.labelValues(endpoint.label()).observe(nanos / 1e9);
  }

  void rowsStreamed(long n) {
    rowsStreamed.add(n);
  }

  void rowsInserted(long n) {
    rowsInserted.add(n);
  }

  /** A streamed response cut short (the client went away, a read failed mid-stream). */
  void streamAborted() {
    streamsAborted.increment();
  }

  /** Requests answered so far, all endpoints and statuses. */
  long requests() {
    long n = 0;
    for (LongAdder a : requests.values()) {
      n += a.sum();
    }
    return n;
  }

  /** Requests answered with {@code status} at {@code endpoint}. */
  long requests(Endpoint endpoint, int status) {
    LongAdder a = requests.get(endpoint.ordinal() << 10 | status);
    return a == null ? 0 : a.sum();
  }

  /** Registers the server's metric families in {@code r} (a registry made for one scrape). */
  void registerIn(PrometheusRegistry r) {
    CounterWithCallback.builder()
        .name("idxkit_http_requests_total")
        .help("HTTP requests answered, by endpoint and status.")
        .labelNames("endpoint", "status")
        .callback(
            cb ->
                new TreeMap<>(requests)
                    .forEach(
                        (k, n) ->
                            cb.call(
                                n.sum(),
                                Endpoint.values()[k >>> 10].label(),
                                Integer.toString(k & 1023))))
        .register(r);
    r.register(latency);
    counter(r, "idxkit_http_rows_streamed_total", "Rows sent by lookups and scans.", rowsStreamed);
    counter(r, "idxkit_http_rows_inserted_total", "Rows committed by POST requests.", rowsInserted);
    counter(
        r,
        "idxkit_http_streams_aborted_total",
        "Streamed responses cut short (client gone, or a read failed after the headers were sent).",
        streamsAborted);
  }

  private static void counter(PrometheusRegistry r, String name, String help, LongAdder n) {
    CounterWithCallback.builder()
        .name(name)
        .help(help)
        .callback(cb -> cb.call(n.sum()))
        .register(r);
  }
}
