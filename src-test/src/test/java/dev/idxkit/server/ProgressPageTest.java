package dev.idxkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idxkit.cli.server.IdxkitServer;
import dev.idxkit.cli.server.JobProgress;
import dev.idxkit.cli.server.ProgressServer;
import dev.idxkit.cli.server.RebuildProgress;
import dev.idxkit.core.Database;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.RebuildReport;
import dev.idxkit.idxbuild.temp.SrtFile;
import java.awt.image.BufferedImage;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress page of a rebuild that is running: the rebuild is held at the start of its build
 * phase (a listener waits on a latch), so the page is looked at while the scan is done, the build
 * running and the publish still to come - no timing involved. The page and {@code /v1/status} are
 * checked as text; then, where Debian's Chromium is installed, the page is loaded in headless
 * Chromium: its DOM after the page's own script has polled the server, and a screenshot whose
 * progress bars are found by their colours.
 */
class ProgressPageTest {
  static {
    NettyLeaks.install();
  }

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final String DONE_GREEN = "3a9d5d";
  static final String RUNNING_BLUE = "2f7ed8";

  @TempDir Path tmp;
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  final ObjectMapper json = new ObjectMapper();
  final List<String> log = new CopyOnWriteArrayList<>();

  interface WhileHeld {
    void run(IdxkitServer server) throws Exception;
  }

  /** Runs a rebuild of every index, holds it as its build phase starts, runs {@code check}. */
  private void duringRebuild(WhileHeld check) throws Exception {
    Path dir = tmp.resolve("item.db");
    ItemDb.create(dir);
    Path sort = Files.createDirectories(tmp.resolve("sort"));
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    RebuildListener hold =
        new RebuildListener() {
          @Override
          public void phaseStarted(String phase, long totalUnits, String unit) {
            if (phase.equals("build")) {
              held.countDown();
              try {
                if (!release.await(5, TimeUnit.MINUTES)) {
                  throw new IllegalStateException("the test never let the rebuild go on");
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while held", e);
              }
            }
          }
        };
    ExecutorService runner = Executors.newSingleThreadExecutor(r -> new Thread(r, "rebuild"));
    JobProgress job = JobProgress.start("idxbuild item.db");
    job.tempBytes(() -> RebuildProgress.tempBytes(SrtFile.ofDirectory(sort)));
    try (Database db = Database.open(dir);
        IdxkitServer server = ProgressServer.start("127.0.0.1", 0, job, db, log::add)) {
      RebuildOptions options =
          RebuildOptions.defaults(SrtFile.ofDirectory(sort))
              .withThreads(1, 1, 1)
              .withMemory(64 << 20);
      Future<RebuildReport> rebuild =
          runner.submit(
              () ->
                  new IndexRebuild(db, options, "-T " + sort, new RebuildProgress(job, hold))
                      .run());
      try {
        assertThat(held.await(5, TimeUnit.MINUTES))
            .as("the rebuild reached its build phase")
            .isTrue();
        check.run(server);
      } finally {
        release.countDown();
      }
      RebuildReport report = rebuild.get(5, TimeUnit.MINUTES);
      assertThat(report.indexes()).hasSize(5);
      JsonNode after = status(server).get("job");
      assertThat(after.get("state").asText()).isEqualTo("done");
      assertThat(after.get("phases"))
          .extracting(p -> p.get("state").asText())
          .containsExactly("done", "done", "done");
    } finally {
      runner.shutdownNow();
    }
    assertThat(log).isEmpty();
    NettyLeaks.assertNone();
  }

  private JsonNode status(IdxkitServer server) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "v1/status")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return json.readTree(r.body());
  }

  @Test
  void pageAndStatusShowEachPhaseOfTheRunningRebuild() throws Exception {
    duringRebuild(
        server -> {
          JsonNode job = status(server).get("job");
          assertThat(job.get("name").asText()).isEqualTo("idxbuild item.db");
          assertThat(job.get("state").asText()).isEqualTo("running");
          JsonNode phases = job.get("phases");
          assertThat(phases)
              .extracting(p -> p.get("name").asText())
              .containsExactly("scan", "build", "publish");
          assertThat(phases)
              .extracting(p -> p.get("state").asText())
              .containsExactly("done", "running", "pending");
          JsonNode scan = phases.get(0);
          assertThat(scan.get("unit").asText()).isEqualTo("pages");
          assertThat(scan.get("done").asLong()).isPositive().isEqualTo(scan.get("total").asLong());
          assertThat(scan.get("fraction").asDouble()).isEqualTo(1.0);
          JsonNode build = phases.get(1);
          assertThat(build.get("unit").asText()).isEqualTo("entries");
          assertThat(build.get("total").asLong())
              .as("keys of 5 indexes")
              .isEqualTo(3L * ItemDb.ROWS + ItemDb.BLOBS + 1);
          assertThat(build.get("done").asLong()).isZero();

          HttpResponse<String> page =
              http.send(
                  HttpRequest.newBuilder(URI.create(server.url())).build(),
                  HttpResponse.BodyHandlers.ofString());
          assertThat(page.headers().firstValue("content-type"))
              .hasValue("text/html; charset=utf-8");
          assertThat(page.body())
              .contains("<title>idxkit idxbuild item.db</title>")
              .contains("<td class=\"phase\">scan</td><td class=\"state\">done</td>")
              .contains("<td class=\"phase\">build</td><td class=\"state\">running</td>")
              .contains("<td class=\"phase\">publish</td><td class=\"state\">pending</td>")
              .contains("width:100.0%")
              // the plan: where the sort directories came from, memory, each group's indexes
              .contains("<h2>Plan</h2><pre>-T " + tmp.resolve("sort"))
              .containsPattern("memory 64.0 MiB for \\d+ sort groups?; 1 scan thread")
              .containsPattern("\\n\\d +item_pk +[\\d,]+ ")
              // the temp directories, with the bytes in their files now
              .contains("<h2>Temp space</h2>")
              .contains("<td><code>" + tmp.resolve("sort") + "</code></td><td class=\"num\">");
          assertThat(job.get("plan").size()).isGreaterThan(3);
          assertThat(job.get("tempBytes").has(tmp.resolve("sort").toString())).isTrue();
          // The job's server serves the database too, read-only, beside the rebuild.
          HttpResponse<String> row =
              http.send(
                  HttpRequest.newBuilder(
                          URI.create(
                              server.url() + "v1/tables/item/indexes/item_pk?key=9&columns=id"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
          assertThat(row.body()).isEqualTo("{\"id\":9}\n");
          String metrics =
              http.send(
                      HttpRequest.newBuilder(URI.create(server.url() + "metrics")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .body();
          assertThat(
                  ServerApiTest.metric(
                      metrics, "idxkit_job_phase_state{phase=\"build\",state=\"running\"}"))
              .isEqualTo(1);
          assertThat(
                  ServerApiTest.metric(
                      metrics, "idxkit_job_phase_done_units{phase=\"scan\",unit=\"pages\"}"))
              .isEqualTo(scan.get("done").asLong());
        });
  }

  @Test
  void headlessChromiumRendersThePhasesAndTheirBars() throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(CHROMIUM),
        "skipped: "
            + CHROMIUM
            + " is not installed (apt-get install -y chromium; .ci/run installs it)");
    Path shot = Path.of("target", "screenshots", "progress-page.png").toAbsolutePath();
    Files.createDirectories(shot.getParent());
    Files.deleteIfExists(shot);
    duringRebuild(
        server -> {
          // The DOM after the page's script polled /v1/status and redrew the table.
          String dom =
              chromium(
                  tmp.resolve("profile-dom"),
                  "--virtual-time-budget=5000",
                  "--dump-dom",
                  server.url());
          assertThat(dom)
              .contains("<td class=\"phase\">scan</td><td class=\"state\">done</td>")
              .contains("<td class=\"phase\">build</td><td class=\"state\">running</td>")
              .contains("<td class=\"phase\">publish</td><td class=\"state\">pending</td>")
              .contains("Updated ") // written only by the script, after a successful poll
              .contains("<h2>Plan</h2>")
              .contains("<h2>Temp space</h2>");
          chromium(
              tmp.resolve("profile-shot"),
              "--screenshot=" + shot,
              "--window-size=1000,1000",
              server.url());
        });
    assertThat(shot).exists();
    byte[] png = Files.readAllBytes(shot);
    assertThat(png.length).as("PNG bytes").isBetween(5_000, 2_000_000);
    assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    BufferedImage img = ImageIO.read(shot.toFile());
    assertThat(img.getWidth()).isEqualTo(1000);
    assertThat(img.getHeight()).isEqualTo(1000);
    // The scan's bar is green (done) and full; the build's is running at 0 %, so only its text.
    assertThat(pixels(img, DONE_GREEN))
        .as("green pixels of the finished scan's bar")
        .isGreaterThan(2_000);
    System.out.println("ProgressPageTest: screenshot at " + shot);
  }

  static int pixels(BufferedImage img, String hex) {
    int rgb = Integer.parseInt(hex, 16);
    int n = 0;
    for (int y = 0; y < img.getHeight(); y++) {
      for (int x = 0; x < img.getWidth(); x++) {
        if ((img.getRGB(x, y) & 0xFFFFFF) == rgb) {
          n++;
        }
      }
    }
    return n;
  }

  /** Runs headless Chromium with the flags CI uses plus {@code args}; returns its stdout. */
  static String chromium(Path profile, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(CHROMIUM.toString());
    cmd.addAll(
        List.of(
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--user-data-dir=" + profile));
    cmd.addAll(List.of(args));
    File out = Files.createTempFile("chromium", ".out").toFile();
    File err = Files.createTempFile("chromium", ".err").toFile();
    try {
      Process p = new ProcessBuilder(cmd).redirectOutput(out).redirectError(err).start();
      if (!p.waitFor(3, TimeUnit.MINUTES)) {
        p.destroyForcibly().waitFor();
        throw new AssertionError("chromium still running after 3 minutes: " + cmd);
      }
      String stderr = Files.readString(err.toPath());
      assertThat(p.exitValue()).as(String.join(" ", cmd) + "\n" + stderr).isZero();
      return Files.readString(out.toPath());
    } finally {
      out.delete();
      err.delete();
    }
  }
}
