package dev.idxkit.cli.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The page as the server renders it, before any script runs. */
class ProgressPageTest {
  @Test
  void rendersEveryPhaseWithProgressRateAndEtaAndEscapesText() {
    AtomicLong nanos = new AtomicLong();
    JobProgress job = new JobProgress("idxbuild <shop>.db", nanos::get);
    job.plan(List.of("scan", "build", "publish"));
    job.phaseStarted("scan", 1000, "pages");
    nanos.addAndGet(2_000_000_000L);
    job.progress("scan", 1000);
    job.phaseFinished("scan", 1000, "pages");
    job.phaseStarted("build", 400_000, "entries");
    nanos.addAndGet(1_000_000_000L);
    job.progress("build", 100_000);
    job.warning("index <x> & \"y\"");
    Api api =
        new Api(
            ServerConfig.defaults(),
            null,
            job,
            new ServerMetrics(),
            null,
            null,
            null,
            ServerLog.NONE,
            Transport.NIO);
    String html = ProgressPage.render(api);
    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("<title>idxkit idxbuild &lt;shop&gt;.db</title>")
        .contains("<td class=\"phase\">scan</td><td class=\"state\">done</td>")
        .contains("width:100.0%")
        .contains("1,000 / 1,000 pages")
        .contains("500 pages/s")
        .contains("<td class=\"phase\">build</td><td class=\"state\">running</td>")
        .contains("width:25.0%")
        .contains("100,000 / 400,000 entries")
        .contains("100.0k entries/s")
        .contains("<td class=\"num\">3.0s</td>") // 300,000 entries left at 100,000/s
        .contains("<tr class=\"pending\"><td class=\"phase\">publish</td>")
        .contains("<li>index &lt;x&gt; &amp; &quot;y&quot;</li>")
        .contains("fetch('/v1/status'")
        .doesNotContain("<script src")
        .doesNotContain("<link");
  }

  @Test
  void withoutAJobSaysSoAndLinksTheEndpoints() {
    Api api =
        new Api(
            ServerConfig.defaults(),
            null,
            null,
            new ServerMetrics(),
            null,
            null,
            null,
            ServerLog.NONE,
            Transport.NIO);
    assertThat(ProgressPage.render(api))
        .contains("No job is running here.")
        .contains("<a href=\"/v1/status\">")
        .doesNotContain("<script>");
  }
}
