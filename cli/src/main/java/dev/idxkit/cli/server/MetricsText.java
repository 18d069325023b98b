package dev.idxkit.cli.server;

import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseStats;

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
  private MetricsText() {}

  static String render(Api api) {
    PromWriter w = new PromWriter();
    api.metrics().appendTo(w);
    ConnectionGuard.Connections c = api.connections();
    w.family("idxkit_http_connections_open", "gauge", "Connections open now.");
    w.sample("idxkit_http_connections_open", c.open.get());
    w.family(
        "idxkit_http_connections_total",
        "counter",
        "Connections accepted; refused at the connection limit or during shutdown; closed because"
            + " a request did not arrive in time or a response could not be written.");
    w.sample("idxkit_http_connections_total", c.accepted.sum(), "outcome", "accepted");
    w.sample("idxkit_http_connections_total", c.rejected.sum(), "outcome", "rejected");
    w.sample("idxkit_http_connections_total", c.timedOut.sum(), "outcome", "timed_out");
    if (api.databaseOrNull() != null) {
      database(w, api.databaseOrNull());
    }
    if (api.job() != null) {
      job(w, api.job().snapshot());
    }
    return w.toString();
  }

  private static void database(PromWriter w, Database db) {
    DatabaseStats st = db.stats();
    w.family(
        "idxkit_db_pages_read_total", "counter", "Pages read through each area file since open.");
    for (DatabaseStats.AreaStats a : st.areas()) {
      w.sample("idxkit_db_pages_read_total", a.pagesRead(), "area", a.name());
    }
    w.family(
        "idxkit_db_pages_written_total", "counter", "Pages written to each area file since open.");
    for (DatabaseStats.AreaStats a : st.areas()) {
      w.sample("idxkit_db_pages_written_total", a.pagesWritten(), "area", a.name());
    }
    w.family("idxkit_db_wal_bytes", "gauge", "Size of the write-ahead log.");
    w.sample("idxkit_db_wal_bytes", st.logBytes());
    w.family(
        "idxkit_db_committed_image_bytes",
        "gauge",
        "Committed page images held in memory until the next checkpoint.");
    w.sample("idxkit_db_committed_image_bytes", st.committedImageBytes());
    w.family("idxkit_db_generation", "gauge", "Generation of the current meta slot.");
    w.sample("idxkit_db_generation", st.generation());
    w.family("idxkit_db_table_rows", "gauge", "Rows per table as of the last commit.");
    for (DatabaseStats.TableStats t : st.tables()) {
      w.sample("idxkit_db_table_rows", t.rows(), "table", t.name());
    }
  }

  private static void job(PromWriter w, JobProgress.Snapshot s) {
    w.family("idxkit_job_phase_done_units", "gauge", "Units done in each phase of the job.");
    for (var p : s.phases()) {
      w.sample("idxkit_job_phase_done_units", p.done(), "phase", p.name(), "unit", p.unit());
    }
    w.family("idxkit_job_phase_total_units", "gauge", "Units in each phase (0: unknown).");
    for (var p : s.phases()) {
      w.sample("idxkit_job_phase_total_units", p.total(), "phase", p.name(), "unit", p.unit());
    }
    w.family(
        "idxkit_job_phase_rate_units_per_second",
        "gauge",
        "Recent rate of a running phase; average rate of a finished one.");
    for (var p : s.phases()) {
      w.sample(
          "idxkit_job_phase_rate_units_per_second",
          p.ratePerSecond(),
          "phase",
          p.name(),
          "unit",
          p.unit());
    }
    w.family("idxkit_job_phase_eta_seconds", "gauge", "Estimated seconds left in a phase.");
    for (var p : s.phases()) {
      if (p.etaSeconds() != null) {
        w.sample("idxkit_job_phase_eta_seconds", p.etaSeconds(), "phase", p.name());
      }
    }
    w.family("idxkit_job_phase_state", "gauge", "1 for each phase's current state.");
    for (var p : s.phases()) {
      w.sample("idxkit_job_phase_state", 1, "phase", p.name(), "state", p.state().label());
    }
  }
}
