package dev.idxkit.cli.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The server's families as the Prometheus client writes them: same names, the client's number
 * format.
 */
class ServerMetricsTest {
  @Test
  void rendersCountersByEndpointAndStatusAndCumulativeBuckets() throws IOException {
    ServerMetrics m = new ServerMetrics();
    m.record(Endpoint.LOOKUP, 200, 50_000); // 0.05 ms
    m.record(Endpoint.LOOKUP, 200, 3_000_000); // 3 ms
    m.record(Endpoint.LOOKUP, 400, 20_000_000_000L); // 20 s: past every bucket
    m.record(Endpoint.INSERT, 409, 1_000_000);
    m.rowsStreamed(7);
    PrometheusRegistry r = new PrometheusRegistry();
    m.registerIn(r);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, r.scrape());
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text)
        .contains("# TYPE idxkit_http_requests_total counter\n")
        .contains("idxkit_http_requests_total{endpoint=\"lookup\",status=\"200\"} 2.0\n")
        .contains("idxkit_http_requests_total{endpoint=\"lookup\",status=\"400\"} 1.0\n")
        .contains("idxkit_http_requests_total{endpoint=\"insert\",status=\"409\"} 1.0\n")
        .contains(
            "idxkit_http_request_duration_seconds_bucket{endpoint=\"lookup\",le=\"1.0E-4\"} 1\n")
        .contains(
            "idxkit_http_request_duration_seconds_bucket{endpoint=\"lookup\",le=\"0.0025\"} 1\n")
        .contains(
            "idxkit_http_request_duration_seconds_bucket{endpoint=\"lookup\",le=\"0.005\"} 2\n")
        .contains(
            "idxkit_http_request_duration_seconds_bucket{endpoint=\"lookup\",le=\"10.0\"} 2\n")
        .contains(
            "idxkit_http_request_duration_seconds_bucket{endpoint=\"lookup\",le=\"+Inf\"} 3\n")
        .contains("idxkit_http_request_duration_seconds_sum{endpoint=\"lookup\"} 20.00305\n")
        .contains("idxkit_http_request_duration_seconds_count{endpoint=\"lookup\"} 3\n")
        .contains("idxkit_http_rows_streamed_total 7.0\n")
        .doesNotContain("endpoint=\"scan\"");
    assertThat(m.requests()).isEqualTo(4);
    assertThat(m.requests(Endpoint.LOOKUP, 200)).isEqualTo(2);
  }
}
