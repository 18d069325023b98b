package dev.idxkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idxkit.cli.server.IdxkitServer;
import dev.idxkit.cli.server.ServerConfig;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.IndexState;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/tables/{t}/rows} on a writable server: all rows of a request or none, the RIDs
 * answered, and each way a body can be wrong; plus an inactive index refused with 409.
 */
class ServerWritesTest {
  static {
    NettyLeaks.install();
  }

  static final int MAX_BODY = 64 << 10;

  @TempDir static Path tmp;
  static Database db;
  static IdxkitServer server;
  static final List<String> log = new CopyOnWriteArrayList<>();
  static final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static final ObjectMapper json = new ObjectMapper();

  @BeforeAll
  static void start() {
    Path dir = tmp.resolve("item.db");
    ItemDb.create(dir);
    db = Database.open(dir);
    ServerConfig c =
        ServerConfig.defaults()
            .withListen("127.0.0.1", 0)
            .withWritable(true)
            .withSizeLimits(MAX_BODY, 16 << 10, 8 << 10);
    server = IdxkitServer.start(c, db, null, log::add);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (db != null) {
      db.close();
    }
    assertThat(log).as("errors the server logged").isEmpty();
    NettyLeaks.assertNone();
  }

  static HttpResponse<String> post(String table, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + "v1/tables/" + table + "/rows"))
            .header("Content-Type", "application/x-ndjson")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + path.substring(1))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static void assertError(HttpResponse<String> r, int status, String message) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(json.readTree(r.body()).get("error").asText()).contains(message);
  }

  @Test
  void postInsertsEveryRowInOneTransactionAndAnswersTheirRids() throws Exception {
    long before = db.table("item").rowCount();
    HttpResponse<String> r =
        post(
            "item",
            "{\"id\": 10001, \"grp\": 1, \"name\": \"posted\", \"price\": 1.5, \"born\": \"2024-02-29\"}\n"
                + "\n"
                + "{\"id\": 10002, \"grp\": 2, \"price\": \"2.25\", \"ok\": true, \"bin\": \"\\\\x0a0b\"}\r\n"
                + "{\"ID\": 10003, \"GRP\": 3, \"ratio\": \"NaN\", \"seen\": \"2024-01-31 10:00:00\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode a = json.readTree(r.body());
    assertThat(a.get("table").asText()).isEqualTo("item");
    assertThat(a.get("inserted").asInt()).isEqualTo(3);
    assertThat(a.get("rids")).hasSize(3).allMatch(n -> n.asText().matches("\\d+:\\d+"));
    assertThat(db.table("item").rowCount()).isEqualTo(before + 3);
    assertThat(
            get("/v1/tables/item/indexes/item_pk?from=10001&to=10003&columns=id,price,bin,ratio")
                .body())
        .isEqualTo(
            "{\"id\":10001,\"price\":1.50,\"bin\":null,\"ratio\":null}\n"
                + "{\"id\":10002,\"price\":2.25,\"bin\":\"\\\\x0a0b\",\"ratio\":null}\n"
                + "{\"id\":10003,\"price\":null,\"bin\":null,\"ratio\":\"NaN\"}\n");
    assertThat(get("/v1/tables/item").body()).contains("\"rows\":" + (before + 3));
  }

  @Test
  void aBadRowRollsBackTheWholeRequestAndIsNamedByItsLine() throws Exception {
    long before = db.table("item").rowCount();
    assertError(
        post("item", "{\"id\": 20001, \"grp\": 1}\n{\"id\": 20002, \"grp\": \"x\"}\n"),
        400,
        "line 2, column grp: ");
    assertError(
        post("item", "{\"id\": 20001, \"grp\": 1}\n{\"id\": 20002"),
        400,
        "line 2: invalid JSON at column ");
    assertError(
        post("item", "{\"id\": 20001, \"grp\": 1, \"color\": 1}"),
        400,
        "line 1: unknown field \"color\"");
    assertError(
        post("item", "{\"grp\": 1}"),
        400,
        "line 1, column id: missing field for NOT NULL column id");
    assertError(
        post("item", "{\"id\": 20001, \"grp\": 1}\n{\"id\": 5, \"grp\": 5}\n"),
        409,
        "line 2: duplicate key");
    assertError(post("item", "\n\n"), 400, "no rows in the body");
    assertError(post("nope", "{\"id\": 1}"), 404, "unknown table nope");
    assertThat(db.table("item").rowCount()).as("nothing inserted").isEqualTo(before);
    assertThat(db.index("item_pk").get(20001L)).isEmpty();
  }

  @Test
  void aBodyOverTheLimitIs413AndNothingIsInserted() throws Exception {
    long before = db.table("item").rowCount();
    StringBuilder body = new StringBuilder();
    for (int id = 30_000; body.length() <= MAX_BODY; id++) {
      body.append("{\"id\": ")
          .append(id)
          .append(", \"grp\": 1, \"name\": \"filler filler filler\"}\n");
    }
    HttpResponse<String> r = post("item", body.toString());
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(db.table("item").rowCount()).isEqualTo(before);
    assertThat(get("/v1/status").statusCode()).as("the server goes on").isEqualTo(200);
  }

  @Test
  void anInactiveIndexIsRefusedWith409() throws Exception {
    IndexInfo ix = db.catalog().index("item_born");
    try (BulkWrite b = Engine.of(db).beginBulk()) {
      IndexState s = b.published().index(ix.id());
      b.meta().index(ix.id(), new IndexState(s.root(), IndexStatus.INACTIVE));
      b.publish();
    }
    assertError(
        get("/v1/tables/item/indexes/item_born?key=2000-01-05"),
        409,
        "index item_born is inactive (expected: an active index; rebuild it with: idxkit idxbuild DB --inactive)");
    assertThat(get("/v1/tables/item").body())
        .contains(
            "{\"name\":\"item_born\",\"unique\":false,\"area\":\"index\",\"state\":\"inactive\"");
  }
}
