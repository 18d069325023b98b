package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.JavaCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the packaged command line as a user would: {@code java <flags> -Didxkit.home=REPO -jar
 * cli/target/idxkit.jar ARGS} in a working directory of the test's choosing, with the JVM flags the
 * build wrote to {@code cli/target/jvm.args} and the home property, as the {@code ./idxkit}
 * launcher runs it. The repository root comes from the {@code idxkit.repo} system property that
 * Failsafe sets.
 */
public final class Cli {
  /** Generous for a JVM start on a loaded 2-core machine; a hung command fails the test. */
  public static final long TIMEOUT_SECONDS = 120;

  private Cli() {}

  /** What a run printed and returned. */
  record Result(List<String> args, int exit, String out, String err) {
    List<String> errLines() {
      return err.isEmpty() ? List.of() : List.of(err.split("\\R"));
    }

    List<String> outLines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\\R"));
    }

    @Override
    public String toString() {
      return "idxkit "
          + String.join(" ", args)
          + " -> exit "
          + exit
          + "\n--- stdout\n"
          + out
          + "--- stderr\n"
          + err;
    }
  }

  static Path repo() {
    String r = System.getProperty("idxkit.repo");
    assertThat(r).as("system property idxkit.repo (set by Failsafe)").isNotBlank();
    return Path.of(r);
  }

  static Path jar() {
    Path jar = repo().resolve("cli/target/idxkit.jar");
    assertThat(jar).as("the packaged CLI; run mvn package on cli first").exists();
    return jar;
  }

  /** The JVM part of the launcher's command line: {@code java <flags> -Didxkit.home=REPO}. */
  static List<String> java() throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(JavaCommand.java());
    String flags = Files.readString(repo().resolve("cli/target/jvm.args")).strip();
    cmd.addAll(Arrays.asList(flags.split("\\s+")));
    cmd.add("-Didxkit.home=" + repo());
    return cmd;
  }

  /** The full command line for {@code args}. */
  static List<String> command(String... args) throws IOException {
    List<String> cmd = java();
    cmd.add("-jar");
    cmd.add(jar().toString());
    cmd.addAll(Arrays.asList(args));
    return cmd;
  }

  /** Runs to completion with stdout and stderr captured in files under {@code cwd}. */
  static Result run(Path cwd, String... args) throws IOException, InterruptedException {
    Path out = Files.createTempFile(cwd, ".out-", ".txt");
    Path err = Files.createTempFile(cwd, ".err-", ".txt");
    try {
      Process p =
          new ProcessBuilder(command(args))
              .directory(cwd.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(nullFile()))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor();
        throw new AssertionError(
            "idxkit " + String.join(" ", args) + " still running after " + TIMEOUT_SECONDS + " s");
      }
      return new Result(
          List.of(args),
          p.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** Starts a run with stdout and stderr as pipes the test reads. */
  public static Process start(Path cwd, String... args) throws IOException {
    return new ProcessBuilder(command(args))
        .directory(cwd.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(nullFile()))
        .start();
  }

  static java.io.File nullFile() {
    return new java.io.File(
        System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }
}
