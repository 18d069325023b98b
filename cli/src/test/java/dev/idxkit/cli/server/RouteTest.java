package dev.idxkit.cli.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.codec.http.HttpMethod;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouteTest {
  private static int status(HttpMethod m, String uri) {
    try {
      Route.match(m, uri);
      return 200;
    } catch (HttpError e) {
      return e.status().code();
    }
  }

  @Test
  void matchesEveryEndpoint() {
    assertThat(Route.match(HttpMethod.GET, "/").endpoint()).isEqualTo(Endpoint.PAGE);
    assertThat(Route.match(HttpMethod.GET, "/v1/status").endpoint()).isEqualTo(Endpoint.STATUS);
    assertThat(Route.match(HttpMethod.GET, "/metrics").endpoint()).isEqualTo(Endpoint.METRICS);
    assertThat(Route.match(HttpMethod.GET, "/v1/tables").endpoint()).isEqualTo(Endpoint.TABLES);
    Route t = Route.match(HttpMethod.GET, "/v1/tables/Orders");
    assertThat(t.endpoint()).isEqualTo(Endpoint.TABLE);
    assertThat(t.table()).isEqualTo("Orders");
    Route l = Route.match(HttpMethod.GET, "/v1/tables/orders/indexes/orders_pk?key=5%2C2");
    assertThat(l.endpoint()).isEqualTo(Endpoint.LOOKUP);
    assertThat(l.index()).isEqualTo("orders_pk");
    assertThat(l.query()).isEqualTo(Map.of("key", "5,2"));
    Route s =
        Route.match(HttpMethod.GET, "/v1/tables/orders/indexes/orders_pk?from=1&to=9&reverse");
    assertThat(s.endpoint()).isEqualTo(Endpoint.SCAN);
    assertThat(s.query()).isEqualTo(Map.of("from", "1", "to", "9", "reverse", ""));
    assertThat(Route.match(HttpMethod.POST, "/v1/tables/orders/rows").endpoint())
        .isEqualTo(Endpoint.INSERT);
    assertThat(Route.match(HttpMethod.GET, "/v1/tables/my%20t").table()).isEqualTo("my t");
  }

  @Test
  void unknownPathsAre404AndWrongMethods405WithAllow() {
    assertThat(status(HttpMethod.GET, "/v2/tables")).isEqualTo(404);
    assertThat(status(HttpMethod.GET, "/v1/tables/")).isEqualTo(404);
    assertThat(status(HttpMethod.GET, "/v1//tables")).isEqualTo(404);
    assertThat(status(HttpMethod.GET, "/v1/tables/t/indexes")).isEqualTo(404);
    assertThat(status(HttpMethod.GET, "/favicon.ico")).isEqualTo(404);
    assertThatThrownBy(() -> Route.match(HttpMethod.GET, "/v1/tables/t/rows"))
        .isInstanceOfSatisfying(
            HttpError.class,
            e -> {
              assertThat(e.status().code()).isEqualTo(405);
              assertThat(e.allow()).isEqualTo("POST");
              assertThat(e.getMessage())
                  .isEqualTo("GET /v1/tables/t/rows : method not allowed (expected: POST)");
            });
    assertThat(status(HttpMethod.POST, "/v1/status")).isEqualTo(405);
  }

  @Test
  void unknownRepeatedOrMalformedParametersAre400() {
    assertThatThrownBy(() -> Route.match(HttpMethod.GET, "/v1/tables/t/indexes/i?form=1"))
        .hasMessage(
            "unknown query parameter 'form' (expected: columns, from, key, limit, reverse, to)");
    assertThatThrownBy(() -> Route.match(HttpMethod.GET, "/v1/status?verbose=1"))
        .hasMessage("unknown query parameter 'verbose' (expected: none here)");
    assertThatThrownBy(() -> Route.match(HttpMethod.GET, "/v1/tables/t/indexes/i?key=1&key=2"))
        .hasMessage("query parameter 'key' given 2 times (expected: once)");
    assertThat(status(HttpMethod.GET, "/v1/tables/t/indexes/i?key=%zz")).isEqualTo(400);
    assertThat(status(HttpMethod.GET, "/v1/tables/a%4")).isEqualTo(400);
  }
}
