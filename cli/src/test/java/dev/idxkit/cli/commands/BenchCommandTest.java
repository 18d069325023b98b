package dev.idxkit.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.cli.CommandInterruptedException;
import dev.idxkit.cli.InterruptGuard;
import dev.idxkit.cli.Main;
import dev.idxkit.cli.Session;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code idxkit bench} in this JVM: the help and usage errors through picocli as {@link Main}
 * configures it (with bench added, as the lead will register it), the jar's staleness rule, and the
 * child handling (streaming, exit code, Ctrl-C) with a stub main class instead of the benchmarks
 * jar. The real jar is exercised end to end by {@code BenchCommandIT} in src-test.
 */
class BenchCommandTest {
  @TempDir Path tmp;

  private final StringWriter outText = new StringWriter();
  private final StringWriter errText = new StringWriter();
  private final PrintWriter err = new PrintWriter(errText, true);
  private final InterruptGuard guard = InterruptGuard.detached(err);

  private Session session() {
    return new Session(
        guard,
        false,
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        StandardCharsets.UTF_8,
        System::nanoTime,
        Session.PLAIN_INTERVAL_MILLIS);
  }

  private int bench(String... args) {
    try (Session s = session()) {
      PrintWriter out = new PrintWriter(outText, true);
      CommandLine cl = Main.commandLine(s, out, err);
      String[] full = new String[args.length + 1];
      full[0] = "bench";
      System.arraycopy(args, 0, full, 1, args.length);
      return cl.execute(full);
    }
  }

  @Test
  void helpListsEveryExperimentWithItsDescription() {
    assertThat(bench("--help")).isZero();
    String help = outText.toString();
    assertThat(help).contains("Usage: idxkit bench", "EXPERIMENT", "Experiments:", "Exit codes:");
    for (BenchCommand.Experiment e : BenchCommand.EXPERIMENTS.values()) {
      List<String> entry = BenchCommand.helpLines(e);
      assertThat(help).contains(String.join("\n", entry));
      assertThat(entry.get(0)).startsWith(String.format("  %-11s ", e.name()));
      assertThat(String.join(" ", entry).replaceAll("\\s+", " ").strip())
          .isEqualTo(e.name() + " " + e.description());
    }
    assertThat(help.lines()).allMatch(l -> l.length() <= BenchCommand.HELP_WIDTH);
    assertThat(BenchCommand.EXPERIMENTS.keySet())
        .containsExactly("io", "growth", "accounting", "durability", "compare", "idxbuild", "load");
  }

  @Test
  void noOrAnUnknownExperimentIsBadUsage() {
    assertThat(bench()).isEqualTo(2);
    assertThat(errText.toString())
        .contains(
            "no experiment given (expected one of: io, growth, accounting, durability, compare,"
                + " idxbuild, load)");
    assertThat(bench("iox")).isEqualTo(2);
    assertThat(errText.toString()).contains("unknown experiment 'iox' (expected one of: io,");
  }

  @Test
  void withoutIdxkitHomeItSaysToUseTheLauncher() {
    String before = System.getProperty("idxkit.home");
    System.clearProperty("idxkit.home");
    try {
      assertThat(bench("io", "--help")).isEqualTo(2);
      assertThat(errText.toString()).contains("run it through the ./idxkit launcher");
    } finally {
      if (before != null) {
        System.setProperty("idxkit.home", before);
      }
    }
  }

  @Test
  void everythingAfterTheExperimentIsTheExperimentsOwn() {
    BenchCommand cmd = new BenchCommand(session());
    new CommandLine(cmd).parseArgs("--no-build", "io", "1g", "--help", "--out", "x", "--verbose");
    assertThat(cmd.noBuild).isTrue();
    assertThat(cmd.experiment).isEqualTo("io");
    assertThat(cmd.args).containsExactly("1g", "--help", "--out", "x", "--verbose");
    assertThat(
            BenchCommand.childCommand(
                Path.of("/j/bin/java"),
                List.of("--add-opens=a", "-Dx=y"),
                Path.of("/r/jmh/target/benchmarks.jar"),
                "dev.idxkit.jmh.experiments.IoBench",
                cmd.args))
        .containsExactly(
            "/j/bin/java",
            "--add-opens=a",
            "-Dx=y",
            "-cp",
            "/r/jmh/target/benchmarks.jar",
            "dev.idxkit.jmh.experiments.IoBench",
            "1g",
            "--help",
            "--out",
            "x",
            "--verbose");
  }

  @Test
  void theJarIsStaleWhenMissingOrOlderThanASourceOfItsModules() throws IOException {
    Path home = tmp.resolve("repo");
    Path jar = home.resolve(BenchCommand.JAR);
    Path src = home.resolve("core/src/main/java/A.java");
    Path cliSrc = home.resolve("cli/src/main/java/B.java");
    Files.createDirectories(jar.getParent());
    Files.createDirectories(src.getParent());
    Files.createDirectories(cliSrc.getParent());
    Files.writeString(home.resolve("pom.xml"), "<project/>");
    Files.writeString(src, "class A {}");
    assertThat(BenchCommand.staleness(home, jar)).contains("missing");

    Files.writeString(jar, "jar");
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    Files.setLastModifiedTime(home.resolve("pom.xml"), FileTime.from(t));
    Files.setLastModifiedTime(src, FileTime.from(t));
    Files.setLastModifiedTime(jar, FileTime.from(t.plusSeconds(60)));
    assertThat(BenchCommand.staleness(home, jar)).isEmpty();

    Files.writeString(cliSrc, "class B {}"); // the CLI is not in the jar
    Files.setLastModifiedTime(cliSrc, FileTime.from(t.plusSeconds(120)));
    assertThat(BenchCommand.staleness(home, jar)).isEmpty();

    Files.setLastModifiedTime(src, FileTime.from(t.plusSeconds(120)));
    assertThat(BenchCommand.staleness(home, jar)).contains("older than core/src/main/java/A.java");
  }

  private List<String> stub(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(BenchCommand.javaExecutable().toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(BenchChildStub.class.getName());
    cmd.addAll(List.of(args));
    return cmd;
  }

  @Test
  void theChildsOutputStreamsThroughAndItsExitCodeIsReturned() throws Exception {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code =
        new BenchCommand(session())
            .run(stub("echo", "3", "a b", "--x"), tmp, new PrintWriter(o), new PrintWriter(e));
    assertThat(code).isEqualTo(3);
    assertThat(o.toString().lines()).containsExactly("args: a b --x", "second line");
    assertThat(e.toString().lines()).containsExactly("to stderr");
  }

  @Test
  void ctrlCStopsTheChildAndExits130() throws Exception {
    CountDownLatch ready = new CountDownLatch(1);
    Writer watch =
        new Writer() {
          private final StringBuilder seen = new StringBuilder();

          @Override
          public void write(char[] c, int off, int len) {
            seen.append(c, off, len);
            if (seen.indexOf("ready") >= 0) {
              ready.countDown();
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    BenchCommand cmd = new BenchCommand(session());
    List<ProcessHandle> children = Collections.synchronizedList(new ArrayList<>());
    Thread ctrlC =
        new Thread(
            () -> {
              try {
                ready.await();
                ProcessHandle.current().children().forEach(children::add);
                guard.interrupt(); // what the shutdown hook does on SIGINT
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "test-ctrl-c");
    ctrlC.start();
    try {
      assertThatThrownBy(() -> cmd.run(stub("block"), tmp, new PrintWriter(watch), err))
          .isInstanceOf(CommandInterruptedException.class);
    } finally {
      ctrlC.join();
      Thread.interrupted(); // the guard interrupted this thread; the run has ended
    }
    assertThat(guard.interrupted()).isTrue();
    assertThat(children).as("the stub child was seen").isNotEmpty();
    assertThat(children).as("no child left running").noneMatch(ProcessHandle::isAlive);
  }

  @Test
  void aJarWithoutTheExperimentsClassIsNamed() throws IOException {
    Path jar = tmp.resolve("empty.jar");
    try (var z = new java.util.zip.ZipOutputStream(Files.newOutputStream(jar))) {
      z.putNextEntry(new java.util.zip.ZipEntry("META-INF/MANIFEST.MF"));
      z.closeEntry();
    }
    assertThatThrownBy(
            () -> BenchCommand.checkClassInJar(jar, BenchCommand.EXPERIMENTS.get("growth")))
        .hasMessageContaining(
            "has no dev.idxkit.jmh.experiments.GrowthBench for experiment growth");
  }
}
