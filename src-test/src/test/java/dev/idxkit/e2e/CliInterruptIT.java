package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.idxkit.e2e.Cli.Result;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C during a long command: SIGINT to a dump that is blocked writing to a pipe the test has not
 * drained (so it cannot have finished), then the state line, then exit 130.
 *
 * <p>No timing: the dump's output is far larger than a pipe buffer, so after the header it blocks
 * until the test reads; the test waits for the state line on stderr before reading on, and only
 * then lets the dump continue to its next safe point, where it stops.
 */
class CliInterruptIT {
  /** About 1.3 MB of lineitem CSV: twenty times a Linux pipe buffer. */
  static final int ORDERS = 2500;

  @TempDir static Path work;

  @BeforeAll
  static void createAndFill() throws Exception {
    Result r = Cli.run(work, "create", "shop.db", "--tpch");
    assertThat(r.exit()).as(r.toString()).isZero();
    TpchFixture.fill(work.resolve("shop.db"), ORDERS);
  }

  @Test
  void ctrlCStopsADumpSaysTheDatabaseIsUnchangedAndExits130() throws Exception {
    // A shell without job control starts background commands with SIGINT ignored, and the child
    // inherits that: it would never hear the Ctrl-C. Say so instead of waiting forever.
    assumeFalse(
        sigintIgnored(),
        "SIGINT is ignored in this process (started in the background by a shell without job"
            + " control?), so a child cannot be interrupted; run the build in the foreground");
    Process p =
        Cli.start(
            work, "dump", "shop.db", "--table", "lineitem", "--csv", "-", "--progress", "none");
    long lines = 0;
    try (BufferedReader out =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        BufferedReader err =
            new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).startsWith("l_orderkey,l_partkey,");
      lines++;
      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start();
      assertThat(kill.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
      assertThat(kill.exitValue()).isZero();
      // A read-only command states at once that nothing changed; until then the dump is blocked
      // on the full pipe, so it cannot have finished.
      assertThat(err.readLine())
          .isEqualTo("idxkit: interrupted; database shop.db unchanged (opened read-only)");
      // Drain what the dump wrote before it reached its next safe point and stopped.
      while (out.readLine() != null) {
        lines++;
      }
      assertThat(p.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("dump exits").isTrue();
      assertThat(p.exitValue()).isEqualTo(130);
      assertThat(err.readLine()).as("nothing more on stderr: no second line, no trace").isNull();
    } finally {
      p.destroyForcibly();
    }
    assertThat(lines).as("rows printed before the stop").isLessThan(TpchFixture.lineitems(ORDERS));

    Result check = Cli.run(work, "check", "shop.db");
    assertThat(check.exit()).as(check.toString()).isZero();
  }

  /** Whether SIGINT (signal 2) is in this process's ignored set ({@code SigIgn} of procfs). */
  static boolean sigintIgnored() throws java.io.IOException {
    Path status = Path.of("/proc/self/status");
    if (!java.nio.file.Files.exists(status)) {
      return false;
    }
    for (String line : java.nio.file.Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << 1)) != 0;
      }
    }
    return false;
  }
}
