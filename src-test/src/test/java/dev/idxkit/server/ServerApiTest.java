package dev.idxkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idxkit.cli.server.BearerToken;
import dev.idxkit.cli.server.IdxkitServer;
import dev.idxkit.cli.server.ServerConfig;
import dev.idxkit.core.Database;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every read endpoint of a read-only server and every way to ask it wrongly, through the JDK's
 * {@link HttpClient} on an ephemeral loopback port: what each answers, with which status, and that
 * each error is a JSON object naming the problem. Also a second server on the same database with a
 * bearer token. Ends with Netty's leak detector finding nothing and the server having logged no
 * error of its own.
 */
class ServerApiTest {
  static {
    NettyLeaks.install();
  }

  static final String TOKEN = "a3f1c2d4e5f60718293a4b5c6d7e8f90";

  @TempDir static Path tmp;
  static Database db;
  static IdxkitServer server;
  static IdxkitServer guarded;
  static final List<String> log = new CopyOnWriteArrayList<>();
  static final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static final ObjectMapper json = new ObjectMapper();

  @BeforeAll
  static void start() {
    Path dir = tmp.resolve("item.db");
    ItemDb.create(dir);
    db = Database.open(dir, Database.DatabaseOptions.defaults().readOnly());
    ServerConfig c = ServerConfig.defaults().withListen("127.0.0.1", 0);
    server = IdxkitServer.start(c, db, null, log::add);
    guarded = IdxkitServer.start(c.withToken(BearerToken.of(TOKEN)), db, null, log::add);
  }

  @AfterAll
  static void stop() {
    if (guarded != null) {
      guarded.close();
    }
    if (server != null) {
      server.close();
    }
    if (db != null) {
      db.close();
    }
    assertThat(log).as("errors the server logged").isEmpty();
    NettyLeaks.assertNone();
  }

  static HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + path.substring(1))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> send(HttpRequest.Builder r) throws Exception {
    return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  static String q(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  static List<JsonNode> lines(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type"))
        .hasValue("application/x-ndjson; charset=utf-8");
    List<JsonNode> out = new ArrayList<>();
    for (String l : r.body().split("\n")) {
      if (!l.isEmpty()) {
        out.add(json.readTree(l));
      }
    }
    return out;
  }

  /**
   * An error answer: its status, a JSON body with that status and a message containing all of
   * {@code parts}.
   */
  static void assertError(HttpResponse<String> r, int status, String... parts) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("content-type")).hasValue("application/json; charset=utf-8");
    JsonNode e = json.readTree(r.body());
    assertThat(e.get("status").asInt()).isEqualTo(status);
    assertThat(e.get("error").asText()).contains(parts);
  }

  @Test
  void tablesListsEveryTableWithItsRowsAndIndexes() throws Exception {
    HttpResponse<String> r = get("/v1/tables");
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode t = json.readTree(r.body()).get("tables");
    assertThat(t).hasSize(3);
    assertThat(t.get(0).get("name").asText()).isEqualTo("item");
    assertThat(t.get(0).get("rows").asLong()).isEqualTo(ItemDb.ROWS);
    assertThat(t.get(0).get("columns").asInt()).isEqualTo(9);
    assertThat(t.get(0).get("indexes").toString())
        .isEqualTo("[\"item_pk\",\"item_grp_name\",\"item_born\"]");
    assertThat(t.get(1).get("rows").asLong()).isEqualTo(ItemDb.BLOBS);
  }

  @Test
  void tableGivesColumnsTypesNullabilityAndIndexes() throws Exception {
    JsonNode t = json.readTree(get("/v1/tables/ITEM").body()); // names compare without case
    assertThat(t.get("name").asText()).isEqualTo("item");
    assertThat(t.get("rows").asLong()).isEqualTo(ItemDb.ROWS);
    assertThat(t.get("area").asText()).isEqualTo("data");
    assertThat(t.get("columns").get(3).toString())
        .isEqualTo("{\"name\":\"price\",\"type\":\"DECIMAL(10,2)\",\"nullable\":true}");
    assertThat(t.get("columns").get(0).get("nullable").asBoolean()).isFalse();
    JsonNode born = t.get("indexes").get(2);
    assertThat(born.toString())
        .isEqualTo(
            "{\"name\":\"item_born\",\"unique\":false,\"area\":\"index\",\"state\":\"active\","
                + "\"columns\":[{\"name\":\"born\",\"descending\":true}]}");
    assertThat(t.get("indexes").get(0).get("unique").asBoolean()).isTrue();
  }

  @Test
  void lookupReturnsTheRowsOfAKeyAsJsonLinesWithTheCliValueRules() throws Exception {
    HttpResponse<String> one = get("/v1/tables/item/indexes/item_pk?key=8");
    assertThat(lines(one)).hasSize(1);
    // The raw text: DECIMAL keeps its scale (10.00), which a JSON tree would not show.
    assertThat(one.body())
        .isEqualTo(
            "{\"id\":8,\"grp\":8,\"name\":\"item 8\",\"price\":10.00,\"ratio\":2.0,"
                + "\"born\":\"2000-01-09\",\"seen\":\"2020-02-29 13:05:08\",\"ok\":true,"
                + "\"bin\":\"\\\\x080a\"}\n");
    JsonNode five = lines(get("/v1/tables/item/indexes/item_pk?key=id%3D5")).get(0);
    assertThat(five.get("ratio").asText()).isEqualTo("NaN");
    assertThat(lines(get("/v1/tables/item/indexes/item_pk?key=4")).get(0).get("price").isNull())
        .isTrue();
    JsonNode three = lines(get("/v1/tables/item/indexes/item_pk?key=3")).get(0);
    assertThat(three.get("name").asText()).isEqualTo("comma, \"quote\"\nand a line");

    List<JsonNode> group = lines(get("/v1/tables/item/indexes/item_grp_name?key=7"));
    assertThat(group).hasSize(ItemDb.ROWS / 10).allMatch(n -> n.get("grp").asInt() == 7);
    List<JsonNode> named =
        lines(get("/v1/tables/item/indexes/item_grp_name?key=" + q("name=item 17,grp=7")));
    assertThat(named)
        .singleElement()
        .satisfies(n -> assertThat(n.get("id").asLong()).isEqualTo(17));
    List<JsonNode> nullName =
        lines(get("/v1/tables/item/indexes/item_grp_name?key=" + q("1,NULL")));
    assertThat(nullName)
        .singleElement()
        .satisfies(n -> assertThat(n.get("id").asLong()).isEqualTo(1));
    assertThat(lines(get("/v1/tables/item/indexes/item_pk?key=999999"))).isEmpty();
    assertThat(
            get("/v1/tables/item/indexes/item_pk?key=999999")
                .headers()
                .firstValue("content-length"))
        .hasValue("0");
  }

  @Test
  void scanHonoursBoundsLimitReverseAndColumns() throws Exception {
    List<JsonNode> r = lines(get("/v1/tables/item/indexes/item_pk?from=10&to=14"));
    assertThat(r).extracting(n -> n.get("id").asLong()).containsExactly(10L, 11L, 12L, 13L, 14L);
    List<JsonNode> rev = lines(get("/v1/tables/item/indexes/item_pk?from=10&to=14&reverse"));
    assertThat(rev).extracting(n -> n.get("id").asLong()).containsExactly(14L, 13L, 12L, 11L, 10L);
    List<JsonNode> lim =
        lines(get("/v1/tables/item/indexes/item_pk?from=10&limit=2&reverse=false"));
    assertThat(lim).extracting(n -> n.get("id").asLong()).containsExactly(10L, 11L);
    List<JsonNode> cols = lines(get("/v1/tables/item/indexes/item_pk?to=2&columns=name,id"));
    assertThat(cols)
        .extracting(JsonNode::toString)
        .containsExactly("{\"name\":null,\"id\":1}", "{\"name\":\"\",\"id\":2}");
    List<JsonNode> dates =
        lines(get("/v1/tables/item/indexes/item_born?from=2000-01-05&to=2000-01-02"));
    assertThat(dates).extracting(n -> n.get("id").asLong()).containsExactly(4L, 3L, 2L, 1L);
    List<JsonNode> all = lines(get("/v1/tables/item/indexes/item_pk?limit=0"));
    assertThat(all).hasSize(ItemDb.ROWS);
  }

  @Test
  void aScanFarLargerThanAChunkStreamsChunkedAndComplete() throws Exception {
    HttpResponse<String> r = get("/v1/tables/blob/indexes/blob_pk");
    assertThat(r.headers().firstValue("transfer-encoding")).hasValue("chunked");
    assertThat(r.headers().firstValue("content-length")).isEmpty();
    List<JsonNode> rows = lines(r);
    assertThat(rows).hasSize(ItemDb.BLOBS);
    for (int i = 0; i < rows.size(); i++) {
      assertThat(rows.get(i).get("id").asLong()).isEqualTo(i + 1);
      assertThat(rows.get(i).get("text").asText()).isEqualTo(ItemDb.blob(i + 1));
    }
  }

  @Test
  void pipelinedRequestsOnOneConnectionAreAnsweredInOrder() throws Exception {
    try (Socket s = RawHttp.connect(server.address())) {
      RawHttp.send(
          s,
          RawHttp.get("/v1/tables/blob/indexes/blob_pk?to=300")
              + RawHttp.get("/v1/tables/item/indexes/item_pk?key=2&columns=id")
              + RawHttp.get("/nope")
              + RawHttp.get("/v1/tables/item/indexes/item_pk?key=3&columns=id"));
      InputStream in = s.getInputStream();
      RawHttp.Response big = RawHttp.read(in);
      assertThat(big.status()).isEqualTo(200);
      assertThat(big.complete()).isTrue();
      assertThat(big.body().split("\n")).hasSize(300);
      assertThat(RawHttp.read(in).body()).isEqualTo("{\"id\":2}\n");
      assertThat(RawHttp.read(in).status()).isEqualTo(404);
      RawHttp.Response last = RawHttp.read(in);
      assertThat(last.body()).isEqualTo("{\"id\":3}\n");
      assertThat(last.headers()).doesNotContainEntry("connection", "close");
    }
  }

  @Test
  void everyMistakeIsA4xxNamingIt() throws Exception {
    assertError(get("/v1/tables/nope"), 404, "unknown table nope (known: blob, item, other)");
    assertError(get("/v1/tables/item/indexes/nope?key=1"), 404, "unknown index nope (known: ");
    assertError(
        get("/v1/tables/item/indexes/other_pk?key=1"),
        404,
        "index other_pk is on table other, not item (expected: /v1/tables/other/indexes/other_pk)");
    assertError(
        get("/v1/tables/item/indexes/item_pk?key=abc"), 400, "key : column id BIGINT:", "abc");
    assertError(
        get("/v1/tables/item/indexes/item_pk?key=1,2"),
        400,
        "key : 2 values for index item_pk (expected: at most 1, key columns: id BIGINT)");
    assertError(
        get("/v1/tables/item/indexes/item_grp_name?key=" + q("name=x")),
        400,
        "name given without grp");
    assertError(
        get("/v1/tables/item/indexes/item_born?from=2000-13-01"), 400, "from : column born DATE");
    assertError(get("/v1/tables/item/indexes/item_pk?key=1&from=2"), 400, "key given with from/to");
    assertError(
        get("/v1/tables/item/indexes/item_pk?limit=-1"),
        400,
        "limit : -1 (expected: a whole number >= 0");
    assertError(get("/v1/tables/item/indexes/item_pk?reverse=maybe"), 400, "reverse : maybe");
    assertError(
        get("/v1/tables/item/indexes/item_pk?columns=id,nope"),
        400,
        "columns : no column 'nope' in table item");
    assertError(
        get("/v1/tables/item/indexes/item_pk?form=1"), 400, "unknown query parameter 'form'");
    try (Socket s = RawHttp.connect(server.address())) { // a URI the JDK client will not send
      RawHttp.send(s, RawHttp.get("/v1/tables/item/indexes/item_pk?key=%zz"));
      RawHttp.Response r = RawHttp.read(s.getInputStream());
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.body()).contains("malformed URI /v1/tables/item/indexes/item_pk?key=%zz");
    }
    assertError(
        get("/v2/anything"), 404, "no endpoint GET /v2/anything (expected: GET /, /v1/status");
    HttpResponse<String> rowsGet = get("/v1/tables/item/rows");
    assertError(rowsGet, 405, "GET /v1/tables/item/rows : method not allowed (expected: POST)");
    assertThat(rowsGet.headers().firstValue("allow")).hasValue("POST");
    HttpResponse<String> put =
        send(
            HttpRequest.newBuilder(URI.create(server.url() + "v1/tables"))
                .PUT(HttpRequest.BodyPublishers.ofString("{}")));
    assertError(put, 405, "method PUT (expected: GET, POST)");
    assertThat(put.headers().firstValue("allow")).hasValue("GET, POST");
    HttpResponse<String> post =
        send(
            HttpRequest.newBuilder(URI.create(server.url() + "v1/tables/item/rows"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"id\":9999,\"grp\":1}\n")));
    assertError(
        post, 403, "POST /v1/tables/item/rows : the server is read-only (start it with --writable");
    assertThat(db.table("item").rowCount()).isEqualTo(ItemDb.ROWS);
  }

  @Test
  void statusDescribesServerAndDatabase() throws Exception {
    JsonNode s = json.readTree(get("/v1/status").body());
    assertThat(s.get("server").get("mode").asText()).isEqualTo("read-only");
    assertThat(s.get("server").get("transport").asText()).isIn("epoll", "nio");
    assertThat(s.get("server").get("url").asText()).isEqualTo(server.url());
    assertThat(s.get("server").get("connections").asInt()).isPositive();
    assertThat(s.get("database").get("path").asText())
        .isEqualTo(db.dir().toAbsolutePath().normalize().toString());
    assertThat(s.get("database").get("pageSize").asInt()).isEqualTo(8192);
    assertThat(s.get("database").get("tables").get(0).toString())
        .isEqualTo("{\"name\":\"item\",\"rows\":2000}");
    assertThat(s.get("job").isNull()).isTrue();
    HttpResponse<String> page = get("/");
    assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
    assertThat(page.body())
        .contains("No job is running here.")
        .contains(db.dir().toAbsolutePath().normalize().toString());
  }

  @Test
  void metricsCountRequestsByEndpointAndStatusAndShowTheStore() throws Exception {
    long before = metric(get("/metrics").body(), "idxkit_db_pages_read_total{area=\"index\"}");
    get("/v1/tables/nope");
    get("/v1/tables/item/indexes/item_pk?key=77");
    HttpResponse<String> m = get("/metrics");
    assertThat(m.headers().firstValue("content-type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    String text = m.body();
    assertThat(metric(text, "idxkit_http_requests_total{endpoint=\"table\",status=\"404\"}"))
        .isPositive();
    assertThat(metric(text, "idxkit_http_requests_total{endpoint=\"lookup\",status=\"200\"}"))
        .isPositive();
    assertThat(metric(text, "idxkit_http_request_duration_seconds_count{endpoint=\"lookup\"}"))
        .isPositive();
    assertThat(metric(text, "idxkit_db_pages_read_total{area=\"index\"}"))
        .as("the lookup read index pages")
        .isGreaterThan(before);
    assertThat(metric(text, "idxkit_db_table_rows{table=\"item\"}")).isEqualTo(ItemDb.ROWS);
    assertThat(metric(text, "idxkit_http_connections_open")).isPositive();
    assertThat(text)
        .contains("# TYPE idxkit_http_request_duration_seconds histogram\n")
        .contains("idxkit_db_wal_bytes ");
  }

  static long metric(String text, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
    assertThat(m.find()).as(series + " in\n" + text).isTrue();
    return (long) Double.parseDouble(m.group(1));
  }

  @Test
  void aServerReportingOnlyAJobHasNoTables() throws Exception {
    dev.idxkit.cli.server.JobProgress job = dev.idxkit.cli.server.JobProgress.start("load kv.db");
    job.plan(List.of("read", "index"));
    try (IdxkitServer progress =
        IdxkitServer.start(
            ServerConfig.defaults().withListen("127.0.0.1", 0), null, job, log::add)) {
      HttpResponse<String> tables =
          http.send(
              HttpRequest.newBuilder(URI.create(progress.url() + "v1/tables")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertError(tables, 404, "this server serves no database: it reports the progress of a job");
      JsonNode s =
          json.readTree(
              http.send(
                      HttpRequest.newBuilder(URI.create(progress.url() + "v1/status")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .body());
      assertThat(s.get("database").isNull()).isTrue();
      assertThat(s.get("job").get("phases"))
          .extracting(p -> p.get("name").asText())
          .containsExactly("read", "index");
      String page =
          http.send(
                  HttpRequest.newBuilder(URI.create(progress.url())).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(page)
          .contains("<title>idxkit load kv.db</title>")
          .contains("<td class=\"phase\">index</td>");
    }
  }

  @Test
  void withATokenEveryRequestNeedsIt() throws Exception {
    for (String path : List.of("", "v1/tables", "metrics", "v1/status", "nope")) {
      HttpResponse<String> none =
          http.send(
              HttpRequest.newBuilder(URI.create(guarded.url() + path)).build(),
              HttpResponse.BodyHandlers.ofString());
      assertError(none, 401, "missing or wrong bearer token");
      assertThat(none.headers().firstValue("www-authenticate")).hasValue("Bearer realm=\"idxkit\"");
      HttpResponse<String> wrong =
          http.send(
              HttpRequest.newBuilder(URI.create(guarded.url() + path))
                  .header("Authorization", "Bearer " + TOKEN.substring(0, 31) + "1")
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(wrong.statusCode()).isEqualTo(401);
    }
    HttpResponse<String> ok =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(guarded.url() + "v1/tables/item/indexes/item_pk?key=6"))
                .header("Authorization", "Bearer " + TOKEN)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(lines(ok)).hasSize(1);
    HttpResponse<String> post =
        http.send(
            HttpRequest.newBuilder(URI.create(guarded.url() + "v1/tables/item/rows"))
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).as("the token is checked before anything else").isEqualTo(401);
    assertThat(post.headers().firstValue("connection")).hasValue("close");
  }
}
