package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.e2e.LauncherCdsIT.Run;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./idxkit} launcher on JDK 25 and newer, where {@code cli/target/idxkit.jsa} is an
 * ahead-of-time cache written by the training run ({@code -XX:AOTCacheOutput}) and mapped with
 * {@code -XX:AOTCache}: made once with one line on stderr, mapped silently, ignored silently when
 * the jar changed under it. Runs on the JDK the tests run on if it is 25 or newer, else on a JDK
 * 25+ found in {@code $IDXKIT_TEST_JDK} or {@code /usr/lib/jvm}; skipped, saying so, when there is
 * none. The same launcher copy as {@link LauncherCdsIT}, with the JDK 24+ flags the build adds
 * there.
 */
class LauncherAotIT {
  @TempDir static Path root;

  static Path javaHome;
  static Path jar;
  static Path archive;
  static Path db;
  static Run first;

  @BeforeAll
  static void trainOnce() throws Exception {
    Optional<Path> jdk = jdk25();
    Assumptions.assumeTrue(
        jdk.isPresent(), "no JDK 25 or newer here ($IDXKIT_TEST_JDK, /usr/lib/jvm): skipped");
    javaHome = jdk.get();
    jar =
        LauncherCdsIT.launcherCopy(
            root, "25", "--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow");
    archive = jar.resolveSibling("idxkit.jsa");
    first = launcher(Map.of(), "--version");
    db = root.resolve("t.db");
    Run create = launcher(Map.of(), "create", db.toString(), "--tpch");
    assertThat(create.exit()).as(create.toString()).isZero();
  }

  @Test
  void theFirstRunWritesTheCacheWithOneLineOnStderr() throws Exception {
    LauncherCdsIT.assertFirstRunMadeTheArchive(first, archive, vmVersion(javaHome));
    assertThat(first.out()).contains("Java " + feature(javaHome) + ".");
    assertThat(Files.readString(archive.resolveSibling("idxkit.jsa.log")))
        .contains("AOTCache creation is complete");
  }

  @Test
  void laterRunsMapTheCacheSilently() throws Exception {
    Path log = root.resolve("used.log");
    Run r =
        launcher(Map.of("IDXKIT_JAVA_OPTS", LauncherCdsIT.classLog(log)), "info", db.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).as(r.toString()).isEmpty();
    assertThat(r.out()).startsWith("database ").contains("lineitem_pk");
    assertThat(LauncherCdsIT.source(log, "dev.idxkit.cli.Main")).isEqualTo("shared objects file");
    // Mapped through -XX:SharedArchiveFile the same file would load its classes too, without the
    // training's profiles: the flags say which way it was mapped.
    String flags =
        LauncherCdsIT.jvmFlags(
            launcher(Map.of("IDXKIT_JAVA_OPTS", LauncherCdsIT.PRINT_FLAGS), "--version"));
    assertThat(flags)
        .contains("-XX:AOTCache=" + archive.toRealPath())
        .contains("-XX:+AOTReplayTraining")
        .doesNotContain("SharedArchiveFile");
  }

  /** As {@link LauncherCdsIT#aStaleArchiveIsIgnoredWithoutAWord}, for the cache. */
  @Test
  void aStaleCacheIsIgnoredWithoutAWord() throws Exception {
    LauncherCdsIT.assertAStaleArchiveIsIgnored(
        jar,
        archive,
        log ->
            launcher(
                Map.of("IDXKIT_JAVA_OPTS", LauncherCdsIT.classLog(log)), "info", db.toString()));
  }

  private static Run launcher(Map<String, String> env, String... args) throws Exception {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("JAVA_HOME", javaHome.toString());
    return LauncherCdsIT.launcher(root, all, args);
  }

  /** A JDK of feature release 25 or newer: this one, $IDXKIT_TEST_JDK, or one in /usr/lib/jvm. */
  static Optional<Path> jdk25() throws IOException {
    List<Path> candidates = new ArrayList<>();
    candidates.add(Path.of(System.getProperty("java.home")));
    String given = System.getenv("IDXKIT_TEST_JDK");
    if (given != null && !given.isBlank()) {
      candidates.add(Path.of(given));
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(jvms)) {
      try (var dirs = Files.list(jvms)) {
        dirs.sorted().forEach(candidates::add);
      }
    }
    for (Path home : candidates) {
      if (feature(home) >= 25 && Files.isExecutable(home.resolve("bin/java"))) {
        return Optional.of(home);
      }
    }
    return Optional.empty();
  }

  /** The JDK's {@code java.vm.version}, read as the launcher reads it ({@code -XshowSettings}). */
  private static String vmVersion(Path home) throws Exception {
    Process p =
        new ProcessBuilder(
                home.resolve("bin/java").toString(), "-XshowSettings:properties", "-version")
            .redirectErrorStream(true)
            .start();
    String settings = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    Matcher m = Pattern.compile("(?m)^\\s*java\\.vm\\.version = (.+)$").matcher(settings);
    assertThat(m.find()).as(settings).isTrue();
    return m.group(1).strip();
  }

  /** The feature release in a JDK's {@code release} file, or 0 if it has none. */
  private static int feature(Path home) throws IOException {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release)) {
      return 0;
    }
    Matcher m = Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(Files.readString(release));
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }
}
