package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idxkit.cli.InterruptGuard;
import dev.idxkit.cli.Main;
import dev.idxkit.cli.Session;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code idxkit bench} end to end: a real child JVM from the packaged {@code
 * jmh/target/benchmarks.jar} runs a tiny {@code io} experiment and writes its files; a bad option
 * comes back as the child's exit code 2; the experiments the command lists are the ones the jar's
 * {@code dev.idxkit.jmh.Experiments} registry lists.
 *
 * <p>The jar: in a full build ({@code ./mvnw verify}) the reactor packages {@code jmh} before
 * {@code src-test}, so it is there; when only this module runs and it is absent, the tests are
 * skipped with a message saying how to build it. {@code --no-build} keeps the tests from starting a
 * Maven build of their own.
 *
 * <p>The command: through the packaged CLI ({@code cli/target/idxkit.jar}, with {@code
 * -Didxkit.home} as the {@code ./idxkit} launcher passes it) once {@code bench} is registered in
 * {@code Main}; until then through {@code BenchCommand} added to {@code Main}'s command tree in
 * this JVM, which runs the same child the same way.
 */
class BenchCommandIT {
  @TempDir static Path work;

  static Path jar;
  static boolean packagedCliHasBench;

  @BeforeAll
  static void findTheJar() throws Exception {
    jar = Cli.repo().resolve("jmh/target/benchmarks.jar");
    assumeTrue(
        Files.isRegularFile(jar),
        "no "
            + jar
            + ": build it first (./mvnw -B -pl jmh -am package -DskipTests); skipping the bench"
            + " end-to-end tests");
    try (ZipFile z = new ZipFile(jar.toFile())) {
      assumeTrue(
          z.getEntry("dev/idxkit/jmh/Experiments.class") != null,
          jar + " predates the bench experiments: rebuild it; skipping");
    }
    // The top-level help lists the registered commands ("idxkit bench --help" cannot tell: with
    // --help present picocli prints the top-level help and exits 0 even for an unknown command).
    packagedCliHasBench =
        Cli.run(work, "--help").outLines().stream().anyMatch(l -> l.matches("\\s+bench\\s.*"));
    System.out.println(
        "BenchCommandIT: running bench "
            + (packagedCliHasBench
                ? "through the packaged CLI"
                : "in this JVM (not registered in the packaged CLI's Main yet)"));
  }

  record Run(int exit, String out, String err) {}

  static Run bench(String... args) throws Exception {
    return packagedCliHasBench ? packaged(args) : inProcess(args);
  }

  private static Run packaged(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(Cli.command(prepend("bench", args)));
    cmd.add(1, "-Didxkit.home=" + Cli.repo());
    Path out = Files.createTempFile(work, ".out-", ".txt");
    Path err = Files.createTempFile(work, ".err-", ".txt");
    Process p =
        new ProcessBuilder(cmd)
            .directory(work.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError("idxkit bench still running after " + Cli.TIMEOUT_SECONDS + " s");
    }
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  private static Run inProcess(String... args) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    PrintWriter o = new PrintWriter(out, true);
    PrintWriter e = new PrintWriter(err, true);
    String before = System.getProperty("idxkit.home");
    System.setProperty("idxkit.home", Cli.repo().toString());
    try (Session s =
        new Session(
            InterruptGuard.detached(e),
            false,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            StandardCharsets.UTF_8,
            System::nanoTime,
            Session.PLAIN_INTERVAL_MILLIS)) {
      CommandLine cl = Main.commandLine(s, o, e);
      // BenchCommand's constructor is package-private, as every command's: create it the way
      // Main's factory does.
      Class<?> c = Class.forName("dev.idxkit.cli.commands.BenchCommand");
      Constructor<?> k = c.getDeclaredConstructor(Session.class);
      k.setAccessible(true);
      CommandLine bench = new CommandLine(k.newInstance(s));
      bench.setOut(o);
      bench.setErr(e);
      cl.addSubcommand("bench", bench);
      int code = cl.execute(prepend("bench", args));
      return new Run(code, out.toString(), err.toString());
    } finally {
      if (before == null) {
        System.clearProperty("idxkit.home");
      } else {
        System.setProperty("idxkit.home", before);
      }
    }
  }

  @Test
  void aTinyIoExperimentRunsInAChildAndWritesItsFiles() throws Exception {
    Path out = work.resolve("io-out");
    Run r =
        bench(
            "--no-build",
            "io",
            "1m",
            "--min-chunk",
            "4k",
            "--max-chunk",
            "16k",
            "--millis",
            "2",
            "--rounds",
            "1",
            "--methods",
            "mmap,channel",
            "--dir",
            work.toString(),
            "--out",
            out.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("io: results in " + out.toAbsolutePath().normalize());
    List<String> csv = Files.readAllLines(out.resolve("io.csv"));
    assertThat(csv).hasSize(1 + 4 * 2 * 2); // 4 chunk sizes x 2 methods x 2 patterns
    assertThat(Files.readAllLines(out.resolve("io-vs-dd.csv"))).hasSize(1 + 3);
    assertThat(out.resolve("io.png")).isNotEmptyFile();
    assertThat(Files.readString(out.resolve("io.json"))).contains("\"experiment\": \"io\"");
  }

  @Test
  void theChildsExitCodeAndMessageComeThrough() throws Exception {
    Run r = bench("--no-build", "io", "--bogus");
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("io: unknown option --bogus", "see 'idxkit bench io --help'");
  }

  @Test
  void benchListsExactlyTheJarsExperiments() throws Exception {
    Process p =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                jar.toString(),
                "dev.idxkit.jmh.Experiments")
            .redirectErrorStream(true)
            .start();
    String listing = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(listing).isZero();
    Map<String, String> inJar = new LinkedHashMap<>();
    for (String line : listing.strip().split("\\R")) {
      String[] f = line.split("\t");
      assertThat(f).as(line).hasSize(3);
      inJar.put(f[0], f[2]);
    }

    Run help = bench("--help");
    assertThat(help.exit()).as(help.toString()).isZero();
    Map<String, String> listed = experimentsSection(help.out());
    assertThat(listed).isEqualTo(inJar);
  }

  /** The "Experiments:" section of the help: name -> description, wrapped lines joined. */
  static Map<String, String> experimentsSection(String help) {
    Map<String, String> m = new LinkedHashMap<>();
    boolean in = false;
    String name = null;
    for (String line : help.split("\\R")) {
      if (line.equals("Experiments:")) {
        in = true;
        continue;
      }
      if (!in) {
        continue;
      }
      if (line.isBlank()) {
        break;
      }
      if (line.length() > 2 && line.charAt(2) != ' ') {
        String[] f = line.strip().split("\\s+", 2);
        name = f[0];
        m.put(name, f[1]);
      } else {
        m.put(name, m.get(name) + " " + line.strip());
      }
    }
    return m;
  }

  private static String[] prepend(String first, String... rest) {
    String[] a = new String[rest.length + 1];
    a[0] = first;
    System.arraycopy(rest, 0, a, 1, rest.length);
    return a;
  }
}
