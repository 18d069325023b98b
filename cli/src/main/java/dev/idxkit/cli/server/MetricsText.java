package dev.idxkit.cli.server;

import dev.idxkit.core.DatabaseStats;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.ToDoubleFunction;

/**
 * {@code GET /metrics}: everything the server can tell a Prometheus scraper, gathered at scrape
 * time (nothing is sampled in the background).
 *
 * <pre>
 * family                                     type       labels
 * idxkit_http_requests_total                 counter    endpoint, status
 * idxkit_http_request_duration_seconds       histogram  endpoint
 * idxkit_http_rows_streamed_total            counter
 * idxkit_http_rows_inserted_total            counter
 * idxkit_http_streams_aborted_total          counter
 * idxkit_http_connections_open               gauge
 * idxkit_http_connections_total              counter    outcome (accepted, rejected, timed_out)
 *                                                       (idle keep-alive closes are not counted)
 * idxkit_db_pages_read_total                 counter    area   (reads through the area's mapping)
 * idxkit_db_pages_written_total              counter    area
 * idxkit_db_wal_bytes                        gauge
 * idxkit_db_committed_image_bytes            gauge      (page images waiting for a checkpoint)
 * idxkit_db_generation                       gauge      (meta generation: checkpoints, publishes)
 * idxkit_db_table_rows                       gauge      table
 * idxkit_job_phase_done_units                gauge      phase, unit
 * idxkit_job_phase_total_units               gauge      phase, unit
 * idxkit_job_phase_rate_units_per_second     gauge      phase, unit
 * idxkit_job_phase_eta_seconds               gauge      phase (only while known)
 * idxkit_job_phase_state                     gauge      phase, state (1 for the current state)
 * </pre>
 *
 * The store keeps no page cache of its own (reads go through memory-mapped files and the OS cache),
 * so there is no cache-hit figure to export; pages read counts every page access through an area's
 * mapping, whether the OS had it cached or not.
 */
final class MetricsText {
  static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

  private MetricsText() {}

  /**
   * One scrape: a registry made for it, holding the server's families and callbacks that read the
   * connections, the database's stats and the job's snapshot (each read once), written in the
   * Prometheus text format by the Prometheus client's writer.
   */
  static String render(Api api) {
    PrometheusRegistry r = new PrometheusRegistry();
    api.metrics().registerIn(r);
    ConnectionGuard.Connections c = api.connections();
    GaugeWithCallback.builder()
        .name("idxkit_http_connections_open")
        .help("Connections open now.")
        .callback(cb -> cb.call(c.open.get()))
        .register(r);
    CounterWithCallback.builder()
        .name("idxkit_http_connections_total")
        .help(
            "Connections accepted; refused at the connection limit or during shutdown; closed"
                + " because a request did not arrive in time or a response could not be written.")
        .labelNames("outcome")
        .callback(
            cb -> {
              cb.call(c.accepted.sum(), "accepted");
              cb.call(c.rejected.sum(), "rejected");
              cb.call(c.timedOut.sum(), "timed_out");
            })
        .register(r);
    if (api.databaseOrNull() != null) {
      database(r, api.databaseOrNull().stats());
    }
    if (api.job() != null) {
      job(r, api.job().snapshot());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    try {
      PrometheusTextFormatWriter.create().write(out, r.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static void database(PrometheusRegistry r, DatabaseStats st) {
    CounterWithCallback.builder()
        .name("idxkit_db_pages_read_total")
        .help("Pages read through each area file since open.")
        .labelNames("area")
        .callback(cb -> st.areas().forEach(a -> cb.call(a.pagesRead(), a.name())))
        .register(r);
    CounterWithCallback.builder()
        .name("idxkit_db_pages_written_total")
        .help("Pages written to each area file since open.")
        .labelNames("area")
        .callback(cb -> st.areas().forEach(a -> cb.call(a.pagesWritten(), a.name())))
        .register(r);
    gauge(r, "idxkit_db_wal_bytes", "Size of the write-ahead log.", st.logBytes());
    gauge(
        r,
        "idxkit_db_committed_image_bytes",
        "Committed page images held in memory until the next checkpoint.",
        st.committedImageBytes());
    gauge(
        r,
        "idxkit_db_buffered_changes",
        "Index entry changes in change buffers, not yet merged into their trees.",
        st.bufferedChanges());
    gauge(r, "idxkit_db_generation", "Generation of the current meta slot.", st.generation());
    GaugeWithCallback.builder()
        .name("idxkit_db_table_rows")
        .help("Rows per table as of the last commit.")
        .labelNames("table")
        .callback(cb -> st.tables().forEach(t -> cb.call(t.rows(), t.name())))
        .register(r);
  }

  private static void gauge(PrometheusRegistry r, String name, String help, double value) {
    GaugeWithCallback.builder().name(name).help(help).callback(cb -> cb.call(value)).register(r);
  }

  private static void job(PrometheusRegistry r, JobProgress.Snapshot s) {
    phases(
        r,
        "idxkit_job_phase_done_units",
        "Units done in each phase of the job.",
        s,
        p -> (double) p.done());
    phases(
        r,
        "idxkit_job_phase_total_units",
        "Units in each phase (0: unknown).",
        s,
        p -> (double) p.total());
    phases(
        r,
        "idxkit_job_phase_rate_units_per_second",
        "Recent rate of a running phase; average rate of a finished one.",
        s,
        JobProgress.PhaseView::ratePerSecond);
    GaugeWithCallback.builder()
        .name("idxkit_job_phase_eta_seconds")
        .help("Estimated seconds left in a phase.")
        .labelNames("phase")
        .callback(
            cb ->
                s.phases().stream()
                    .filter(p -> p.etaSeconds() != null)
                    .forEach(p -> cb.call(p.etaSeconds(), p.name())))
        .register(r);
    GaugeWithCallback.builder()
        .name("idxkit_job_phase_state")
        .help("1 for each phase's current state.")
        .labelNames("phase", "state")
        .callback(cb -> s.phases().forEach(p -> cb.call(1, p.name(), p.state().label())))
        .register(r);
  }

  private static void phases(
      PrometheusRegistry r,
      String name,
      String help,
      JobProgress.Snapshot s,
      ToDoubleFunction<JobProgress.PhaseView> value) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .labelNames("phase", "unit")
        .callback(
            cb -> s.phases().forEach(p -> cb.call(value.applyAsDouble(p), p.name(), p.unit())))
        .register(r);
  }
}
