package dev.idxkit.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Database;
import dev.idxkit.e2e.Cli;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code idxkit serve} as a DBA runs it: the packaged {@code cli/target/idxkit.jar} with the JVM
 * flags of {@code cli/target/jvm.args}, stopped with SIGTERM while a large scan is being read. The
 * scan must finish whole (in-flight requests complete), new connections must be refused, the
 * process must exit after saying the database is closed cleanly, and the database must then open
 * for writing, pass its check and hold what was posted.
 *
 * <p>Ordering without timing: the test reads the first response bytes of the scan before sending
 * SIGTERM, so the scan is in flight; it waits for the server's "stopping" line on stderr before
 * reading the rest, so the stop has begun while the scan still streams.
 */
class ServeJarIT {
  static final Pattern URL =
      Pattern.compile("at http://127\\.0\\.0\\.1:(\\d+)/ \\(transport (epoll|nio)");

  @TempDir Path work;

  @Test
  void sigtermFinishesTheInFlightScanAndClosesTheDatabaseCleanly() throws Exception {
    Path dir = work.resolve("item.db");
    ItemDb.create(dir);
    Process p = Cli.start(work, "serve", dir.toString(), "--port", "0", "--writable");
    try (BufferedReader out =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        BufferedReader err =
            new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      String startup = out.readLine();
      Matcher m = URL.matcher(String.valueOf(startup));
      assertThat(m.find()).as("startup line: " + startup).isTrue();
      int port = Integer.parseInt(m.group(1));
      String url = "http://127.0.0.1:" + port + "/";

      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpResponse<String> post =
          http.send(
              HttpRequest.newBuilder(URI.create(url + "v1/tables/item/rows"))
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"id\": 50000, \"grp\": 0, \"name\": \"before SIGTERM\"}\n"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).as(post.body()).isEqualTo(200);

      try (Socket scan = new Socket()) {
        // A small receive buffer (no autotuning): the 8 MB scan cannot all be sitting in kernel
        // buffers by the time SIGTERM arrives; the server is still writing it.
        scan.setReceiveBufferSize(16 << 10);
        scan.setSoTimeout(RawHttp.SAFETY_TIMEOUT_MILLIS);
        scan.connect(new InetSocketAddress("127.0.0.1", port));
        RawHttp.send(scan, RawHttp.get("/v1/tables/blob/indexes/blob_pk"));
        InputStream in = scan.getInputStream();
        RawHttp.Head head = RawHttp.readHead(in);
        assertThat(head.status()).isEqualTo(200); // the scan is in flight
        assertThat(head.headers()).containsEntry("transfer-encoding", "chunked");

        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start();
        assertThat(kill.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        String line;
        while ((line = err.readLine()) != null && !line.startsWith("idxkit serve: stopping")) {
          // the guard's own line comes first
        }
        assertThat(line)
            .as("the server's stopping line")
            .startsWith("idxkit serve: stopping: finishing in-flight requests");

        // The rest of the scan: a whole chunked response, every row.
        RawHttp.Response r = RawHttp.readBody(in, head);
        assertThat(r.complete()).as("the in-flight scan finished").isTrue();
        assertThat(in.read()).as("then the connection is closed").isEqualTo(-1);
        String[] rows = r.body().split("\n");
        assertThat(rows).hasSize(ItemDb.BLOBS);
        assertThat(rows[ItemDb.BLOBS - 1]).contains(ItemDb.blob(ItemDb.BLOBS));
      }
      assertThat(p.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("serve exits").isTrue();
      assertThat(p.exitValue()).as("the JVM's status after SIGTERM").isEqualTo(143);
      String rest = err.lines().reduce("", (a, b) -> a + b + "\n");
      assertThat(rest)
          .contains(
              "idxkit: interrupted; database "
                  + dir
                  + " closed cleanly; every answered write is committed");
      assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
          .isInstanceOf(ConnectException.class);
    } finally {
      p.destroyForcibly();
    }

    try (Database db = Database.open(dir)) {
      assertThat(db.check().problems()).isEmpty();
      assertThat(db.index("item_pk").get(50000L))
          .singleElement()
          .satisfies(row -> assertThat(row.get(2)).isEqualTo("before SIGTERM"));
      assertThat(db.table("item").rowCount()).isEqualTo(ItemDb.ROWS + 1);
    }
  }
}
