package dev.idxkit.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.cli.CliHarness;
import dev.idxkit.cli.InterruptGuard;
import dev.idxkit.cli.Main;
import dev.idxkit.cli.Session;
import dev.idxkit.core.Database;
import java.io.BufferedReader;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code idxkit serve} run in-process through picocli, as {@link Main} will once the command is
 * registered: the startup line, a write on a writable server, and the stop on Ctrl-C (the guard's
 * interrupt), after which the database opens for writing again and holds the write.
 */
class ServeCommandTest {
  static final Pattern URL =
      Pattern.compile("at (http://127\\.0\\.0\\.1:\\d+/) \\(transport (epoll|nio)");

  @TempDir Path tmp;
  Path db;
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeEach
  void create() throws Exception {
    Path ddl = tmp.resolve("item.sql");
    Files.writeString(ddl, ItemDb.DDL);
    db = tmp.resolve("item.db");
    CliHarness.Result r = new CliHarness().run("create", db.toString(), "--ddl", ddl.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    ItemDb.fill(db);
  }

  /** A serve command running on its own thread, as the main thread runs it in the real CLI. */
  final class Running {
    final PipedReader outPipe = new PipedReader(1 << 16);
    final StringWriter errText = new StringWriter();
    final AtomicReference<InterruptGuard> guard = new AtomicReference<>();
    final CompletableFuture<Integer> exit = new CompletableFuture<>();
    final Thread thread;
    final String startupLine;

    Running(String... args) throws Exception {
      PrintWriter out = new PrintWriter(new PipedWriter(outPipe), true);
      PrintWriter err = new PrintWriter(errText, true);
      CompletableFuture<Void> ready = new CompletableFuture<>();
      thread =
          new Thread(
              () -> {
                InterruptGuard g = InterruptGuard.detached(err); // guards this thread
                guard.set(g);
                ready.complete(null);
                try (Session s =
                    new Session(
                        g,
                        false,
                        new PrintStream(
                            new java.io.ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        StandardCharsets.UTF_8,
                        System::nanoTime,
                        Session.PLAIN_INTERVAL_MILLIS)) {
                  CommandLine cl = Main.commandLine(s, out, err);
                  if (!cl.getSubcommands().containsKey("serve")) { // until Main lists it
                    cl.addSubcommand("serve", new ServeCommand(s));
                  }
                  cl.getSubcommands().get("serve").setOut(out).setErr(err);
                  exit.complete(cl.execute(args));
                } catch (Throwable t) {
                  exit.completeExceptionally(t);
                } finally {
                  out.close(); // ends the pipe, so a reader waiting for a line sees the end
                }
              },
              "serve-command-test");
      thread.start();
      ready.get(60, TimeUnit.SECONDS);
      startupLine = new BufferedReader(outPipe).readLine();
    }

    String url() {
      Matcher m = URL.matcher(String.valueOf(startupLine));
      assertThat(m.find()).as("startup line: " + startupLine + "\nstderr: " + errText).isTrue();
      return m.group(1);
    }

    int stop() throws Exception {
      guard.get().interrupt();
      int code = exit.get(60, TimeUnit.SECONDS);
      thread.join(TimeUnit.SECONDS.toMillis(60));
      return code;
    }
  }

  private HttpResponse<String> send(HttpRequest r) throws Exception {
    return http.send(r, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void writableServerTakesARowAndStopsCleanlyOnInterrupt() throws Exception {
    Running s = new Running("serve", db.toString(), "--port", "0", "--writable");
    assertThat(s.startupLine).startsWith("idxkit serve: " + db + " writable at http://127.0.0.1:");
    String url = s.url();
    HttpResponse<String> post =
        send(
            HttpRequest.newBuilder(URI.create(url + "v1/tables/item/rows"))
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"id\": 1000, \"code\": 4, \"name\": \"posted\"}\n"))
                .build());
    assertThat(post.statusCode()).as(post.body()).isEqualTo(200);
    assertThat(post.body()).startsWith("{\"table\":\"item\",\"inserted\":1,\"rids\":[\"");
    HttpResponse<String> get =
        send(
            HttpRequest.newBuilder(
                    URI.create(url + "v1/tables/item/indexes/item_pk?key=1000&columns=name"))
                .build());
    assertThat(get.body()).isEqualTo("{\"name\":\"posted\"}\n");

    assertThat(s.stop()).isEqualTo(130);
    assertThat(s.errText.toString())
        .contains("idxkit serve: stopping: finishing in-flight requests")
        .contains(
            "idxkit: interrupted; database "
                + db
                + " closed cleanly; every answered write is committed");
    try (Database d = Database.open(db)) { // the writer's lock was released
      assertThat(d.index("item_pk").get(1000L)).hasSize(1);
      assertThat(d.check().problems()).isEmpty();
    }
  }

  @Test
  void readOnlyIsTheDefaultAndRefusesWrites() throws Exception {
    Running s = new Running("serve", db.toString(), "--port", "0");
    assertThat(s.startupLine).contains(" read-only at ");
    HttpResponse<String> post =
        send(
            HttpRequest.newBuilder(URI.create(s.url() + "v1/tables/item/rows"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"id\": 1000, \"code\": 4}\n"))
                .build());
    assertThat(post.statusCode()).isEqualTo(403);
    assertThat(post.body()).contains("the server is read-only (start it with --writable");
    assertThat(s.stop()).isEqualTo(130);
    assertThat(s.errText.toString())
        .contains("idxkit: interrupted; database " + db + " unchanged (served read-only)");
  }

  @Test
  void aPortInUseIsAFailureNamingTheAddress() throws Exception {
    try (java.net.ServerSocket taken =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      Running s = new Running("serve", db.toString(), "--port", Integer.toString(port));
      assertThat(s.startupLine).isNull();
      assertThat(s.exit.get(60, TimeUnit.SECONDS)).isEqualTo(1);
      assertThat(s.errText.toString())
          .contains("idxkit: cannot listen on 127.0.0.1:" + port + " (");
    }
    try (Database d = Database.open(db)) { // closed again after the failed start
      assertThat(d.table("item").rowCount()).isEqualTo(ItemDb.ROWS);
    }
  }

  @Test
  void badOptionsAreBadInput() throws Exception {
    Running port = new Running("serve", db.toString(), "--port", "70000");
    assertThat(port.startupLine).isNull();
    assertThat(port.exit.get(60, TimeUnit.SECONDS)).isEqualTo(2);
    assertThat(port.errText.toString()).contains("idxkit: port : 70000 (expected: 0..65535)");

    Running token =
        new Running(
            "serve", db.toString(), "--port", "0", "--token-file", tmp.resolve("nope").toString());
    assertThat(token.exit.get(60, TimeUnit.SECONDS)).isEqualTo(2);
    assertThat(token.errText.toString())
        .contains("--token-file : " + tmp.resolve("nope") + " does not exist");

    Running both = new Running("serve", db.toString(), "--read-only", "--writable");
    assertThat(both.exit.get(60, TimeUnit.SECONDS)).isEqualTo(2);
    assertThat(both.errText.toString()).contains("mutually exclusive");

    Running duration = new Running("serve", db.toString(), "--idle-timeout", "soon");
    assertThat(duration.exit.get(60, TimeUnit.SECONDS)).isEqualTo(2);
    assertThat(duration.errText.toString())
        .contains("duration 'soon' (expected: a whole number with ms, s, m or h");
  }
}
