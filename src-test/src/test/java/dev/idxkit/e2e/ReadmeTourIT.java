package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's tour, run as a new user would: every {@code $} line of the "A tour of the commands"
 * section, in order, through {@code bash} in an empty directory with an {@code idxkit} on the
 * {@code PATH} that runs the packaged CLI. Each command must end with the exit code the README
 * shows ({@code [exit N]} after its output, else 0); for a command shown failing, every line the
 * README shows (but a {@code ...} for lines left out) must be in its output; for {@code cat}, the
 * output must be the README's exactly. A command ending in {@code &} (the server) runs in the
 * background until its first line (printed once it listens), and is stopped at the end. If the
 * README's port is taken on this machine, the tour runs on a free one instead (the only change made
 * to the text).
 */
class ReadmeTourIT {
  @TempDir Path work;

  /** One {@code $} line and what the README shows after it. */
  record Step(String command, List<String> shown, int exit) {}

  static List<Step> tour(String readme) {
    int from = readme.indexOf("## A tour of the commands");
    int to = readme.indexOf("\n## ", from + 1);
    String section = readme.substring(from, to);
    List<Step> steps = new ArrayList<>();
    Matcher block = Pattern.compile("```text\\n(.*?)```", Pattern.DOTALL).matcher(section);
    while (block.find()) {
      String command = null;
      List<String> shown = new ArrayList<>();
      int exit = 0;
      for (String line : block.group(1).split("\n", -1)) {
        if (line.startsWith("$ ")) {
          if (command != null) {
            steps.add(new Step(command, trimmed(shown), exit));
          }
          command = line.substring(2);
          shown = new ArrayList<>();
          exit = 0;
        } else if (line.matches("\\[exit \\d+]")) {
          exit = Integer.parseInt(line.replaceAll("\\D", ""));
        } else if (command != null) {
          shown.add(line);
        }
      }
      if (command != null) {
        steps.add(new Step(command, trimmed(shown), exit));
      }
    }
    return steps;
  }

  private static List<String> trimmed(List<String> lines) {
    List<String> out = new ArrayList<>(lines);
    while (!out.isEmpty() && out.get(out.size() - 1).isBlank()) {
      out.remove(out.size() - 1);
    }
    return out;
  }

  @Test
  void theTourRunsAsWritten() throws Exception {
    String readme = Files.readString(Cli.repo().resolve("README.md"), StandardCharsets.UTF_8);
    if (!portFree(7071)) {
      readme = readme.replace(":7071", ":" + freePort()).replace("--port 7071", "--port " + port);
    }
    List<Step> steps = tour(readme);
    assertThat(steps).as("the tour's commands").hasSizeGreaterThan(15);
    Path bin = Files.createDirectories(work.resolve(".bin"));
    Path launcher = bin.resolve("idxkit");
    Files.writeString(
        launcher,
        "#!/usr/bin/env bash\nexec "
            + String.join(" ", Cli.java().stream().map(ReadmeTourIT::quote).toList())
            + " -jar "
            + quote(Cli.jar().toString())
            + " \"$@\"\n");
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path dir = Files.createDirectories(work.resolve("tour"));
    List<Process> background = new ArrayList<>();
    try {
      for (Step step : steps) {
        String cmd = step.command().strip();
        if (cmd.endsWith("&")) {
          Process p = bash(dir, bin, cmd.substring(0, cmd.length() - 1)).start();
          background.add(p);
          BufferedReader r =
              new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
          String first = r.readLine(); // printed once the server listens
          assertThat(first).as("first line of " + cmd).isNotNull().startsWith("idxkit serve:");
          continue;
        }
        Process p = bash(dir, bin, cmd).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)).as(cmd).isTrue();
        String what = "$ " + cmd + "\n" + out;
        assertThat(p.exitValue()).as(what).isEqualTo(step.exit());
        List<String> lines = List.of(out.split("\\R"));
        if (cmd.startsWith("cat ")) {
          assertThat(lines).as(what).containsExactlyElementsOf(step.shown());
        } else if (step.exit() != 0) {
          // "..." in the README stands for lines left out (timings and the like)
          assertThat(lines)
              .as(what)
              .containsAll(step.shown().stream().filter(l -> !l.equals("...")).toList());
        }
      }
    } finally {
      for (Process p : background) {
        p.destroy();
        p.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  private static ProcessBuilder bash(Path dir, Path bin, String command) {
    ProcessBuilder pb =
        new ProcessBuilder("bash", "-c", command).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    pb.redirectInput(ProcessBuilder.Redirect.from(Cli.nullFile()));
    return pb;
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  private static int port;

  private static boolean portFree(int p) {
    try (ServerSocket s = new ServerSocket(p)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
      return port;
    }
  }
}
