package dev.idxkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.cli.server.IdxkitServer;
import dev.idxkit.cli.server.ServerConfig;
import dev.idxkit.core.Database;
import dev.idxkit.core.testing.Seeds;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile or broken client can do to the server: random bytes, requests cut off, headers and
 * URLs and bodies over the limits, a client that trickles a byte at a time, one that stops reading,
 * a thousand connections at once, and more connections than allowed. After each, the server must
 * answer a normal request, hold no connection the client has left, and (at the end) have leaked no
 * buffer. Limits and timeouts are set small here so the test waits seconds, not minutes.
 */
class HostileInputTest {
  static {
    NettyLeaks.install();
  }

  static final int MAX_HEADER = 4 << 10;
  static final int MAX_LINE = 2 << 10;
  static final int MAX_BODY = 64 << 10;
  static final int CONNECTIONS = Integer.getInteger("idxkit.test.connections", 1000);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(2);
  static final Duration WRITE_TIMEOUT = Duration.ofSeconds(1);

  @TempDir static Path tmp;
  static Database db;
  static IdxkitServer server;
  static final List<String> log = new CopyOnWriteArrayList<>();
  static final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() {
    Path dir = tmp.resolve("item.db");
    ItemDb.create(dir);
    db = Database.open(dir);
    server = IdxkitServer.start(config(CONNECTIONS + 100), db, null, log::add);
  }

  static ServerConfig config(int maxConnections) {
    return ServerConfig.defaults()
        .withListen("127.0.0.1", 0)
        .withWritable(true)
        .withSizeLimits(MAX_BODY, MAX_HEADER, MAX_LINE)
        .withMaxConnections(maxConnections)
        .withTimeouts(REQUEST_TIMEOUT, IDLE_TIMEOUT, WRITE_TIMEOUT);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (db != null) {
      db.close();
    }
    NettyLeaks.assertNone();
  }

  /** After every hostile act: a normal request is answered, and no abandoned connection is held. */
  @AfterEach
  void serverStillServes() throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(server.url() + "v1/tables/item/indexes/item_pk?key=6&columns=id"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("{\"id\":6}\n");
    // The client above keeps its connection alive; every other one must go.
    await(
        () -> server.openConnections() <= 1, "connections left open: " + server.openConnections());
    assertThat(log).as("errors the server logged").isEmpty();
  }

  /** Polls {@code condition} every millisecond for up to a minute. */
  static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("still not true after a minute: " + what);
      }
      LockSupport.parkNanos(1_000_000);
    }
  }

  static String status(byte[] response) {
    String s = new String(response, StandardCharsets.ISO_8859_1);
    int eol = s.indexOf("\r\n");
    return eol < 0 ? s : s.substring(0, eol);
  }

  @Test
  void randomBytesAreRefusedOrDroppedNeverCrashTheServer() throws Exception {
    long seed = Seeds.seed();
    SplittableRandom random = new SplittableRandom(seed);
    int answered400 = 0;
    for (int i = 0; i < 120; i++) {
      byte[] junk = new byte[1 + random.nextInt(3000)];
      random.nextBytes(junk);
      if (i % 3 == 1) {
        // Garbage after a valid request line: the header parser sees it.
        byte[] head = "GET /v1/tables HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, junk, 0, Math.min(head.length, junk.length));
      }
      try (Socket s = RawHttp.connect(server.address())) {
        s.getOutputStream().write(junk);
        s.getOutputStream().write("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        s.shutdownOutput();
        byte[] answer = RawHttp.readToEnd(s);
        String st = status(answer);
        assertThat(answer.length == 0 || st.startsWith("HTTP/1.1 "))
            .as("answer to junk #" + i + ": " + st + "; " + Seeds.reproduce(seed, getClass()))
            .isTrue();
        assertThat(st).as(Seeds.reproduce(seed, getClass())).doesNotStartWith("HTTP/1.1 5");
        if (st.startsWith("HTTP/1.1 400")) {
          answered400++;
        }
      }
    }
    assertThat(answered400).as("junk answered 400 Bad Request").isPositive();
  }

  @Test
  void truncatedRequestsAreDroppedWhenTheClientLeaves() throws Exception {
    String[] halves = {
      "GET /v1/tab",
      "GET /v1/tables HTTP/1.1\r\nHost: test\r\nX-Half: ",
      "POST /v1/tables/item/rows HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\n{\"id\": 1",
      "POST /v1/tables/item/rows HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{\"id\"",
    };
    for (String half : halves) {
      try (Socket s = RawHttp.connect(server.address())) {
        RawHttp.send(s, half);
      } // closed with the request unfinished
    }
    long rows = db.table("item").rowCount();
    assertThat(rows).isEqualTo(ItemDb.ROWS);
  }

  @Test
  void oversizedHeadersUrlsAndBodiesGetTheirStatusAndTheConnectionCloses() throws Exception {
    try (Socket s = RawHttp.connect(server.address())) {
      RawHttp.send(
          s,
          "GET /v1/tables HTTP/1.1\r\nHost: test\r\nX-Big: "
              + "h".repeat(3 * MAX_HEADER)
              + "\r\n\r\n");
      byte[] a = RawHttp.readToEnd(s);
      assertThat(status(a)).isEqualTo("HTTP/1.1 431 Request Header Fields Too Large");
      assertThat(new String(a, StandardCharsets.UTF_8))
          .contains("request headers longer than " + MAX_HEADER + " bytes");
    }
    try (Socket s = RawHttp.connect(server.address())) {
      RawHttp.send(
          s, RawHttp.get("/v1/tables/item/indexes/item_pk?key=" + "9".repeat(2 * MAX_LINE)));
      assertThat(status(RawHttp.readToEnd(s))).isEqualTo("HTTP/1.1 414 Request-URI Too Long");
    }
    String row = "{\"id\": 1, \"grp\": 1}\n";
    String big = row.repeat(MAX_BODY / row.length() + 10);
    try (Socket s = RawHttp.connect(server.address())) {
      RawHttp.send(
          s,
          "POST /v1/tables/item/rows HTTP/1.1\r\nHost: test\r\nContent-Length: "
              + big.length()
              + "\r\n\r\n"
              + big);
      byte[] a = RawHttp.readToEnd(s);
      assertThat(status(a)).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
      assertThat(new String(a, StandardCharsets.UTF_8))
          .contains(
              "request body of "
                  + big.length()
                  + " bytes (expected: at most "
                  + MAX_BODY
                  + " bytes");
    }
    try (Socket s = RawHttp.connect(server.address())) {
      StringBuilder chunked =
          new StringBuilder(
              "POST /v1/tables/item/rows HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n");
      for (int sent = 0; sent <= MAX_BODY; sent += row.length()) {
        chunked.append(Integer.toHexString(row.length())).append("\r\n").append(row).append("\r\n");
      }
      chunked.append("0\r\n\r\n");
      RawHttp.send(s, chunked.toString());
      byte[] a = RawHttp.readToEnd(s);
      assertThat(status(a)).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
      assertThat(new String(a, StandardCharsets.UTF_8))
          .contains("chunked request body (expected: at most");
    }
    assertThat(db.table("item").rowCount()).isEqualTo(ItemDb.ROWS);
  }

  @Test
  void aClientTricklingOneByteAtATimeIsCutOffAtTheRequestDeadline() throws Exception {
    byte[] request =
        ("GET /v1/tables HTTP/1.1\r\nHost: test\r\nX-Slow: " + "s".repeat(200) + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    AtomicInteger sent = new AtomicInteger();
    ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
    try (Socket s = RawHttp.connect(server.address())) {
      // Paces the client (one byte every 100 ms, 24 s for the whole request); nothing waits on it.
      trickle.scheduleAtFixedRate(
          () -> {
            int i = sent.get();
            if (i < request.length) {
              try {
                s.getOutputStream().write(request[i]);
                sent.incrementAndGet();
              } catch (IOException e) {
                throw new IllegalStateException("closed", e); // ends the schedule
              }
            }
          },
          0,
          100,
          TimeUnit.MILLISECONDS);
      byte[] a = RawHttp.readToEnd(s); // returns when the server gives up on the client
      assertThat(status(a)).isEqualTo("HTTP/1.1 408 Request Timeout");
      assertThat(sent.get()).as("bytes sent before the server closed").isLessThan(request.length);
    } finally {
      trickle.shutdownNow();
    }
    try (Socket idle = RawHttp.connect(server.address())) {
      // Sends nothing: closed after the idle timeout, without an answer.
      assertThat(RawHttp.readToEnd(idle)).isEmpty();
    }
  }

  @Test
  void aClientThatStopsReadingALargeResponseIsClosedAfterTheWriteTimeout() throws Exception {
    long timedOut = server.connectionsTimedOut();
    try (Socket s = new Socket()) {
      s.setReceiveBufferSize(4096);
      s.setSoTimeout(RawHttp.SAFETY_TIMEOUT_MILLIS);
      s.connect(server.address());
      RawHttp.send(s, RawHttp.get("/v1/tables/blob/indexes/blob_pk"));
      // Reads nothing while the server fills the socket buffers, so its writes stall; it must
      // give up after the write timeout. Then what arrived is an incomplete chunked response.
      await(
          () -> server.connectionsTimedOut() > timedOut, "the stalled response was never cut off");
      RawHttp.Response r = RawHttp.read(s.getInputStream());
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.complete()).as("the response was cut off").isFalse();
    }
  }

  @Test
  void aThousandConcurrentConnectionsAreAllAnswered() throws Exception {
    List<Socket> sockets = new ArrayList<>(CONNECTIONS);
    try {
      for (int i = 0; i < CONNECTIONS; i++) {
        sockets.add(RawHttp.connect(server.address()));
      }
      for (int i = 0; i < CONNECTIONS; i++) {
        RawHttp.send(
            sockets.get(i),
            RawHttp.get("/v1/tables/item/indexes/item_pk?columns=id&key=" + (1 + i % ItemDb.ROWS)));
      }
      // All open at once (plus, perhaps, the kept-alive one of the check after the last test).
      await(
          () -> server.openConnections() >= CONNECTIONS,
          "connections admitted: " + server.openConnections());
      for (int i = 0; i < CONNECTIONS; i++) {
        InputStream in = sockets.get(i).getInputStream();
        RawHttp.Response r = RawHttp.read(in);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"id\":" + (1 + i % ItemDb.ROWS) + "}\n");
      }
    } finally {
      for (Socket s : sockets) {
        s.close();
      }
    }
  }

  @Test
  void connectionsOverTheLimitAre503AndTheOthersUnharmed() throws Exception {
    int limit = 16;
    try (IdxkitServer small = IdxkitServer.start(config(limit), db, null, log::add)) {
      List<Socket> admitted = new ArrayList<>();
      try {
        for (int i = 0; i < limit; i++) {
          Socket s = RawHttp.connect(small.address());
          admitted.add(s);
          RawHttp.send(s, RawHttp.get("/v1/status"));
          assertThat(RawHttp.read(s.getInputStream()).status()).isEqualTo(200); // now counted
        }
        for (int i = 0; i < 10; i++) {
          try (Socket s = RawHttp.connect(small.address())) {
            byte[] a = RawHttp.readToEnd(s);
            assertThat(status(a)).isEqualTo("HTTP/1.1 503 Service Unavailable");
            assertThat(new String(a, StandardCharsets.UTF_8))
                .contains("too many connections (limit 16)");
          }
        }
        for (Socket s : admitted) { // still served
          RawHttp.send(s, RawHttp.get("/v1/tables"));
          assertThat(RawHttp.read(s.getInputStream()).status()).isEqualTo(200);
        }
      } finally {
        for (Socket s : admitted) {
          s.close();
        }
      }
      await(() -> small.openConnections() == 0, "connections of the small server left open");
      try (Socket s = RawHttp.connect(small.address())) {
        RawHttp.send(s, RawHttp.get("/v1/status"));
        assertThat(RawHttp.read(s.getInputStream()).status()).isEqualTo(200);
      }
    }
  }
}
