package dev.idxkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.e2e.Cli;
import java.awt.image.BufferedImage;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After the job: {@code idxkit idxbuild DB --http 127.0.0.1:0 --http-linger 10m} run as a user runs
 * it (the packaged CLI in its own JVM). Once it says the report stays on the page (it says so after
 * the rebuild has published and printed its report), the page in headless Chromium shows the job
 * done, its phases, and the final report the command printed; then the process is stopped. Skipped
 * without Debian's Chromium, as {@link ProgressPageTest} is.
 */
class ProgressPageLingerIT {
  @TempDir Path tmp;

  @Test
  void theFinalReportStaysOnThePageWhileTheCommandLingers() throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(ProgressPageTest.CHROMIUM),
        "skipped: "
            + ProgressPageTest.CHROMIUM
            + " is not installed (apt-get install -y chromium)");
    Path db = tmp.resolve("item.db");
    ItemDb.create(db);
    Path sort = Files.createDirectories(tmp.resolve("sort"));
    Path shot = Path.of("target", "screenshots", "progress-page-after.png").toAbsolutePath();
    Files.createDirectories(shot.getParent());
    Files.deleteIfExists(shot);
    Process p =
        Cli.start(
            tmp,
            "idxbuild",
            db.toString(),
            "-T",
            sort.toString(),
            "--http",
            "127.0.0.1:0",
            "--http-linger",
            "10m",
            "--progress",
            "none");
    List<String> stderr = new ArrayList<>();
    try {
      BufferedReader err =
          new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
      String url = null;
      for (String line = err.readLine(); line != null; line = err.readLine()) {
        stderr.add(line);
        if (line.startsWith("idxkit: progress at ")) {
          url = line.substring("idxkit: progress at ".length()).strip();
        }
        if (line.startsWith("idxkit: the report stays at ")) {
          break; // the job is over and its report is on the page
        }
      }
      assertThat(url).as("stderr: %s", stderr).isNotNull();
      assertThat(p.isAlive()).as("lingering; stderr: %s", stderr).isTrue();
      String dom =
          ProgressPageTest.chromium(
              tmp.resolve("profile-dom"), "--virtual-time-budget=3000", "--dump-dom", url);
      assertThat(dom)
          .contains("<span class=\"state done\">done</span>")
          .contains("<td class=\"phase\">publish</td><td class=\"state\">done</td>")
          .contains("<h2>Report</h2>")
          .containsPattern("rebuilt 5 indexes in [0-9.]+ s: ")
          .contains("<h2>Plan</h2>")
          .contains("The job has ended; this is its final report.")
          // the script's status line, not its "stopped answering" text for a server gone
          .doesNotContainPattern("id=\"conn\"[^>]*>The server stopped");
      ProgressPageTest.chromium(
          tmp.resolve("profile-shot"), "--screenshot=" + shot, "--window-size=1000,1000", url);
    } finally {
      p.destroy();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor();
      }
    }
    BufferedImage img = ImageIO.read(shot.toFile());
    assertThat(img.getWidth()).isEqualTo(1000);
    assertThat(ProgressPageTest.pixels(img, ProgressPageTest.DONE_GREEN))
        .as("green pixels of the finished phases' bars")
        .isGreaterThan(2_000);
    System.out.println("ProgressPageLingerIT: screenshot at " + shot);
  }
}
