package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idxkit.core.testing.JavaCommand;
import dev.idxkit.e2e.Cli.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code idxkit bench} end to end: a real child JVM from the packaged {@code
 * jmh/target/benchmarks.jar} runs a tiny {@code io} experiment and writes its files; a bad option
 * comes back as the child's exit code 2; the packaged CLI and the packaged jar carry the same list
 * of experiments (one file, {@code jmh/src/main/resources/dev/idxkit/jmh/experiments.txt}, that
 * both builds copy in), and the jar holds each listed main class.
 *
 * <p>The jar: in a full build ({@code ./mvnw verify}) the reactor packages {@code jmh} before
 * {@code src-test}, so it is there; when only this module runs and it is absent, the tests are
 * skipped with a message saying how to build it. {@code --no-build} keeps the tests from starting a
 * Maven build of their own.
 *
 * <p>The command runs through the packaged CLI ({@link Cli}, which passes {@code -Didxkit.home} as
 * the {@code ./idxkit} launcher does).
 */
class BenchCommandIT {
  @TempDir static Path work;

  static Path jar;

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
  }

  static Result bench(String... args) throws Exception {
    return Cli.run(work, prepend("bench", args));
  }

  @Test
  void aTinyIoExperimentRunsInAChildAndWritesItsFiles() throws Exception {
    Path out = work.resolve("io-out");
    Result r =
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
    Result r = bench("--no-build", "io", "--bogus");
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("io: unknown option --bogus", "see 'idxkit bench io --help'");
  }

  @Test
  void theCliAndTheJarCarryTheSameListAndTheJarHasEveryMainClass() throws Exception {
    Process p =
        new ProcessBuilder(JavaCommand.java(), "-cp", jar.toString(), "dev.idxkit.jmh.Experiments")
            .redirectErrorStream(true)
            .start();
    String listing = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(listing).isZero();
    Map<String, String> inJar = new LinkedHashMap<>();
    try (ZipFile z = new ZipFile(jar.toFile())) {
      for (String line : listing.strip().split("\\R")) {
        String[] f = line.split("\t");
        assertThat(f).as(line).hasSize(3);
        inJar.put(f[0], f[2]);
        assertThat(z.getEntry(f[1].replace('.', '/') + ".class")).as(line).isNotNull();
      }
    }

    Result help = bench("--help");
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
