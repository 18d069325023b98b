package dev.idxkit.cli.server;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the server counts about its own work: requests by endpoint and status, request latency as a
 * histogram per endpoint, rows streamed and inserted. Recording is lock-free ({@link LongAdder}s,
 * one map lookup per request); {@link #appendTo} renders the Prometheus families.
 *
 * <p>Latency runs from the moment the server starts on a whole request (at once, or when the
 * request before it on the same connection has been answered) to the moment its response (the last
 * chunk of a stream) has been handed to the socket: queueing for a read thread is included, the
 * client's network is not. Buckets are fixed (0.1 ms to 10 s), so the histogram costs one array of
 * counters per endpoint.
 */
final class ServerMetrics {
  /** Upper bounds of the latency buckets, in seconds. */
  static final double[] BUCKETS = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private static final class Latency {
    final LongAdder[] buckets = new LongAdder[BUCKETS.length];
    final LongAdder count = new LongAdder();
    final LongAdder sumNanos = new LongAdder();

    Latency() {
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = new LongAdder();
      }
    }
  }

  private final Map<Integer, LongAdder> requests = new ConcurrentHashMap<>();
  private final Latency[] latency = new Latency[Endpoint.values().length];
  private final LongAdder rowsStreamed = new LongAdder();
  private final LongAdder rowsInserted = new LongAdder();
  private final LongAdder streamsAborted = new LongAdder();

  ServerMetrics() {
    for (int i = 0; i < latency.length; i++) {
      latency[i] = new Latency();
    }
  }

  /** One answered request. */
  void record(Endpoint endpoint, int status, long nanos) {
    requests.computeIfAbsent(endpoint.ordinal() << 10 | status, k -> new LongAdder()).increment();
    Latency l = latency[endpoint.ordinal()];
    l.count.increment();
    l.sumNanos.add(nanos);
    double s = nanos / 1e9;
    for (int i = 0; i < BUCKETS.length; i++) {
      if (s <= BUCKETS[i]) {
        l.buckets[i].increment();
        break;
      }
    }
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

  void appendTo(PromWriter w) {
    w.family(
        "idxkit_http_requests_total", "counter", "HTTP requests answered, by endpoint and status.");
    Map<Integer, LongAdder> sorted = new TreeMap<>(requests);
    for (var e : sorted.entrySet()) {
      Endpoint ep = Endpoint.values()[e.getKey() >>> 10];
      w.sample(
          "idxkit_http_requests_total",
          e.getValue().sum(),
          "endpoint",
          ep.label(),
          "status",
          Integer.toString(e.getKey() & 1023));
    }
    w.family(
        "idxkit_http_request_duration_seconds",
        "histogram",
        "Time from starting on a request to its whole response written, by endpoint.");
    for (Endpoint ep : Endpoint.values()) {
      Latency l = latency[ep.ordinal()];
      long count = l.count.sum();
      if (count == 0) {
        continue;
      }
      long cumulative = 0;
      for (int i = 0; i < BUCKETS.length; i++) {
        cumulative += l.buckets[i].sum();
        w.sample(
            "idxkit_http_request_duration_seconds_bucket",
            cumulative,
            "endpoint",
            ep.label(),
            "le",
            PromWriter.number(BUCKETS[i]));
      }
      w.sample(
          "idxkit_http_request_duration_seconds_bucket",
          count,
          "endpoint",
          ep.label(),
          "le",
          "+Inf");
      w.sample(
          "idxkit_http_request_duration_seconds_sum",
          l.sumNanos.sum() / 1e9,
          "endpoint",
          ep.label());
      w.sample("idxkit_http_request_duration_seconds_count", count, "endpoint", ep.label());
    }
    w.family("idxkit_http_rows_streamed_total", "counter", "Rows sent by lookups and scans.");
    w.sample("idxkit_http_rows_streamed_total", rowsStreamed.sum());
    w.family("idxkit_http_rows_inserted_total", "counter", "Rows committed by POST requests.");
    w.sample("idxkit_http_rows_inserted_total", rowsInserted.sum());
    w.family(
        "idxkit_http_streams_aborted_total",
        "counter",
        "Streamed responses cut short (client gone, or a read failed after the headers were sent).");
    w.sample("idxkit_http_streams_aborted_total", streamsAborted.sum());
  }
}
