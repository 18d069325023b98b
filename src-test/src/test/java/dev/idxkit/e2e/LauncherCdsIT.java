package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./idxkit} launcher's class-data archive ({@code cli/target/idxkit.jsa}), on a copy of
 * the launcher in a directory of its own: {@code idxkit} and {@code cli/target/} with a copy of the
 * built jar and its {@code jvm.args} (no sources, so the launcher never builds). One training run
 * for the whole class (about 10 s); each test then runs the launcher through {@code bash} with
 * {@code -Xlog:class+load} written to a file, and reads where {@code dev.idxkit.cli.Main} and
 * picocli's {@code CommandLine} came from: the archive ("shared objects file") or the jar.
 *
 * <p>Tests that make the archive stale set file times explicitly (no sleeping) and put them back.
 */
class LauncherCdsIT {
  @TempDir static Path root;

  static Path jar;
  static Path archive;
  static Path db;
  static Run first;

  /** One launcher run. */
  record Run(int exit, String out, String err) {}

  @BeforeAll
  static void trainOnce() throws Exception {
    jar = launcherCopy(root);
    archive = jar.resolveSibling("idxkit.jsa");
    first = launcher(Map.of(), "--version");
    db = root.resolve("t.db");
    Run create = launcher(Map.of(), "create", db.toString(), "--tpch");
    assertThat(create.exit()).as(create.toString()).isZero();
  }

  /** The launcher and a copy of the built jar in {@code dir}; returns the jar. */
  static Path launcherCopy(Path dir) throws IOException {
    // The JVM these tests run on is the one the launcher is given (JAVA_HOME below).
    return launcherCopy(dir, System.getProperty("java.specification.version"), "");
  }

  /**
   * The launcher and a copy of the built jar in {@code dir}, for a JVM of feature release {@code
   * feature} that needs {@code extraFlags} besides the build's; returns the jar.
   */
  static Path launcherCopy(Path dir, String feature, String extraFlags) throws IOException {
    Files.copy(Cli.repo().resolve("idxkit"), dir.resolve("idxkit"));
    Path target = Files.createDirectories(dir.resolve("cli/target"));
    Path copy = target.resolve("idxkit.jar");
    Files.copy(Cli.jar(), copy, StandardCopyOption.COPY_ATTRIBUTES);
    String flags = Files.readString(Cli.repo().resolve("cli/target/jvm.args")).strip();
    Files.writeString(target.resolve("jvm.args"), (flags + " " + extraFlags).strip() + "\n");
    // Without it the launcher would rebuild the jar for another JVM (it never can here: no
    // sources).
    Files.writeString(target.resolve("java.version"), feature + "\n");
    return copy;
  }

  @Test
  void theFirstRunMakesTheArchiveWithOneLineOnStderr() throws Exception {
    assertFirstRunMadeTheArchive(first, archive, System.getProperty("java.vm.version"));
    assertThat(Files.readString(archive.resolveSibling("idxkit.jsa.log"))).contains("ok in");
  }

  /**
   * {@code first} ({@code --version}, the first run after a build) ran, printed one line on stderr,
   * and left {@code archive} made by the JVM of {@code vmVersion} with its training log, and no
   * temporary directory.
   */
  static void assertFirstRunMadeTheArchive(Run first, Path archive, String vmVersion)
      throws IOException {
    assertThat(first.exit()).as(first.toString()).isZero();
    assertThat(first.out()).startsWith("idxkit ");
    assertThat(first.err().lines().toList())
        .as(first.toString())
        .containsExactly(
            "idxkit: making the start-up archive cli/target/idxkit.jsa (once per build)... done");
    assertThat(archive).isRegularFile();
    assertThat(Files.readString(archive.resolveSibling("idxkit.jsa.jvm")))
        .contains("java.vm.version=" + vmVersion);
    assertThat(Files.readString(archive.resolveSibling("idxkit.jsa.log")))
        .contains("idxkit idxbuild");
    try (var left = Files.list(archive.getParent())) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .as("the training's temporary directory is gone")
          .noneMatch(n -> n.startsWith(".idxkit-cds"));
    }
  }

  @Test
  void laterRunsMapTheArchiveSilently() throws Exception {
    Path log = root.resolve("used.log");
    Run r = launcher(Map.of("IDXKIT_JAVA_OPTS", classLog(log)), "info", db.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).as(r.toString()).isEmpty();
    assertThat(r.out()).startsWith("database ").contains("lineitem_pk");
    assertThat(source(log, "dev.idxkit.cli.Main")).isEqualTo("shared objects file");
    assertThat(source(log, "picocli.CommandLine")).isEqualTo("shared objects file");
    assertThat(jvmFlags(launcher(Map.of("IDXKIT_JAVA_OPTS", PRINT_FLAGS), "--version")))
        .contains("-XX:SharedArchiveFile=" + archive.toRealPath())
        .doesNotContain("AOTCache");
  }

  /** Makes the JVM print the -XX flags it was given (and the ones it set) as its first line. */
  static final String PRINT_FLAGS = "-XX:+PrintCommandLineFlags";

  /** The flags line a run with {@link #PRINT_FLAGS} printed. */
  static String jvmFlags(Run r) {
    assertThat(r.exit()).as(r.toString()).isZero();
    return r.out().lines().findFirst().orElse("");
  }

  @Test
  void offRunsFromTheJar() throws Exception {
    Path log = root.resolve("off.log");
    Run r =
        launcher(
            Map.of("IDXKIT_CDS", "off", "IDXKIT_JAVA_OPTS", classLog(log)), "info", db.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(source(log, "dev.idxkit.cli.Main")).startsWith("file:").endsWith("idxkit.jar");
  }

  /**
   * A jar that changed after the archive was made while the archive still looks current to the
   * launcher (two launchers racing, or a build that kept the jar's time): the JVM finds the jar's
   * time differs from the one the archive recorded, drops the archive and says nothing.
   */
  @Test
  void aStaleArchiveIsIgnoredWithoutAWord() throws Exception {
    assertAStaleArchiveIsIgnored(
        jar,
        archive,
        log -> launcher(Map.of("IDXKIT_JAVA_OPTS", classLog(log)), "info", db.toString()));
  }

  /** An {@code info} run through a launcher, with the class log written to the file given. */
  @FunctionalInterface
  interface LoggedRun {
    Run run(Path classLog) throws Exception;
  }

  /**
   * Makes {@code jar} newer than what {@code archive} recorded while the archive still looks
   * current to the launcher, runs {@code info}, and checks that the JVM dropped the archive without
   * a word; puts the file times back.
   */
  static void assertAStaleArchiveIsIgnored(Path jar, Path archive, LoggedRun info)
      throws Exception {
    FileTime jarTime = Files.getLastModifiedTime(jar);
    FileTime archiveTime = Files.getLastModifiedTime(archive);
    Path id = archive.resolveSibling("idxkit.jsa.jvm");
    FileTime idTime = Files.getLastModifiedTime(id);
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    try {
      Files.setLastModifiedTime(jar, FileTime.from(now));
      Files.setLastModifiedTime(archive, FileTime.from(now.plusSeconds(60)));
      Files.setLastModifiedTime(id, FileTime.from(now.plusSeconds(60)));
      Path log = archive.resolveSibling("stale-" + System.nanoTime() + ".log");
      Run r = info.run(log);
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.err()).as(r.toString()).isEmpty();
      assertThat(r.out()).as(r.toString()).startsWith("database ").doesNotContain("warning");
      assertThat(source(log, "dev.idxkit.cli.Main"))
          .as("the JVM refused the archive, so this test saw the stale case")
          .startsWith("file:");
    } finally {
      Files.setLastModifiedTime(jar, jarTime);
      Files.setLastModifiedTime(archive, archiveTime);
      Files.setLastModifiedTime(id, idTime);
    }
  }

  /**
   * A jar newer than the archive after a training that failed for it: the launcher neither passes
   * the old archive nor trains again on every run, and prints nothing.
   */
  @Test
  void aJarNewerThanTheArchiveIsNotMappedAndAFailedTrainingIsNotRepeated() throws Exception {
    FileTime jarTime = Files.getLastModifiedTime(jar);
    Path failed = archive.resolveSibling("idxkit.jsa.failed");
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    try {
      Files.setLastModifiedTime(jar, FileTime.from(now.plusSeconds(60)));
      Files.writeString(failed, Files.readString(archive.resolveSibling("idxkit.jsa.jvm")));
      Files.setLastModifiedTime(failed, FileTime.from(now.plusSeconds(120)));
      FileTime archiveTime = Files.getLastModifiedTime(archive);
      Path log = root.resolve("newer.log");
      Run r = launcher(Map.of("IDXKIT_JAVA_OPTS", classLog(log)), "info", db.toString());
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.err()).as(r.toString()).isEmpty();
      assertThat(Files.getLastModifiedTime(archive)).as("no training").isEqualTo(archiveTime);
      assertThat(source(log, "dev.idxkit.cli.Main")).startsWith("file:");
    } finally {
      Files.deleteIfExists(failed);
      Files.setLastModifiedTime(jar, jarTime);
    }
  }

  /**
   * A training that fails (here: a {@code java} that refuses {@code -XX:DumpLoadedClassList}, in a
   * JAVA_HOME of its own that runs everything else with this JVM): one line on stderr, the command
   * runs without an archive, and the next run neither trains again nor prints anything.
   */
  @Test
  void aFailedTrainingSaysOneLineRunsWithoutAndIsNotRepeated(@TempDir Path other) throws Exception {
    Path otherJar = launcherCopy(other);
    Path bin = Files.createDirectories(other.resolve("jdk/bin"));
    Path java = bin.resolve("java");
    Files.writeString(
        java,
        "#!/usr/bin/env bash\n"
            + "for a in \"$@\"; do\n"
            + "  case \"$a\" in -XX:DumpLoadedClassList=*) echo \"no class list here\" >&2; exit 1;;"
            + " esac\n"
            + "done\n"
            + "exec '"
            + Path.of(System.getProperty("java.home"), "bin", "java")
            + "' \"$@\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> env = Map.of("JAVA_HOME", other.resolve("jdk").toString());
    Run failed = launcher(other, env, "--version");
    assertThat(failed.exit()).as(failed.toString()).isZero();
    assertThat(failed.out()).startsWith("idxkit ");
    assertThat(failed.err().lines().toList())
        .as(failed.toString())
        .containsExactly(
            "idxkit: making the start-up archive cli/target/idxkit.jsa (once per build)... not made"
                + " (cli/target/idxkit.jsa.log says why); running without it");
    Path target = otherJar.getParent();
    assertThat(target.resolve("idxkit.jsa")).doesNotExist();
    assertThat(target.resolve("idxkit.jsa.failed")).isRegularFile();
    assertThat(Files.readString(target.resolve("idxkit.jsa.log"))).contains("no class list here");
    Run again = launcher(other, env, "--version");
    assertThat(again.exit()).as(again.toString()).isZero();
    assertThat(again.err()).as(again.toString()).isEmpty();
  }

  /**
   * The launcher asks the JVM for its version once per java binary, not on every run (a JVM start
   * of its own, about 0.1 s): here a {@code java} in a JAVA_HOME of its own counts the times it is
   * asked. Asked again when the binary is newer than what was kept (upgraded in place) or what was
   * kept names another binary.
   */
  @Test
  void theJvmIsAskedForItsVersionOncePerBinary(@TempDir Path other) throws Exception {
    launcherCopy(other);
    Path bin = Files.createDirectories(other.resolve("jdk/bin"));
    Path java = bin.resolve("java");
    Path asked = other.resolve("asked");
    Files.writeString(
        java,
        "#!/usr/bin/env bash\n"
            + "case \"$*\" in *-XshowSettings:properties*) echo asked >> '"
            + asked
            + "';; esac\n"
            + "exec '"
            + Path.of(System.getProperty("java.home"), "bin", "java")
            + "' \"$@\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> env =
        Map.of("JAVA_HOME", other.resolve("jdk").toString(), "IDXKIT_CDS", "off");
    Path kept = other.resolve("cli/target/java.settings");

    for (int i = 0; i < 3; i++) {
      Run r = launcher(other, env, "--version");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).startsWith("idxkit ");
      assertThat(r.err()).as(r.toString()).isEmpty();
    }
    assertThat(Files.readAllLines(asked)).as("asked over three runs").hasSize(1);
    assertThat(Files.readAllLines(kept))
        .first()
        .as("the binary the properties are of")
        .isEqualTo(java.toRealPath().toString());
    assertThat(Files.readString(kept))
        .contains(
            "java.specification.version = " + System.getProperty("java.specification.version"))
        .contains("java.vm.version = " + System.getProperty("java.vm.version"));

    // Upgraded in place: the binary is newer than what was kept.
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Files.setLastModifiedTime(kept, FileTime.from(now.minusSeconds(120)));
    Files.setLastModifiedTime(java, FileTime.from(now.minusSeconds(60)));
    assertThat(launcher(other, env, "--version").exit()).isZero();
    assertThat(Files.readAllLines(asked)).as("asked after the upgrade").hasSize(2);
    assertThat(launcher(other, env, "--version").exit()).isZero();
    assertThat(Files.readAllLines(asked)).as("and kept again").hasSize(2);

    // What was kept is another binary's.
    List<String> lines = new ArrayList<>(Files.readAllLines(kept));
    lines.set(0, "/elsewhere/bin/java");
    Files.write(kept, lines);
    assertThat(launcher(other, env, "--version").exit()).isZero();
    assertThat(Files.readAllLines(asked)).as("asked for another binary's").hasSize(3);
    assertThat(Files.readAllLines(kept)).first().isEqualTo(java.toRealPath().toString());
  }

  static String classLog(Path file) {
    return "-Xlog:class+load=info:file=" + file;
  }

  /** Where the class log says {@code cls} came from ("shared objects file", "file:/..."). */
  static String source(Path log, String cls) throws IOException {
    String prefix = " " + cls + " source: ";
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      int at = line.indexOf(prefix);
      if (at >= 0) {
        return line.substring(at + prefix.length()).strip();
      }
    }
    throw new AssertionError(cls + " is not in the class log " + log);
  }

  private static Run launcher(Map<String, String> env, String... args) throws Exception {
    return launcher(root, env, args);
  }

  static Run launcher(Path root, Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", root.resolve("idxkit").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
    pb.environment().remove("IDXKIT_CDS");
    pb.environment().remove("IDXKIT_JAVA_OPTS");
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().putAll(env);
    Path out = root.resolve("launcher.out");
    Path err = root.resolve("launcher.err");
    pb.redirectInput(ProcessBuilder.Redirect.from(Cli.nullFile()));
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    if (!p.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError(cmd + " still running after " + Cli.TIMEOUT_SECONDS + " s");
    }
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
