package dev.idxkit.cli.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServerMetricsTest {
  @Test
  void rendersCountersByEndpointAndStatusAndCumulativeBuckets() {
    ServerMetrics m = new ServerMetrics();
    m.record(Endpoint.LOOKUP, 200, 50_000); // 0.05 ms
    m.record(Endpoint.LOOKUP, 200, 3_000_000); // 3 ms
    m.record(Endpoint.LOOKUP, 400, 20_000_000_000L); // 20 s: past every bucket
    m.record(Endpoint.INSERT, 409, 1_000_000);
    m.rowsStreamed(7);
    PromWriter w = new PromWriter();
    m.appendTo(w);
    String text = w.toString();
    assertThat(text)
        .contains("# TYPE idxkit_http_requests_total counter\n")
        .contains("idxkit_http_requests_total{endpoint=\"lookup\",status=\"200\"} 2\n")
        .contains("idxkit_http_requests_total{endpoint=\"lookup\",status=\"400\"} 1\n")
        .contains("idxkit_http_requests_total{endpoint=\"insert\",status=\"409\"} 1\n")
        .contains(
            "idxkit_http_request_duration_seconds_bucket{endpoint=\"lookup\",le=\"0.0001\"} 1\n")
        .contains(
            "idxkit_http_request_duration_seconds_bucket{endpoint=\"lookup\",le=\"0.0025\"} 1\n")
        .contains(
            "idxkit_http_request_duration_seconds_bucket{endpoint=\"lookup\",le=\"0.005\"} 2\n")
        .contains("idxkit_http_request_duration_seconds_bucket{endpoint=\"lookup\",le=\"10\"} 2\n")
        .contains(
            "idxkit_http_request_duration_seconds_bucket{endpoint=\"lookup\",le=\"+Inf\"} 3\n")
        .contains("idxkit_http_request_duration_seconds_sum{endpoint=\"lookup\"} 20.00305\n")
        .contains("idxkit_http_request_duration_seconds_count{endpoint=\"lookup\"} 3\n")
        .contains("idxkit_http_rows_streamed_total 7\n")
        .doesNotContain("endpoint=\"scan\"");
    assertThat(m.requests()).isEqualTo(4);
    assertThat(m.requests(Endpoint.LOOKUP, 200)).isEqualTo(2);
  }

  @Test
  void escapesLabelValuesAndSpellsSpecialNumbers() {
    PromWriter w = new PromWriter();
    w.sample("x", Double.POSITIVE_INFINITY, "table", "a\"b\\c\nd");
    w.sample("y", Double.NaN);
    w.sample("z", 0.25);
    assertThat(w.toString()).isEqualTo("x{table=\"a\\\"b\\\\c\\nd\"} +Inf\ny NaN\nz 0.25\n");
  }
}
